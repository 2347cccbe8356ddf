// State and control: assignment to l-tensors and sequencing.
#include <cmath>

#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {

namespace {

void require_writable(const Op *lhs) {
    if (!lhs->is_assignable())
        throw invalid_argument("the target ", lhs->name, " is a ", op_type_name(*lhs),
                               ", not an assignable tensor (l-tensor)");
    if (lhs->flags() & kFlagConstant)
        throw invalid_argument("the target ", lhs->name, " is a constant");
}

}  // namespace

Op *assign(Op *lhs, Op *rhs) {
    require_same_graph(lhs, rhs);
    require_writable(lhs);
    require_same_dtype(lhs, rhs);
    positions_of(rhs->axes, lhs->axes, "the target");
    // The rhs is broadcast to the target's axes, in its order, so the assignment is a plain copy.
    Op *value = rhs->axes == lhs->axes ? rhs : broadcast(rhs, lhs->axes);
    return finish(make_op(OpKind::Assign, lhs->dtype, lhs->axes, {lhs, value}));
}

Op *assign_slice(Op *lhs, const std::vector<SliceSpec> &slices, Op *rhs) {
    require_same_graph(lhs, rhs);
    require_writable(lhs);
    require_same_dtype(lhs, rhs);
    std::vector<SliceSpec> stored;
    Axes region = sliced_axes(lhs, slices, stored);
    positions_of(rhs->axes, region, "the slice of the target");
    Op *value = rhs->axes == region ? rhs : broadcast(rhs, region);
    auto op = make_op(OpKind::AssignSlice, lhs->dtype, lhs->axes, {lhs, value});
    op->attrs.slices = std::move(stored);
    op->attrs.axes = std::move(region);
    return finish(std::move(op));
}

Op *fill(Op *lhs, double value) {
    require_writable(lhs);
    return assign(lhs, scalar(*lhs->graph, lhs->dtype, value));
}

Op *value_of(Op *tensor) {
    if (!tensor->is_assignable())
        throw invalid_argument(tensor->name, " is a ", op_type_name(*tensor),
                               ", not an assignable tensor");
    return finish(make_op(OpKind::ValueOf, tensor->dtype, tensor->axes, {tensor}));
}

Op *random(Graph &g, OpKind kind, DType dt, const Axes &axes, double a, double b) {
    check_dtype(dt, "dtype");
    if (!dtype_is_float(dt))
        throw dtype_error("random values are float32 or float64, not ", dtype_name(dt));
    if (kind == OpKind::Uniform && !(std::isfinite(a) && std::isfinite(b) && a < b))
        throw invalid_argument("the range [", a, ", ", b, ") is not a finite, non-empty interval");
    if (kind == OpKind::Normal && !(std::isfinite(a) && std::isfinite(b) && b >= 0))
        throw invalid_argument("mean ", a, " and standard deviation ", b,
                               " are not finite with a standard deviation >= 0");
    for (const Axis *axis : axes) require_graph(g, axis, "axis");
    require_distinct_names(axes, "axes");
    auto op = make_op(kind, dt, axes, {});
    op->graph = &g;
    op->attrs.parameters = {a, b};
    Op *added = finish(std::move(op));
    added->attrs.stream = static_cast<uint64_t>(added->id);
    return added;
}

Op *sequential(const std::vector<Op *> &ops) {
    if (ops.empty()) throw invalid_argument("a sequential needs at least one op");
    for (const Op *op : ops) require_same_graph(ops.front(), op);
    const Op *last = ops.back();
    return finish(make_op(OpKind::Sequential, last->dtype, last->axes, ops));
}

}  // namespace ng::build
