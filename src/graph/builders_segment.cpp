// Builders for jagged values (docs/shapes.md, "Jagged values in graphs"): a jagged axis is a flat
// axis over every real element plus int64 row splits, so elementwise ops, dot and reductions over
// other axes are the ordinary ones; only what crosses segment boundaries needs these.
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {

namespace {

// Checks the operands of a segment op and returns x's axes with `from` replaced by `to` in
// front: (to, x's other axes...).
Axes segment_axes(Op *x, const Axis *from, Op *splits, const Axis *to, const Axis *segments) {
    require_same_graph(x, splits);
    require_graph(*x->graph, from, "axis");
    require_graph(*x->graph, to, "axis");
    if (find_by_name(x->axes, from->name) < 0)
        throw axes_error("axis ", describe(from), " is not an axis of the operand ",
                         describe(x->axes));
    require_same_length(from, x->axes[static_cast<size_t>(find_by_name(x->axes, from->name))]);
    if (splits->dtype != NG_INT64)
        throw dtype_error("the row splits are ", dtype_name(splits->dtype), ", not int64");
    if (splits->rank() != 1 || splits->axes[0]->length != segments->length + 1)
        throw axes_error("the row splits have axes ", describe(splits->axes),
                         " but need one axis of length ", segments->length + 1, " (one more than ",
                         describe(segments), ")");
    Axes result{to};
    for (const Axis *a : x->axes) {
        if (a->name == from->name) continue;
        if (a->name == to->name)
            throw axes_error("the operand ", describe(x->axes), " already has an axis named ",
                             to->name);
        result.push_back(a);
    }
    return result;
}

}  // namespace

Op *segment_reduce(OpKind kind, Op *x, const Axis *along, Op *splits, const Axis *segments) {
    if (kind != OpKind::SegmentSum && kind != OpKind::SegmentMax)
        throw internal_error(op_kind_name(kind), " is not a segment reduction");
    require_operand_dtypes(kind, x, "operand");
    Axes axes = segment_axes(x, along, splits, segments, segments);
    auto op = make_op(kind, x->dtype, std::move(axes), {x, splits});
    op->attrs.axis = x->axes[static_cast<size_t>(find_by_name(x->axes, along->name))];
    return finish(std::move(op));
}

Op *segment_gather(Op *y, const Axis *segments, Op *splits, const Axis *along) {
    require_operand_dtypes(OpKind::SegmentGather, y, "operand");
    Axes axes = segment_axes(y, segments, splits, along, segments);
    auto op = make_op(OpKind::SegmentGather, y->dtype, std::move(axes), {y, splits});
    op->attrs.axis = y->axes[static_cast<size_t>(find_by_name(y->axes, segments->name))];
    return finish(std::move(op));
}

Op *segment_mean(Op *x, const Axis *along, Op *splits, const Axis *segments) {
    require_float(x, "operand");
    Op *sum = segment_reduce(OpKind::SegmentSum, x, along, splits, segments);
    Op *ones = broadcast(scalar(*x->graph, x->dtype, 1.0), {along});
    Op *count = segment_reduce(OpKind::SegmentSum, ones, along, splits, segments);
    // An empty segment has sum 0: dividing by max(count, 1) makes its mean 0, not NaN.
    return binary(OpKind::Divide, sum,
                  binary(OpKind::Maximum, count, scalar(*x->graph, x->dtype, 1.0)));
}

Op *segment_min(Op *x, const Axis *along, Op *splits, const Axis *segments) {
    require_numeric(x, "operand");
    Op *max_of_negative =
        segment_reduce(OpKind::SegmentMax, unary(OpKind::Negative, x), along, splits, segments);
    return unary(OpKind::Negative, max_of_negative);
}

Op *segment_softmax(Op *x, const Axis *along, Op *splits, const Axis *segments, bool log) {
    require_float(x, "operand");
    // The shift by each segment's max keeps exp finite; softmax does not depend on it, so it is
    // a constant for the derivative.
    Op *max =
        unary(OpKind::StopGradient, segment_reduce(OpKind::SegmentMax, x, along, splits, segments));
    Op *shifted = binary(OpKind::Subtract, x, segment_gather(max, segments, splits, along));
    Op *e = unary(OpKind::Exp, shifted);
    Op *total = segment_reduce(OpKind::SegmentSum, e, along, splits, segments);
    if (log)
        return binary(OpKind::Subtract, shifted,
                      segment_gather(unary(OpKind::Log, total), segments, splits, along));
    return binary(OpKind::Divide, e, segment_gather(total, segments, splits, along));
}

}  // namespace ng::build
