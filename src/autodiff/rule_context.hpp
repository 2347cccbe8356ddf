// What an adjoint rule sees and produces. A rule receives an op and the adjoint of its value
// (an op with the same axes and dtype) and adds a contribution to the adjoint of each argument
// it is asked for. A contribution may carry extra axes (they are summed away, which is how the
// adjoint of an implicit broadcast is formed) and may list the argument's axes in any order; it
// must have the argument's dtype.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/op.hpp"

namespace ng::autodiff {

struct RuleContext {
    Op *op = nullptr;
    Op *adjoint = nullptr;
    std::vector<bool> wanted;  // per argument: does it lead to a wrt?
    std::vector<std::pair<int32_t, Op *>> contributions;

    bool wants(int32_t arg) const { return wanted[static_cast<size_t>(arg)]; }
    Op *arg(int32_t i) const { return op->args[static_cast<size_t>(i)]; }
    // Records a contribution; ignored when the argument does not need one.
    void add(int32_t arg, Op *contribution) {
        if (wants(arg)) contributions.emplace_back(arg, contribution);
    }
};

// Dispatches on the op's kind to the rule in one of the rules_*.cpp files. Kinds without a
// derivative contribute nothing (their derivative is zero wherever it exists) or throw
// NG_ERR_UNSUPPORTED (docs/autodiff.md lists which).
void apply_adjoint_rule(RuleContext &context);

// The rule of each op kind, <Adjoint>_adjoint from the Adjoint column of op_kinds.def: one
// function per family of op kinds, each handling only the kinds it is dispatched (a rule shared by
// several rows is declared once per row, which C++ allows).
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) \
    void Adjoint##_adjoint(RuleContext &c);
#include "graph/op_kinds.def"

}  // namespace ng::autodiff
