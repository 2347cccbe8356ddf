// run_arg_reduce: the index of the first maximum (minimum) along one dimension. NaN counts as
// the extreme value for both (NumPy's argmax/argmin): the first NaN wins.
#include <algorithm>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/parallel.hpp"
#include "kernels/scratch.hpp"

namespace ng::kernels {
namespace {

template <class T>
bool replaces(bool is_max, T x, T best) {
    if (best != best) return false;  // a NaN is never replaced
    if (x != x) return true;
    return is_max ? x > best : x < best;
}

template <class T>
struct ArgRun {
    bool is_max;
    const IterationSpace &space;  // kept dimensions; operand 0 = out (int64), 1 = in
    const char *in;
    char *out;
    int64_t length, stride;  // of the reduced dimension in `in`

    void offsets_of(int64_t linear, int64_t start, int64_t (&offsets)[2]) const {
        offsets[0] = start * space.last_stride(0);
        offsets[1] = start * space.last_stride(1);
        space.add_offsets(0, space.rank() - 1, linear, offsets);
    }

    // One kept point at a time: a scan along the reduced dimension.
    void rows(ThreadPool *pool) const {
        int32_t last = space.rank() - 1;
        int64_t inner = space.dim(last);
        for_items(pool, space.count(0, last) * inner, length, [&](int64_t begin, int64_t end) {
            for (int64_t item = begin; item < end; ++item) {
                int64_t offsets[2] = {0, 0};
                offsets_of(item / inner, item % inner, offsets);
                auto x = reinterpret_cast<const T *>(in) + offsets[1];
                int64_t best = 0;
                for (int64_t j = 1; j < length; ++j)
                    if (replaces(is_max, x[j * stride], x[best * stride])) best = j;
                reinterpret_cast<int64_t *>(out)[offsets[0]] = best;
            }
        });
    }

    // A tile of contiguous kept points at a time, walking the reduced dimension row by row.
    void columns(ThreadPool *pool) const {
        int32_t last = space.rank() - 1;
        int64_t inner = space.dim(last), tiles = (inner + kTile - 1) / kTile;
        int64_t out_stride = space.last_stride(0);
        for_items(pool, space.count(0, last) * tiles, length * std::min(inner, kTile),
                  [&](int64_t begin, int64_t end) {
                      auto best = static_cast<int64_t *>(
                          thread_scratch(ScratchArea::Row, kTile * sizeof(int64_t)));
                      for (int64_t item = begin; item < end; ++item) {
                          int64_t start = item % tiles * kTile,
                                  len = std::min(kTile, inner - start);
                          int64_t offsets[2] = {0, 0};
                          offsets_of(item / tiles, start, offsets);
                          auto x = reinterpret_cast<const T *>(in) + offsets[1];
                          std::fill(best, best + len, 0);
                          for (int64_t j = 1; j < length; ++j) {
                              const T *row = x + j * stride;
                              for (int64_t i = 0; i < len; ++i)
                                  if (replaces(is_max, row[i], x[best[i] * stride + i]))
                                      best[i] = j;
                          }
                          auto o = reinterpret_cast<int64_t *>(out) + offsets[0];
                          for (int64_t i = 0; i < len; ++i) o[i * out_stride] = best[i];
                      }
                  });
    }
};

}  // namespace

void run_arg_reduce(bool is_max, DType dt, const std::vector<int64_t> &shape, int32_t dim,
                    const Strided &in, const Strided &out, ThreadPool *pool) {
    check_dtype(dt, "run_arg_reduce");
    with_scratch([&](Scratch &scratch) {
        IterationSpace &space = scratch.arg_reduce.space;
        std::vector<int64_t> &kept_shape = scratch.arg_reduce.kept_shape;
        Strided &kept_in = scratch.arg_reduce.kept_in, &kept_out = scratch.arg_reduce.kept_out;
        if (dim < 0 || dim >= static_cast<int32_t>(shape.size()))
            throw invalid_argument("run_arg_reduce: dimension ", dim, " out of range for rank ",
                                   shape.size());
        if (in.strides.size() != shape.size() || out.strides.size() != shape.size())
            throw internal_error("run_arg_reduce: operands need ", shape.size(), " strides");
        auto without_dim = [&](const std::vector<int64_t> &v, std::vector<int64_t> &into) {
            into.assign(v.begin(), v.end());
            into.erase(into.begin() + dim);
        };
        without_dim(shape, kept_shape);
        without_dim(in.strides, kept_in.strides);
        without_dim(out.strides, kept_out.strides);
        space.assign("run_arg_reduce", kept_shape, {&kept_out, &kept_in});
        if (space.numel() == 0) return;
        int64_t length = shape[dim];
        if (length <= 0)
            throw invalid_argument("run_arg_reduce: dimension ", dim,
                                   " is empty: no first extreme exists");
        space.simplify_for(1);  // read the input in memory order

        visit_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            ArgRun<T> run{is_max,
                          space,
                          static_cast<const char *>(in.data),
                          static_cast<char *>(out.data),
                          length,
                          in.strides[dim]};
            bool contiguous_kept = space.last_stride(1) == 1 && space.dim(space.rank() - 1) > 1;
            if (contiguous_kept && run.stride != 1)
                run.columns(pool);
            else
                run.rows(pool);
        });
    });
}

}  // namespace ng::kernels
