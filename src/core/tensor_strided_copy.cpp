#include "core/tensor_strided_copy.hpp"

#include <cstdint>
#include <cstring>

#include "core/error.hpp"
#include "core/strided_space.hpp"

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
                           const Dims &src_strides, void *dst, const Dims &dst_strides) {
    RowCopy row = row_copy_for(element_size);
    if (row == nullptr) throw internal_error("copy of ", element_size, "-byte elements");
    StridedSpace space;
    space.reset("copy", shape);
    space.add_operand("copy", dst_strides);
    space.add_operand("copy", src_strides);
    if (space.numel() == 0) return;
    space.simplify_for(0);  // walk the destination in memory order

    const int64_t size = static_cast<int64_t>(element_size);
    const int64_t inner = space.dim(space.rank() - 1);
    const int64_t dst_step = space.last_stride(0) * size, src_step = space.last_stride(1) * size;
    const bool dense_rows = space.last_stride(0) == 1 && space.last_stride(1) == 1;
    const char *s = static_cast<const char *>(src);
    char *d = static_cast<char *>(dst);
    space.for_each_row([&](const int64_t *offsets) {
        char *to = d + offsets[0] * size;
        const char *from = s + offsets[1] * size;
        if (dense_rows)
            std::memcpy(to, from, static_cast<size_t>(inner) * element_size);
        else
            row(inner, from, src_step, to, dst_step);
    });
}

}  // namespace ng
