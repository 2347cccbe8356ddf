// Adjoints of views that keep every element: they only rename, reorder, broadcast or regroup
// axes, so the adjoint is the same view backwards.
#include <algorithm>

#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {
namespace {

// `u` (x's axes with some flattened axes split into their components) with those axes merged
// again. Flattening with the same (name, length, components) yields the very axes of x.
Op *reflatten_like(Op *u, const Op *x) {
    for (const Axis *axis : x->axes) {
        if (axis->components.empty() ||
            std::find(u->axes.begin(), u->axes.end(), axis) != u->axes.end())
            continue;
        u = build::flatten(u, axis->components, axis->name);
    }
    return u;
}

}  // namespace

// Broadcast adds axes (the sweep sums them away); AxesWithOrder permutes (the sweep reorders).
void reordering_view_adjoint(RuleContext &c) {
    c.add(0, c.adjoint);
}

void cast_axes_adjoint(RuleContext &c) {
    c.add(0, build::cast_axes(c.adjoint, c.arg(0)->axes));
}

void flatten_adjoint(RuleContext &c) {
    c.add(0, reflatten_like(build::unflatten(c.adjoint), c.arg(0)));
}

void unflatten_adjoint(RuleContext &c) {
    c.add(0, reflatten_like(c.adjoint, c.arg(0)));
}

}  // namespace ng::autodiff
