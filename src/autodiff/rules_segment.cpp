// Adjoints of the segment ops: a segment sum spreads its adjoint back over the segment's
// elements (a gather), a gather sums its adjoint over each segment, and a segment max gives it
// to the elements equal to the max, shared equally between ties (as the dense max does).
#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {

void segment_adjoint(RuleContext &c) {
    Op *x = c.arg(0), *splits = c.arg(1), *y = c.op, *d = c.adjoint;
    const Axis *from = y->attrs.axis, *to = y->axes.at(0);
    switch (y->kind) {
    case OpKind::SegmentSum: return c.add(0, build::segment_gather(d, to, splits, from));
    case OpKind::SegmentGather:
        return c.add(0, build::segment_reduce(OpKind::SegmentSum, d, to, splits, from));
    case OpKind::SegmentMax: {
        Op *is_max = mask_of(
            build::binary(OpKind::Equal, x, build::segment_gather(y, to, splits, from)), x->dtype);
        Op *ties = build::segment_reduce(OpKind::SegmentSum, is_max, from, splits, to);
        Op *share = build::binary(OpKind::Divide, d, ties);
        return c.add(0, build::binary(OpKind::Multiply, is_max,
                                      build::segment_gather(share, to, splits, from)));
    }
    default: return;
    }
}

}  // namespace ng::autodiff
