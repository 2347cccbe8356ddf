// Names and classifications of op kinds, all read from the table in op_kinds.def. The names are
// what ng_op_type() returns and what default op names are made from, so they are part of the
// public behaviour.
#include "graph/op.hpp"

namespace ng {
namespace {

struct KindInfo {
    const char *name;
    int32_t arity;
    OpClass op_class;
    OperandDTypes dtypes;
    AttrSet attrs;
};

// The names the Attrs column uses: one bit per attribute, and none.
namespace attrs_column {
#define NG_ATTR(Type, Name, Meaning) constexpr AttrSet Name = attr_bit(AttrId::Name);
#include "graph/op_attrs.def"
constexpr AttrSet none = 0;
}  // namespace attrs_column

using namespace attrs_column;
constexpr KindInfo kKinds[] = {
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) \
    {#Name, Arity, OpClass::Class, OperandDTypes::DTypes, Attrs},
#define Variadic kVariadic
#include "graph/op_kinds.def"
#undef Variadic
};
static_assert(sizeof kKinds / sizeof kKinds[0] == kNumOpKinds, "one row per op kind");

const KindInfo *info(OpKind kind) noexcept {
    const auto i = static_cast<int32_t>(kind);
    return i >= 0 && i < kNumOpKinds ? &kKinds[i] : nullptr;
}

}  // namespace

const char *op_kind_name(OpKind kind) noexcept {
    const KindInfo *k = info(kind);
    return k ? k->name : "Unknown";
}

int32_t op_kind_arity(OpKind kind) noexcept {
    const KindInfo *k = info(kind);
    return k ? k->arity : 0;
}

OpClass op_kind_class(OpKind kind) noexcept {
    const KindInfo *k = info(kind);
    return k ? k->op_class : OpClass::Control;
}

OperandDTypes op_kind_operand_dtypes(OpKind kind) noexcept {
    const KindInfo *k = info(kind);
    return k ? k->dtypes : OperandDTypes::Any;
}

AttrSet op_kind_attrs(OpKind kind) noexcept {
    const KindInfo *k = info(kind);
    return k ? k->attrs : 0;
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
    const OpClass c = op_kind_class(kind);
    return c == OpClass::Unary || c == OpClass::Cast || c == OpClass::Identity;
}

bool op_kind_is_elementwise_binary(OpKind kind) noexcept {
    const OpClass c = op_kind_class(kind);
    return c == OpClass::Binary || c == OpClass::Comparison;
}

bool op_kind_is_comparison(OpKind kind) noexcept {
    return op_kind_class(kind) == OpClass::Comparison;
}

}  // namespace ng
