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
    if (numel() == 0) return true;
    int64_t expected = 1;
    for (size_t k = shape.size(); k-- > 0;) {
        if (shape[k] == 1) continue;
        if (strides[k] != expected) return false;
        expected *= shape[k];
    }
    return true;
}

void Layout::extent(int64_t &lowest, int64_t &past_highest) const {
    lowest = past_highest = offset;
    if (numel() == 0) return;
    int64_t low = 0, high = 0;
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
