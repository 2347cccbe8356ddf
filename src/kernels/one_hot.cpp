// run_one_hot: the one-hot encoding of integer class indices, written as ones into an output the
// caller has zeroed.
#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/scratch.hpp"

namespace ng::kernels {

void run_one_hot(DType index_dtype, const Strided &indices, DType dt, const Strided &out,
                 const std::vector<int64_t> &shape, int64_t depth, int64_t depth_stride) {
    check_dtype(index_dtype, "run_one_hot");
    check_dtype(dt, "run_one_hot");
    if (!dtype_is_integer(index_dtype))
        throw dtype_error("run_one_hot: indices of ", dtype_name(index_dtype),
                          ", not an integer dtype");
    if (depth < 0) throw invalid_argument("run_one_hot: negative depth ", depth);
    with_scratch([&](Scratch &scratch) {
        IterationSpace &space = scratch.one_hot.space;
        space.assign("run_one_hot", shape, {&indices, &out});
        if (space.numel() == 0) return;
        space.simplify_for(1);  // the output in memory order
        const int64_t length = space.dim(space.rank() - 1);
        const int64_t in_step = space.last_stride(0), out_step = space.last_stride(1);
        visit_dtype(index_dtype, [&](auto index_zero) {
            using I = decltype(index_zero);
            visit_dtype(dt, [&](auto value_zero) {
                using V = decltype(value_zero);
                const I *x = static_cast<const I *>(indices.data);
                V *y = static_cast<V *>(out.data);
                space.for_each_row([&](const int64_t *offsets) {
                    for (int64_t i = 0; i < length; ++i) {
                        const auto k = static_cast<int64_t>(x[offsets[0] + i * in_step]);
                        if (k >= 0 && k < depth)  // out of range: the class axis stays zero
                            y[offsets[1] + i * out_step + k * depth_stride] = V(1);
                    }
                });
            });
        });
    });
}

}  // namespace ng::kernels
