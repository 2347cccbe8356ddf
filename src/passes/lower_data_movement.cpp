// Lowering of the ops that move data into a new buffer: pad (zeros
// around a copy), concat (copies into slices of the result) and one-hot.
#include "passes/lowering_context.hpp"

namespace ng {

namespace {

// Output value of `id` in a new zero-filled arena buffer.
Value zeroed_output(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    Value out = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    Step fill;
    fill.kind = Step::Kind::Fill;
    fill.dtype = n.dtype;
    fill.shape = n.shape();
    fill.output = L.operand(out, n.axes, n.axes);
    L.add_step(std::move(fill));
    return out;
}

// Copies node `src` into `dst` (a value over `dst_axes`), with `dst`'s offset moved by `shift`.
void copy_into(Lowering &L, int32_t src, const Value &dst, const Axes &dst_axes, int64_t shift) {
    const Node &sn = L.graph.nodes[src];
    Step s;
    s.kind = Step::Kind::Copy;
    s.dtype = sn.dtype;
    s.shape = sn.shape();
    s.inputs.push_back(L.read(src, sn.axes));
    s.output = L.operand(dst, dst_axes, sn.axes);
    s.output.offset += shift;
    L.add_step(std::move(s));
}

}  // namespace

void lower_data_movement(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    Value out = zeroed_output(L, id);
    switch (n.kind) {
    case OpKind::Pad: {
        int64_t shift = 0;
        for (size_t i = 0; i < n.attrs.padding.size(); ++i)
            shift += n.attrs.padding[i].first * out.layout.strides[i];
        copy_into(L, n.args.at(0), out, n.axes, shift);
        break;
    }
    case OpKind::Concat: {
        const Axis *along = n.attrs.axis;
        int32_t dim = find_axis(n.axes, along);
        if (dim < 0) throw internal_error("concat axis not in result");
        int64_t start = 0;
        for (int32_t arg : n.args) {
            copy_into(L, arg, out, n.axes, start * out.layout.strides[dim]);
            int32_t at = find_axis(L.graph.nodes[arg].axes, along);
            start += at < 0 ? 1 : L.graph.nodes[arg].axes[at]->length;
        }
        break;
    }
    case OpKind::OneHot: {
        const int32_t x = n.args.at(0);
        const Node &xn = L.graph.nodes[x];
        int32_t dim = find_axis(n.axes, n.attrs.axis);
        if (dim < 0) throw internal_error("one-hot axis not in result");
        const DType index_dtype = xn.dtype, dt = n.dtype;
        const std::vector<int64_t> shape = xn.shape();
        const int64_t depth = n.axes[dim]->length, depth_stride = out.layout.strides[dim];
        Step s;
        s.kind = Step::Kind::Kernel;
        s.kernel.run = [index_dtype, dt, shape, depth, depth_stride](const KernelRun &r) {
            kernels::run_one_hot(index_dtype, r.inputs[0], dt, r.output, shape, depth,
                                 depth_stride);
        };
        s.inputs.push_back(L.read(x, xn.axes));
        Value without = out;
        without.layout.shape.erase(without.layout.shape.begin() + dim);
        without.layout.strides.erase(without.layout.strides.begin() + dim);
        Axes others = n.axes;
        others.erase(others.begin() + dim);
        s.output = L.operand(without, others, xn.axes);
        L.add_step(std::move(s));
        break;
    }
    default: throw internal_error("not a data-movement op: ", op_kind_name(n.kind));
    }
    L.values[id] = out;
}

// New values at every run: the executor keys each draw by the transformer's seed, the run's draw
// number and the op's stream.
void lower_random(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const kernels::RandomFn fn =
        n.kind == OpKind::Normal ? kernels::RandomFn::Normal : kernels::RandomFn::Uniform;
    const DType dt = n.dtype;
    const int64_t count = n.numel();
    const double a = n.attrs.parameters.at(0), b = n.attrs.parameters.at(1);
    const uint64_t stream = n.attrs.stream;
    Step s;
    s.kind = Step::Kind::Kernel;
    s.kernel.run = [fn, dt, count, a, b, stream](const KernelRun &r) {
        kernels::random_fill(fn, dt, count, {r.seed, r.draw, stream}, a, b, r.output.data);
    };
    s.kernel.draws_random = true;
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, count), n.shape());
    s.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(s));
}

}  // namespace ng
