#include "kernels/gather.hpp"

#include <cstring>

#include "core/error.hpp"

namespace ng::kernels {

void gather_rows(DType dt, const void *x, int64_t outer, int64_t rows, int64_t inner,
                 DType index_dtype, const void *indices, int64_t count, void *out) {
    check_dtype(dt, "gather_rows");
    if (!dtype_is_integer(index_dtype))
        throw dtype_error("gather_rows: indices of ", dtype_name(index_dtype),
                          ", not an integer dtype");
    visit_dtype(index_dtype, [&](auto index_zero) {
        using I = decltype(index_zero);
        const I *idx = static_cast<const I *>(indices);
        for (int64_t j = 0; j < count; ++j) {
            const auto k = static_cast<int64_t>(idx[j]);
            if (k < 0 || k >= rows)
                throw invalid_argument("gather: index ", k, " at position ", j, " is outside 0..",
                                       rows - 1);
        }
        const auto row_bytes = static_cast<size_t>(inner) * dtype_size(dt);
        const auto *from = static_cast<const char *>(x);
        auto *to = static_cast<char *>(out);
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < count; ++j) {
                const auto k = static_cast<int64_t>(idx[j]);
                std::memcpy(to + (o * count + j) * row_bytes, from + (o * rows + k) * row_bytes,
                            row_bytes);
            }
    });
}

}  // namespace ng::kernels
