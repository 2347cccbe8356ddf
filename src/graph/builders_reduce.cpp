// Reductions, dot and softmax: ops that combine values along axes.
#include <algorithm>

#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {
namespace {

// The reduced axes as x's own Axis objects (empty list: all of x's), checked to be distinct.
Axes reduced_axes(const Op *x, const Axes &axes) {
    if (axes.empty()) return x->axes;
    require_distinct_names(axes, "reduction axes");
    Axes own;
    for (int32_t i : positions_of(axes, x->axes, "the operand")) own.push_back(x->axes[i]);
    return own;
}

Axes axes_without(const Axes &axes, const Axes &removed) {
    Axes kept;
    for (const Axis *a : axes)
        if (std::find(removed.begin(), removed.end(), a) == removed.end()) kept.push_back(a);
    return kept;
}

Op *normalize(OpKind kind, Op *x, const Axes &axes) {
    require_operand_dtypes(kind, x, "operand");
    auto op = make_op(kind, x->dtype, x->axes, {x});
    op->attrs.axes = reduced_axes(x, axes);
    return finish(std::move(op));
}

}  // namespace

Op *reduce(OpKind kind, Op *x, const Axes &axes) {
    if (op_kind_class(kind) != OpClass::Reduction)
        throw internal_error("reduce() called with ", op_kind_name(kind));
    require_operand_dtypes(kind, x, "operand");
    Axes reduced = reduced_axes(x, axes);
    auto op = make_op(kind, x->dtype, axes_without(x->axes, reduced), {x});
    op->attrs.axes = std::move(reduced);
    return finish(std::move(op));
}

Op *arg_reduce(OpKind kind, Op *x, const Axis *axis) {
    if (op_kind_class(kind) != OpClass::ArgReduction)
        throw internal_error("arg_reduce() called with ", op_kind_name(kind));
    require_operand_dtypes(kind, x, "operand");
    Axes reduced = reduced_axes(x, {axis});
    auto op = make_op(kind, NG_INT64, axes_without(x->axes, reduced), {x});
    op->attrs.axis = reduced.front();
    op->attrs.axes = std::move(reduced);
    return finish(std::move(op));
}

Op *dot(Op *a, Op *b) {
    require_same_graph(a, b);
    require_same_dtype(a, b);
    require_operand_dtypes(OpKind::Dot, a, "the first operand");
    Axes shared, a_only, b_only;
    for (const Axis *axis : a->axes) {
        int32_t i = find_by_name(b->axes, axis->name);
        if (i < 0) {
            a_only.push_back(axis);
        } else {
            require_same_length(axis, b->axes[i]);
            shared.push_back(axis);
        }
    }
    for (const Axis *axis : b->axes)
        if (find_by_name(a->axes, axis->name) < 0) b_only.push_back(axis);
    a_only.insert(a_only.end(), b_only.begin(), b_only.end());
    auto op = make_op(OpKind::Dot, a->dtype, std::move(a_only), {a, b});
    op->attrs.axes = std::move(shared);  // the contracted axes, in a's order
    return finish(std::move(op));
}

Op *softmax(Op *x, const Axes &axes) {
    return normalize(OpKind::Softmax, x, axes);
}

Op *log_softmax(Op *x, const Axes &axes) {
    return normalize(OpKind::LogSoftmax, x, axes);
}

}  // namespace ng::build
