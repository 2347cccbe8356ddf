// Adjoint of dot. y = dot(a, b) contracts the shared axes S; y's axes are a's others then b's
// others. The adjoint of a is dot(d, b), which contracts b's others and leaves a's others and S;
// symmetrically for b. With axes named, no transposes are needed: the sweep reorders.
#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {

void dot_adjoint(RuleContext &c) {
    if (c.wants(0)) c.add(0, build::dot(c.adjoint, c.arg(1)));
    if (c.wants(1)) c.add(1, build::dot(c.adjoint, c.arg(0)));
}

}  // namespace ng::autodiff
