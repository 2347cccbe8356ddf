// The table from op kind to adjoint rule: the Adjoint column of op_kinds.def.
#include "autodiff/rule_context.hpp"
#include "core/error.hpp"

namespace ng::autodiff {

// Piecewise constant (or integer-valued) ops: the derivative is zero wherever it exists.
void zero_adjoint(RuleContext &) {}

void refused_adjoint(RuleContext &c) {
    throw unsupported("cannot differentiate through ", c.op->name,
                      ": an assignment is a side effect, not a function of its operands");
}

void apply_adjoint_rule(RuleContext &c) {
    switch (c.op->kind) {
        // clang-format off
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) \
    case OpKind::Name: return Adjoint##_adjoint(c);
#include "graph/op_kinds.def"
        // clang-format on
    }
    throw internal_error("no adjoint rule for op kind ", static_cast<int32_t>(c.op->kind));
}

}  // namespace ng::autodiff
