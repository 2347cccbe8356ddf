// Gather: params read row-major as (outer, gathered axis, inner), the indices as one flat run,
// the result written row-major as (outer, indices, inner), which is its own axes' order.
#include "kernels/gather.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

void lower_gather(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t params = n.args.at(0), indices = n.args.at(1);
    const Node &pn = L.graph.nodes[params], &in = L.graph.nodes[indices];
    const int32_t at = find_axis(pn.axes, n.attrs.axis);
    if (at < 0) throw internal_error("gathered axis not in params");
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < static_cast<int32_t>(pn.axes.size()); ++d)
        if (d < at)
            outer *= pn.axes[d]->length;
        else if (d > at)
            inner *= pn.axes[d]->length;
    const int64_t rows = pn.axes[at]->length, count = in.numel();
    const DType dt = n.dtype, index_dtype = in.dtype;
    Step s;
    s.kind = Step::Kind::Kernel;
    s.kernel.run = [=](const KernelRun &r) {
        kernels::gather_rows(dt, r.inputs[0].data, outer, rows, inner, index_dtype,
                             r.inputs[1].data, count, r.output.data);
    };
    s.inputs.push_back(L.read_row_major(params, pn.axes));
    s.inputs.push_back(L.read_row_major(indices, in.axes));
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    s.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(s));
}

}  // namespace ng
