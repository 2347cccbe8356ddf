// State and control (seed 001): assignment to l-tensors and sequencing.
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {

Op *assign(Op *lhs, Op *rhs) {
    require_same_graph(lhs, rhs);
    if (!lhs->is_assignable())
        throw invalid_argument("the target ", lhs->name, " is a ", op_type_name(*lhs),
                               ", not an assignable tensor (l-tensor)");
    if (lhs->flags() & kFlagConstant)
        throw invalid_argument("the target ", lhs->name, " is a constant");
    require_same_dtype(lhs, rhs);
    positions_of(rhs->axes, lhs->axes, "the target");
    // The rhs is broadcast to the target's axes, in its order, so the assignment is a plain copy.
    Op *value = rhs->axes == lhs->axes ? rhs : broadcast(rhs, lhs->axes);
    return finish(make_op(OpKind::Assign, lhs->dtype, lhs->axes, {lhs, value}));
}

Op *sequential(const std::vector<Op *> &ops) {
    if (ops.empty()) throw invalid_argument("a sequential needs at least one op");
    for (const Op *op : ops) require_same_graph(ops.front(), op);
    const Op *last = ops.back();
    return finish(make_op(OpKind::Sequential, last->dtype, last->axes, ops));
}

}  // namespace ng::build
