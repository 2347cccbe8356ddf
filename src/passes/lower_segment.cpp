// Jagged values: SegmentSum, SegmentMax and SegmentGather. The operand is read as rows of its
// flat (or segment) axis, each row holding the other axes contiguously; it is packed only when
// its layout is not already that.
#include "kernels/segment.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

void lower_segment(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t x = n.args.at(0), splits = n.args.at(1);
    const Node &xn = L.graph.nodes[x];
    const Axis *from = n.attrs.axis;  // the flat axis (reductions) or the segment axis (gather)
    Axes order{from};
    int64_t inner = 1;
    for (const Axis *a : xn.axes)
        if (a->name != from->name) {
            order.push_back(a);
            inner *= a->length;
        }
    const Axis *to = n.axes.at(0);
    const bool gather = n.kind == OpKind::SegmentGather;

    const bool max = n.kind == OpKind::SegmentMax;
    const DType dt = n.dtype;
    const int64_t rows = gather ? to->length : from->length;  // of the flat axis
    const int64_t segments = gather ? from->length : to->length;
    Step s;
    s.kind = Step::Kind::Kernel;
    s.kernel.run = [gather, max, dt, rows, inner, segments](const KernelRun &r) {
        const auto *splits = static_cast<const int64_t *>(r.inputs[1].data);
        if (gather)
            kernels::segment_gather(dt, r.inputs[0].data, rows, inner, splits, segments,
                                    r.output.data);
        else
            kernels::segment_reduce(dt, max, r.inputs[0].data, rows, inner, splits, segments,
                                    r.output.data);
    };
    s.inputs.push_back(L.read_row_major(x, order));
    s.inputs.push_back(L.read_row_major(splits, L.graph.nodes[splits].axes));

    int32_t buffer = L.new_arena_buffer(n.dtype, n.numel());
    L.values[id] = L.row_major(buffer, n.shape());
    s.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(s));
}

}  // namespace ng
