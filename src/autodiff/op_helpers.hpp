// Small graph-building shorthands the adjoint rules share.
#pragma once

#include "graph/builders.hpp"

namespace ng::autodiff {

// A rank-0 constant with `like`'s dtype, in `like`'s graph.
inline Op *constant_like(const Op *like, double value) {
    return build::scalar(*like->graph, like->dtype, value);
}

// Zeros with exactly `like`'s axes and dtype.
Op *zeros_like(const Op *like);

// `x` with its axes renamed, in order, to `axes` (no op when they already are those axes).
Op *with_axes(Op *x, const Axes &axes);

// 1 where `condition` (bool) holds, else 0, in `dtype`.
Op *mask_of(Op *condition, DType dtype);

}  // namespace ng::autodiff
