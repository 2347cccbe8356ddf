// Names and classifications of op kinds. The names are what ng_op_type() returns and what
// default op names are made from, so they are part of the public behaviour.
#include "graph/op.hpp"

namespace ng {

const char *op_kind_name(OpKind kind) noexcept {
    switch (kind) {
    case OpKind::AssignableTensor: return "AssignableTensor";
    case OpKind::Negative: return "Negative";
    case OpKind::Absolute: return "Absolute";
    case OpKind::Sign: return "Sign";
    case OpKind::Exp: return "Exp";
    case OpKind::Log: return "Log";
    case OpKind::Sqrt: return "Sqrt";
    case OpKind::Square: return "Square";
    case OpKind::Reciprocal: return "Reciprocal";
    case OpKind::Sigmoid: return "Sigmoid";
    case OpKind::Relu: return "Relu";
    case OpKind::Sin: return "Sin";
    case OpKind::Cos: return "Cos";
    case OpKind::Tanh: return "Tanh";
    case OpKind::Cast: return "Cast";
    case OpKind::StopGradient: return "StopGradient";
    case OpKind::Add: return "Add";
    case OpKind::Subtract: return "Subtract";
    case OpKind::Multiply: return "Multiply";
    case OpKind::Divide: return "Divide";
    case OpKind::Power: return "Power";
    case OpKind::Maximum: return "Maximum";
    case OpKind::Minimum: return "Minimum";
    case OpKind::Equal: return "Equal";
    case OpKind::NotEqual: return "NotEqual";
    case OpKind::Less: return "Less";
    case OpKind::LessEqual: return "LessEqual";
    case OpKind::Greater: return "Greater";
    case OpKind::GreaterEqual: return "GreaterEqual";
    case OpKind::Select: return "Select";
    case OpKind::Sum: return "Sum";
    case OpKind::Max: return "Max";
    case OpKind::Min: return "Min";
    case OpKind::Mean: return "Mean";
    case OpKind::Prod: return "Prod";
    case OpKind::Argmax: return "Argmax";
    case OpKind::Argmin: return "Argmin";
    case OpKind::Dot: return "Dot";
    case OpKind::Softmax: return "Softmax";
    case OpKind::LogSoftmax: return "LogSoftmax";
    case OpKind::Broadcast: return "Broadcast";
    case OpKind::AxesWithOrder: return "AxesWithOrder";
    case OpKind::CastAxes: return "CastAxes";
    case OpKind::Slice: return "Slice";
    case OpKind::Pad: return "Pad";
    case OpKind::Flatten: return "Flatten";
    case OpKind::Unflatten: return "Unflatten";
    case OpKind::Concat: return "Concat";
    case OpKind::OneHot: return "OneHot";
    case OpKind::Assign: return "Assign";
    case OpKind::Sequential: return "Sequential";
    }
    return "Unknown";
}

const char *op_type_name(const Op &op) noexcept {
    if (!op.is_assignable()) return op_kind_name(op.kind);
    const uint32_t f = op.attrs.flags;
    if (f & kFlagConstant) return "Constant";
    if (f & kFlagInput) return "Placeholder";
    if (f & kFlagTrainable) return "Variable";
    return "PersistentTensor";
}

bool op_kind_is_elementwise_unary(OpKind kind) noexcept {
    return (kind >= OpKind::Negative && kind <= OpKind::Tanh) || kind == OpKind::Cast ||
           kind == OpKind::StopGradient;
}

bool op_kind_is_elementwise_binary(OpKind kind) noexcept {
    return kind >= OpKind::Add && kind <= OpKind::GreaterEqual;
}

bool op_kind_is_comparison(OpKind kind) noexcept {
    return kind >= OpKind::Equal && kind <= OpKind::GreaterEqual;
}

bool op_kind_is_reduction(OpKind kind) noexcept {
    return kind >= OpKind::Sum && kind <= OpKind::Argmin;
}

bool op_kind_is_view(OpKind kind) noexcept {
    switch (kind) {
    case OpKind::Broadcast:
    case OpKind::AxesWithOrder:
    case OpKind::CastAxes:
    case OpKind::Slice:
    case OpKind::Flatten:
    case OpKind::Unflatten: return true;
    default: return false;
    }
}

}  // namespace ng
