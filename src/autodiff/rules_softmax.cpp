// Adjoints of softmax and log-softmax over their axes A. Both are written with the op's own
// value, which is bounded, so they stay finite for any logits.
#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {
namespace {

Op *mul(Op *a, Op *b) {
    return build::binary(OpKind::Multiply, a, b);
}
Op *sub(Op *a, Op *b) {
    return build::binary(OpKind::Subtract, a, b);
}

}  // namespace

// y = softmax(x): dx = y * (d - sum_A(d * y))
void softmax_adjoint(RuleContext &c) {
    Op *y = c.op, *d = c.adjoint;
    Op *projection = build::reduce(OpKind::Sum, mul(d, y), y->attrs.axes);
    c.add(0, mul(y, sub(d, projection)));
}

// y = log_softmax(x): dx = d - exp(y) * sum_A(d)
void log_softmax_adjoint(RuleContext &c) {
    Op *y = c.op, *d = c.adjoint;
    Op *total = build::reduce(OpKind::Sum, d, y->attrs.axes);
    c.add(0, sub(d, mul(build::unary(OpKind::Exp, y), total)));
}

}  // namespace ng::autodiff
