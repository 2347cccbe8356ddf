// The table from op kind to adjoint rule.
#include "autodiff/rule_context.hpp"
#include "core/error.hpp"

namespace ng::autodiff {

void apply_adjoint_rule(RuleContext &c) {
    switch (c.op->kind) {
    case OpKind::Negative:
    case OpKind::Absolute:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Sqrt:
    case OpKind::Square:
    case OpKind::Reciprocal:
    case OpKind::Sigmoid:
    case OpKind::Relu:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Tanh:
    case OpKind::Cast: return unary_adjoint(c);
    case OpKind::Add:
    case OpKind::Subtract:
    case OpKind::Multiply:
    case OpKind::Divide:
    case OpKind::Power:
    case OpKind::Maximum:
    case OpKind::Minimum: return binary_adjoint(c);
    case OpKind::Select: return select_adjoint(c);
    case OpKind::Sum:
    case OpKind::Mean:
    case OpKind::Max:
    case OpKind::Min:
    case OpKind::Prod: return reduction_adjoint(c);
    case OpKind::Dot: return dot_adjoint(c);
    case OpKind::Softmax: return softmax_adjoint(c);
    case OpKind::LogSoftmax: return log_softmax_adjoint(c);
    case OpKind::Broadcast:
    case OpKind::AxesWithOrder: return reordering_view_adjoint(c);
    case OpKind::CastAxes: return cast_axes_adjoint(c);
    case OpKind::Flatten: return flatten_adjoint(c);
    case OpKind::Unflatten: return unflatten_adjoint(c);
    case OpKind::Slice: return slice_adjoint(c);
    case OpKind::Pad: return pad_adjoint(c);
    case OpKind::Concat: return concat_adjoint(c);
    case OpKind::Sequential: return sequential_adjoint(c);

    // Piecewise constant (or integer-valued): the derivative is zero wherever it exists.
    case OpKind::Sign:
    case OpKind::Equal:
    case OpKind::NotEqual:
    case OpKind::Less:
    case OpKind::LessEqual:
    case OpKind::Greater:
    case OpKind::GreaterEqual:
    case OpKind::Argmax:
    case OpKind::Argmin:
    case OpKind::OneHot:
    case OpKind::StopGradient:
    case OpKind::AssignableTensor: return;

    case OpKind::Assign:
        throw unsupported("cannot differentiate through ", c.op->name,
                          ": an assignment is a side effect, not a function of its operands");
    }
    throw internal_error("no adjoint rule for op kind ", static_cast<int32_t>(c.op->kind));
}

}  // namespace ng::autodiff
