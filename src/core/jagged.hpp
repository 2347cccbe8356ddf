// Jagged host tensors: a smooth or jagged shape and its values, one per index, in row-major
// order, as a rank-1 tensor (owned, or a view of caller memory or of another tensor). A slice
// is a view: its values are a contiguous range of its parent's.
#pragma once

#include <memory>

#include "core/shape.hpp"
#include "core/tensor.hpp"

namespace ng {

struct JaggedTensor {
    std::shared_ptr<const Shape> shape;  // smooth or jagged, never nested
    Tensor values;                       // rank 1, shape->numel() elements

    // Checks that the shape is not nested and that `values` is rank 1 with one element per
    // index of the shape; NG_ERR_AXES otherwise.
    JaggedTensor(std::shared_ptr<const Shape> shape, Tensor values);
    JaggedTensor() = default;

    // Mode 0 range [start, stop) and the slice at an index prefix, as views.
    JaggedTensor range(int64_t start, int64_t stop) const;
    JaggedTensor at(const int64_t *prefix, int32_t n) const;

    // The padded dense form: extents are each mode's largest; positions outside the shape hold
    // zero in `padded` and false in `mask` (NG_BOOL, same extents).
    void to_padded(Tensor &padded, Tensor &mask) const;
    // The inverse: the shape is read off the mask (mode 0 keeps the padded extent; each later
    // row ends after its last true entry), which must be true exactly on that shape's indices.
    static JaggedTensor from_padded(const Tensor &padded, const Tensor &mask);
};

}  // namespace ng
