// Adjoints of two-operand elementwise ops. Operands are aligned by name, so each contribution
// has the result's axes; the sweep sums away the axes an operand was broadcast over.
#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {
namespace {

Op *mul(Op *a, Op *b) {
    return build::binary(OpKind::Multiply, a, b);
}
Op *div(Op *a, Op *b) {
    return build::binary(OpKind::Divide, a, b);
}
Op *neg(Op *a) {
    return build::unary(OpKind::Negative, a);
}

// d routed to where `condition` holds; zero elsewhere.
Op *where(Op *condition, Op *d) {
    return build::select(condition, d, constant_like(d, 0.0));
}
Op *where_not(Op *condition, Op *d) {
    return build::select(condition, constant_like(d, 0.0), d);
}

void power_adjoint(RuleContext &c, Op *a, Op *b, Op *d) {
    // d(a^b)/da = b a^(b-1)
    if (c.wants(0)) {
        Op *a_pow = build::binary(OpKind::Power, a,
                                  build::binary(OpKind::Subtract, b, constant_like(b, 1.0)));
        c.add(0, mul(d, mul(b, a_pow)));
    }
    // d(a^b)/db = a^b log(a), defined for a > 0 only; taken as 0 elsewhere so that a constant
    // base of 0 does not turn the whole gradient into NaN.
    if (c.wants(1)) {
        Op *positive = build::binary(OpKind::Greater, a, constant_like(a, 0.0));
        c.add(1, where(positive, mul(d, mul(c.op, build::unary(OpKind::Log, a)))));
    }
}

}  // namespace

void binary_adjoint(RuleContext &c) {
    Op *a = c.arg(0), *b = c.arg(1), *d = c.adjoint;
    switch (c.op->kind) {
    case OpKind::Add:
        c.add(0, d);
        c.add(1, d);
        return;
    case OpKind::Subtract:
        c.add(0, d);
        if (c.wants(1)) c.add(1, neg(d));
        return;
    case OpKind::Multiply:
        if (c.wants(0)) c.add(0, mul(d, b));
        if (c.wants(1)) c.add(1, mul(d, a));
        return;
    case OpKind::Divide:
        if (c.wants(0)) c.add(0, div(d, b));
        if (c.wants(1)) c.add(1, neg(div(mul(d, c.op), b)));
        return;
    case OpKind::Power: return power_adjoint(c, a, b, d);
    case OpKind::Maximum:
    case OpKind::Minimum: {
        // The operand that wins gets the adjoint; a tie shares it equally (the mean of the two
        // one-sided derivatives), which keeps max(x, 0) + log(1 + exp(-|x|)) exact at x = 0.
        OpKind wins = c.op->kind == OpKind::Maximum ? OpKind::Greater : OpKind::Less;
        Op *a_share = build::binary(
            OpKind::Add, mask_of(build::binary(wins, a, b), d->dtype),
            mul(mask_of(build::binary(OpKind::Equal, a, b), d->dtype), constant_like(d, 0.5)));
        if (c.wants(0)) c.add(0, mul(d, a_share));
        if (c.wants(1))
            c.add(1, mul(d, build::binary(OpKind::Subtract, constant_like(d, 1.0), a_share)));
        return;
    }
    default: return;
    }
}

void select_adjoint(RuleContext &c) {
    Op *condition = c.arg(0), *d = c.adjoint;
    if (c.wants(1)) c.add(1, where(condition, d));
    if (c.wants(2)) c.add(2, where_not(condition, d));
}

}  // namespace ng::autodiff
