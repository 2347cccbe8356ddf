// Adjoints of one-operand elementwise ops: the adjoint times the local derivative, written with
// the op's own value where that is cheaper or more accurate (exp, sqrt, sigmoid, tanh, relu).
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
Op *div(Op *a, Op *b) {
    return build::binary(OpKind::Divide, a, b);
}
Op *neg(Op *a) {
    return build::unary(OpKind::Negative, a);
}

// The derivative of y = f(x), times d.
Op *local_product(OpKind kind, Op *x, Op *y, Op *d) {
    switch (kind) {
    case OpKind::Negative: return neg(d);
    case OpKind::Absolute: return mul(d, build::unary(OpKind::Sign, x));
    case OpKind::Exp: return mul(d, y);
    case OpKind::Log: return div(d, x);
    case OpKind::Sqrt: return div(mul(d, constant_like(d, 0.5)), y);
    case OpKind::Square: return mul(d, mul(x, constant_like(x, 2.0)));
    case OpKind::Reciprocal: return neg(mul(d, build::unary(OpKind::Square, y)));
    case OpKind::Sigmoid: return mul(d, mul(y, sub(constant_like(y, 1.0), y)));
    case OpKind::Relu:
        // y > 0 exactly where x > 0 (NaN: neither). Reading y leaves x read only by the relu, so
        // the compiler fuses x (a bias addition, say) into it instead of storing it for the
        // backward pass.
        return build::select(build::binary(OpKind::Greater, y, constant_like(y, 0.0)), d,
                             constant_like(d, 0.0));
    case OpKind::Sin: return mul(d, build::unary(OpKind::Cos, x));
    case OpKind::Cos: return neg(mul(d, build::unary(OpKind::Sin, x)));
    case OpKind::Tanh: return mul(d, sub(constant_like(y, 1.0), build::unary(OpKind::Square, y)));
    default: return nullptr;
    }
}

}  // namespace

void unary_adjoint(RuleContext &c) {
    Op *x = c.arg(0);
    if (c.op->kind == OpKind::Cast) {
        // A cast between float types passes the adjoint back in the operand's precision; from an
        // integer or bool operand nothing flows (it is not differentiable).
        if (dtype_is_float(x->dtype)) c.add(0, build::cast(c.adjoint, x->dtype));
        return;
    }
    c.add(0, local_product(c.op->kind, x, c.op, c.adjoint));
}

}  // namespace ng::autodiff
