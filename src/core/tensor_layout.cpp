// Strides, extents and checks of strided layouts.
#include <algorithm>

#include "core/checked_math.hpp"
#include "core/tensor.hpp"

namespace ng {

std::string dims_text(const Dims &dims) {
    std::string text = "(";
    for (size_t k = 0; k < dims.size(); ++k) text += (k ? ", " : "") + std::to_string(dims[k]);
    return text + ")";
}

// A length-0 dimension counts as 1 so that strides stay meaningful.
Dims row_major_strides(const Dims &shape, const Dims &sizes) {
    const Dims &extent = sizes.empty() ? shape : sizes;
    if (extent.size() != shape.size())
        throw invalid_argument("sizes has rank ", extent.size(), " but shape has rank ",
                               shape.size());
    Dims strides(shape.size());
    int64_t step = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        if (extent[d] < shape[d])
            throw invalid_argument("size ", extent[d], " of dimension ", d,
                                   " is less than its length ", shape[d]);
        strides[d] = step;
        step = checked_mul(step, std::max<int64_t>(extent[d], 1), "strides");
    }
    return strides;
}

int64_t Layout::numel() const {
    return checked_numel(shape, "shape");
}

bool Layout::is_row_major_contiguous() const {
    // One pass: dense unless a dimension longer than 1 has an unexpected stride. A shape whose
    // element count overflows is left to numel(), which throws as before.
    int64_t expected = 1;
    bool dense = true;
    for (size_t k = shape.size(); k-- > 0;) {
        if (shape[k] == 0) return numel() == 0;
        if (shape[k] == 1) continue;
        dense = dense && strides[k] == expected;
        if (shape[k] < 0 || __builtin_mul_overflow(expected, shape[k], &expected))
            return numel() == 0;
    }
    return dense;
}

void Layout::extent(int64_t &lowest, int64_t &past_highest) const {
    // The common case in one pass without a check that can throw (runs ask it of every tensor
    // they are given): no empty or negative dimension, nothing overflows. Anything else takes the
    // checked path below, which gives the empty extent or the error.
    int64_t count = 1, low = 0, high = 0;
    bool plain = true;
    for (size_t k = 0; plain && k < shape.size(); ++k) {
        int64_t reach = 0;
        plain = shape[k] > 0 && !__builtin_mul_overflow(count, shape[k], &count) &&
                !__builtin_mul_overflow(shape[k] - 1, strides[k], &reach) &&
                !__builtin_add_overflow(reach < 0 ? low : high, reach, reach < 0 ? &low : &high);
    }
    if (plain && !__builtin_add_overflow(offset, low, &lowest) &&
        !__builtin_add_overflow(offset, high, &past_highest) &&
        !__builtin_add_overflow(past_highest, int64_t{1}, &past_highest))
        return;

    lowest = past_highest = offset;
    if (numel() == 0) return;
    low = high = 0;
    for (size_t k = 0; k < shape.size(); ++k) {
        int64_t reach = checked_mul(shape[k] - 1, strides[k], "strides");
        if (reach < 0)
            low = checked_add(low, reach, "strides");
        else
            high = checked_add(high, reach, "strides");
    }
    lowest = checked_add(offset, low, "offset");
    past_highest = checked_add(checked_add(offset, high, "offset"), 1, "offset");
}

bool Layout::has_broadcast_dims() const {
    for (size_t k = 0; k < shape.size(); ++k)
        if (shape[k] > 1 && strides[k] == 0) return true;
    return false;
}

}  // namespace ng
