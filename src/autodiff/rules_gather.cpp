// The adjoint of a gather: each index sends its row of the adjoint back to the params row it
// picked, summed over repeated indices: the one-hot of the indices contracted with the adjoint
// over the index axes. The indices get none (they are integers).
#include "autodiff/rule_context.hpp"
#include "graph/builders.hpp"

namespace ng::autodiff {

void gather_adjoint(RuleContext &c) {
    Op *params = c.arg(0), *indices = c.arg(1);
    Op *picked_by = build::one_hot(indices, c.op->attrs.axis, params->dtype);
    c.add(0, build::dot(picked_by, c.adjoint));
}

}  // namespace ng::autodiff
