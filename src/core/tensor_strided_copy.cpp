#include "core/tensor_strided_copy.hpp"

#include <cstdint>
#include <cstring>

namespace ng {

namespace {

// One row: n elements of Size bytes. memcpy of a constant size compiles to a single move.
template <size_t Size>
void copy_row(int64_t n, const char *src, int64_t src_step, char *dst, int64_t dst_step) {
    for (int64_t i = 0; i < n; ++i, src += src_step, dst += dst_step) std::memcpy(dst, src, Size);
}

using RowCopy = void (*)(int64_t, const char *, int64_t, char *, int64_t);

RowCopy row_copy_for(size_t element_size) {
    switch (element_size) {
    case 1: return copy_row<1>;
    case 2: return copy_row<2>;
    case 4: return copy_row<4>;
    case 8: return copy_row<8>;
    default: return nullptr;
    }
}

}  // namespace

void copy_strided_elements(size_t element_size, const Dims &shape, const void *src,
                           Dims src_strides, void *dst, Dims dst_strides) {
    Dims dims = coalesce(shape, {&src_strides, &dst_strides});
    if (!dims.empty() && dims[0] == 0) return;
    if (dims.empty()) {  // a single element
        std::memcpy(dst, src, element_size);
        return;
    }
    const size_t rank = dims.size();
    const int64_t size = static_cast<int64_t>(element_size);
    const int64_t inner = dims[rank - 1];
    const int64_t src_step = src_strides[rank - 1] * size, dst_step = dst_strides[rank - 1] * size;
    const bool dense_rows = src_strides[rank - 1] == 1 && dst_strides[rank - 1] == 1;
    RowCopy row = row_copy_for(element_size);
    if (row == nullptr) throw internal_error("copy of ", element_size, "-byte elements");

    // An odometer over the outer dimensions; each position copies one row.
    Dims index(rank - 1, 0);
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    for (;;) {
        if (dense_rows)
            std::memcpy(d, s, static_cast<size_t>(inner) * element_size);
        else
            row(inner, s, src_step, d, dst_step);
        size_t k = rank - 1;
        for (; k-- > 0;) {
            s += src_strides[k] * size;
            d += dst_strides[k] * size;
            if (++index[k] < dims[k]) break;
            s -= src_strides[k] * size * dims[k];
            d -= dst_strides[k] * size * dims[k];
            index[k] = 0;
        }
        if (k == SIZE_MAX) return;
    }
}

}  // namespace ng
