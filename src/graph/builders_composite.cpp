// Composite builders: subgraphs of primitive ops, so the compiler fuses them and autodiff needs
// no rule of its own. Each checks its operands before adding any op, so a failure leaves no
// half-built subgraph behind.
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {
namespace {

// The checks the first primitive of a composite would make, done before any op exists.
void check_reducible(const Op *x, const Axes &axes) {
    require_float(x, "operand");
    if (axes.empty()) return;
    require_distinct_names(axes, "reduction axes");
    positions_of(axes, x->axes, "the operand");
}

// A prediction and its target describe the same values: the same axes (by name and length, in
// any order), never a broadcast of one over the other.
void check_pair(const Op *y, const Op *t, const Axes &axes) {
    require_same_graph(y, t);
    require_same_dtype(y, t);
    check_reducible(y, {});
    align_by_name(y->axes, t->axes);  // same names have the same lengths
    bool same = y->axes.size() == t->axes.size();
    for (const Axis *a : t->axes) same = same && find_by_name(y->axes, a->name) >= 0;
    if (!same)
        throw axes_error("the prediction ", y->name, " has axes ", describe(y->axes),
                         " and the target ", t->name, " has axes ", describe(t->axes),
                         "; they must be the same");
    if (!axes.empty()) {
        require_distinct_names(axes, "reduction axes");
        positions_of(axes, y->axes, "the operands");
    }
}

Op *sum_unless_elementwise(Op *x, const Axes &axes) {
    return axes.empty() ? x : reduce(OpKind::Sum, x, axes);
}

}  // namespace

Op *variance(Op *x, const Axes &axes) {
    check_reducible(x, axes);
    Op *centered = binary(OpKind::Subtract, x, reduce(OpKind::Mean, x, axes));
    return reduce(OpKind::Mean, unary(OpKind::Square, centered), axes);
}

Op *squared_l2(Op *x, const Axes &axes) {
    check_reducible(x, axes);
    return reduce(OpKind::Sum, unary(OpKind::Square, x), axes);
}

Op *l2_norm(Op *x, const Axes &axes) {
    return unary(OpKind::Sqrt, squared_l2(x, axes));
}

Op *l1_norm(Op *x, const Axes &axes) {
    check_reducible(x, axes);
    return reduce(OpKind::Sum, unary(OpKind::Absolute, x), axes);
}

Op *cross_entropy_multi(Op *y, Op *t, const Axes &axes) {
    check_pair(y, t, axes);
    Op *log_y = y->kind == OpKind::Softmax ? log_softmax(y->args.front(), y->attrs.axes)
                                           : unary(OpKind::Log, y);
    Op *total = reduce(OpKind::Sum, binary(OpKind::Multiply, t, log_y), axes);
    return unary(OpKind::Negative, total);
}

Op *cross_entropy_binary(Op *y, Op *t, const Axes &axes) {
    check_pair(y, t, axes);
    Graph &g = *y->graph;
    Op *one = scalar(g, y->dtype, 1.0);
    if (y->kind == OpKind::Sigmoid) {
        // With logits x: max(x, 0) - t*x + log(1 + exp(-|x|)), finite for every x.
        Op *x = y->args.front();
        Op *positive_part = binary(OpKind::Maximum, x, scalar(g, y->dtype, 0.0));
        Op *softplus_tail =
            unary(OpKind::Log,
                  binary(OpKind::Add, one,
                         unary(OpKind::Exp, unary(OpKind::Negative, unary(OpKind::Absolute, x)))));
        Op *loss = binary(OpKind::Add,
                          binary(OpKind::Subtract, positive_part, binary(OpKind::Multiply, x, t)),
                          softplus_tail);
        return sum_unless_elementwise(loss, axes);
    }
    // y's operands lead, so the result has y's axes in y's order, as with logits above.
    Op *hit = binary(OpKind::Multiply, unary(OpKind::Log, y), t);
    Op *miss = binary(OpKind::Multiply, unary(OpKind::Log, binary(OpKind::Subtract, one, y)),
                      binary(OpKind::Subtract, one, t));
    return sum_unless_elementwise(unary(OpKind::Negative, binary(OpKind::Add, hit, miss)), axes);
}

}  // namespace ng::build
