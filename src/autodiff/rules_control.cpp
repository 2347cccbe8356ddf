// Adjoint of sequential: its value is its last element's, so only that element gets the adjoint;
// the earlier elements are side effects.
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {

void sequential_adjoint(RuleContext &c) {
    if (!c.op->args.empty()) c.add(static_cast<int32_t>(c.op->args.size()) - 1, c.adjoint);
}

}  // namespace ng::autodiff
