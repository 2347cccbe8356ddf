#include "autodiff/op_helpers.hpp"

namespace ng::autodiff {

Op *zeros_like(const Op *like) {
    Op *zero = constant_like(like, 0.0);
    return like->axes.empty() ? zero : build::broadcast(zero, like->axes);
}

Op *with_axes(Op *x, const Axes &axes) {
    return x->axes == axes ? x : build::cast_axes(x, axes);
}

Op *mask_of(Op *condition, DType dtype) {
    return build::cast(condition, dtype);
}

}  // namespace ng::autodiff
