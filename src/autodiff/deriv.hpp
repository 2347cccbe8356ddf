// Reverse-mode automatic differentiation over the op graph (`deriv`). Like every builder,
// these only add ops to the graph of their arguments: nothing is computed until a computation
// runs the result.
#pragma once

#include <vector>

#include "graph/op.hpp"

namespace ng {

// d(cost)/d(wrt) for a scalar float cost: an op with wrt's axes (in wrt's order) and dtype.
// Throws NG_ERR_AXES for a cost that is not rank 0, NG_ERR_DTYPE for a non-float cost or wrt.
Op *deriv(Op *cost, Op *wrt);

// The vector-Jacobian products error^T * dy/dw for each w in wrts, from one reverse sweep.
// `error` has y's axes (any order) and y's dtype. Each result has its w's axes and dtype; a w
// that y does not reach gets zeros.
std::vector<Op *> vjp(Op *y, Op *error, const std::vector<Op *> &wrts);

}  // namespace ng
