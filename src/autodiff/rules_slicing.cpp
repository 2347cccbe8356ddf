// Adjoints of the ops that cut or extend axes. A slice's adjoint scatters into zeros (as a pad,
// after re-inserting dropped axes and spreading strided elements apart); a pad's adjoint is the
// slice it added zeros around; concat's adjoint gives each operand its slice.
#include <cstdlib>

#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {
namespace {

std::vector<SliceSpec> whole_axes(const Op *x) {
    std::vector<SliceSpec> specs;
    for (const Axis *axis : x->axes) specs.push_back(SliceSpec{0, axis->length, 1, false});
    return specs;
}

// Reverses axis i of u.
Op *reversed(Op *u, size_t i) {
    std::vector<SliceSpec> specs = whole_axes(u);
    const int64_t n = u->axes[i]->length;
    specs[i] = SliceSpec{n - 1, -1, -1, false};
    return build::slice(u, specs);
}

// Puts stride - 1 zeros between consecutive elements of axis i of u (length m > 1), giving
// length (m - 1) * stride + 1: a unit axis is added after it, padded to `stride`, merged with
// it, and the trailing zeros are cut.
Op *dilated(Op *u, size_t i, int64_t stride) {
    Graph &g = *u->graph;
    const Axis *axis = u->axes[i];
    const int32_t after = static_cast<int32_t>(i) + 1;
    Op *spread = build::expand_dims(u, g.axis(axis->name + "/dilation", 1), after);
    std::vector<std::pair<int64_t, int64_t>> padding(spread->axes.size(), {0, 0});
    padding[i + 1] = {0, stride - 1};
    spread = build::pad(spread, padding);
    spread =
        build::flatten(spread, {spread->axes[i], spread->axes[i + 1]}, axis->name + "/dilated");
    std::vector<SliceSpec> specs = whole_axes(spread);
    specs[i].stop = (axis->length - 1) * stride + 1;
    return build::slice(spread, specs);
}

}  // namespace

void slice_adjoint(RuleContext &c) {
    Op *x = c.arg(0);
    const std::vector<SliceSpec> &specs = c.op->attrs.slices;
    Graph &g = *x->graph;

    // Dropped axes come back with length 1, so u has x's rank and axis order.
    Op *u = c.adjoint;
    for (size_t i = 0; i < specs.size(); ++i)
        if (specs[i].drop)
            u = build::expand_dims(u, g.axis(x->axes[i]->name, 1), static_cast<int32_t>(i));

    std::vector<std::pair<int64_t, int64_t>> padding;
    for (size_t i = 0; i < specs.size(); ++i) {
        const SliceSpec &s = specs[i];
        const int64_t count = u->axes[i]->length, length = x->axes[i]->length;
        if (count == 0) {
            padding.emplace_back(0, length);
            continue;
        }
        // Walk the selected elements upwards: a backward slice is a reversed forward one.
        if (s.step < 0 && count > 1) u = reversed(u, i);
        // One element: the step (any int64, INT64_MIN included) never applies; with two or
        // more, |step| < the axis length.
        const int64_t stride = count > 1 ? std::llabs(s.step) : 1;
        const int64_t lowest = s.step > 0 ? s.start : s.start + (count - 1) * s.step;
        if (stride > 1) u = dilated(u, i, stride);
        const int64_t span = (count - 1) * stride + 1;
        padding.emplace_back(lowest, length - lowest - span);
    }
    c.add(0, with_axes(build::pad(u, padding), x->axes));
}

void pad_adjoint(RuleContext &c) {
    Op *x = c.arg(0);
    std::vector<SliceSpec> specs;
    for (size_t i = 0; i < x->axes.size(); ++i) {
        const int64_t before = c.op->attrs.padding[i].first;
        specs.push_back(SliceSpec{before, before + x->axes[i]->length, 1, false});
    }
    c.add(0, with_axes(build::slice(c.adjoint, specs), x->axes));
}

// The builder hands concat its operands already in the first operand's axis order, so each
// operand is a slice of the adjoint along the concatenated axis.
void concat_adjoint(RuleContext &c) {
    const Op *y = c.op;
    size_t at = 0;
    while (y->axes[at] != y->attrs.axis) ++at;
    int64_t offset = 0;
    for (size_t k = 0; k < y->args.size(); ++k) {
        Op *x = y->args[k];
        const int64_t length = x->axes[at]->length;
        if (c.wants(static_cast<int32_t>(k))) {
            std::vector<SliceSpec> specs = whole_axes(c.adjoint);
            specs[at] = SliceSpec{offset, offset + length, 1, false};
            c.add(static_cast<int32_t>(k), with_axes(build::slice(c.adjoint, specs), x->axes));
        }
        offset += length;
    }
}

}  // namespace ng::autodiff
