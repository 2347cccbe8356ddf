// Lowering of leaves (constants, parameters, persistent tensors), views and assignments: none
// of these computes anything except an assignment's copy.
#include <algorithm>

#include "core/checked_math.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

void lower_leaf(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const auto shape = n.shape();
    auto param = std::find(L.graph.params.begin(), L.graph.params.end(), id);
    if (n.is_constant()) {
        size_t bytes =
            checked_bytes(checked_numel(shape, "constant"), dtype_size(n.dtype), "constant");
        if (n.attrs.data.size() != bytes)
            throw internal_error("constant ", n.name, " has ", n.attrs.data.size(),
                                 " bytes of data, expected ", bytes);
        L.values[id] = L.row_major(L.new_constant_buffer(n.dtype, shape, n.attrs.data), shape);
        return;
    }
    Buffer b;
    b.dtype = n.dtype;
    b.bytes = checked_bytes(checked_numel(shape, "tensor"), dtype_size(n.dtype), "tensor");
    if (param != L.graph.params.end()) {
        b.kind = Buffer::Kind::Param;
        b.param = static_cast<int32_t>(param - L.graph.params.begin());
    } else {
        b.kind = Buffer::Kind::Persistent;
        b.persistent = n.uid;
    }
    const int32_t param_index = b.param;
    L.plan.buffers.push_back(std::move(b));
    L.writes_to_buffer.push_back(0);
    L.values[id] = L.row_major(static_cast<int32_t>(L.plan.buffers.size() - 1), shape);
    if (param_index >= 0 && !L.param_strides.empty())
        L.values[id].layout.strides = L.param_strides.at(param_index);
}

namespace {

// The layout of `arg` seen through the axes of a broadcast / reorder: by name, 0 for new axes.
Layout restride_by_name(const Value &arg, const Axes &arg_axes, const Axes &axes) {
    Layout l;
    l.offset = arg.layout.offset;
    for (const Axis *a : axes) {
        int32_t at = find_axis(arg_axes, a);
        l.shape.push_back(a->length);
        l.strides.push_back(at < 0 ? 0 : arg.layout.strides[at]);
    }
    return l;
}

// The sliced axes' lengths are the result's (the builder computed them).
Layout slice_layout(const Layout &in, const std::vector<SliceSpec> &specs,
                    const std::vector<int64_t> &result_shape) {
    if (specs.size() != in.shape.size())
        throw internal_error("slice has ", specs.size(), " specs for rank ", in.shape.size());
    Layout l;
    l.offset = in.offset;
    l.shape = result_shape;
    for (size_t i = 0; i < specs.size(); ++i) {
        l.offset += specs[i].start * in.strides[i];
        if (specs[i].drop) continue;
        // An axis of one element or none is never stepped along, and its step may be any int64
        // (stride * step would overflow); with two or more, |step| < the axis length.
        const int64_t length = result_shape[l.strides.size()];
        l.strides.push_back(length > 1 ? in.strides[i] * specs[i].step : in.strides[i]);
    }
    return l;
}

// Merges the arg dims [first, first + count) into one dim if strides allow; returns false if not.
bool merge_dims(const Layout &in, size_t first, size_t count, int64_t &stride) {
    stride = 1;
    bool have = false;
    int64_t inner_extent = 0;
    for (size_t k = first + count; k-- > first;) {
        if (in.shape[k] == 1) continue;
        if (!have) {
            stride = in.strides[k];
            inner_extent = in.strides[k] * in.shape[k];
            have = true;
        } else {
            if (in.strides[k] != inner_extent) return false;
            inner_extent *= in.shape[k];
        }
    }
    return true;
}

}  // namespace

void lower_view(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t arg = n.args.at(0);
    const Node &a = L.graph.nodes[arg];
    Value v;
    v.buffer = L.values[arg].buffer;
    const Layout &in = L.values[arg].layout;
    switch (n.kind) {
    case OpKind::Broadcast:
    case OpKind::AxesWithOrder: v.layout = restride_by_name(L.values[arg], a.axes, n.axes); break;
    case OpKind::CastAxes:
    case OpKind::StopGradient:
    case OpKind::ValueOf: v.layout = in; break;
    case OpKind::Slice: v.layout = slice_layout(in, n.attrs.slices, n.shape()); break;
    case OpKind::Unflatten: {
        v.layout.offset = in.offset;
        for (size_t i = 0; i < a.axes.size(); ++i) {
            const Axis *ax = a.axes[i];
            if (ax->components.empty()) {
                v.layout.shape.push_back(ax->length);
                v.layout.strides.push_back(in.strides[i]);
                continue;
            }
            int64_t inner = 1;
            std::vector<int64_t> strides(ax->components.size());
            for (size_t c = ax->components.size(); c-- > 0;) {
                strides[c] = in.strides[i] * inner;
                inner *= ax->components[c]->length;
            }
            for (size_t c = 0; c < ax->components.size(); ++c) {
                v.layout.shape.push_back(ax->components[c]->length);
                v.layout.strides.push_back(strides[c]);
            }
        }
        break;
    }
    case OpKind::Flatten: {
        // Walk the result axes; a flattened one consumes as many arg axes as it has components.
        Layout l;
        l.offset = in.offset;
        size_t pos = 0;
        bool ok = true;
        for (const Axis *ax : n.axes) {
            // Only the newly merged axis consumes several operand axes; an axis flattened
            // earlier passes through as one.
            size_t count = ax == n.attrs.axis ? ax->components.size() : 1;
            int64_t stride = 0;
            if (!merge_dims(in, pos, count, stride)) ok = false;
            l.shape.push_back(ax->length);
            l.strides.push_back(stride);
            pos += count;
        }
        if (ok) {
            v.layout = l;
        } else {
            // The strides do not allow it: flatten a row-major copy of it.
            Value packed = L.pack(arg, a.axes);
            v.buffer = packed.buffer;
            v.layout.offset = 0;
            v.layout.shape = n.shape();
            v.layout.strides = row_major_strides(v.layout.shape);
        }
        break;
    }
    default: throw internal_error("not a view: ", op_kind_name(n.kind));
    }
    L.values[id] = v;
    // A view sees the argument's buffer as of the argument's version.
    L.version[id] = L.version[arg];
}

void lower_assign(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t target = n.args.at(0), rhs = n.args.at(1);
    const Value dst = L.values[target];
    // A parameter's buffer is the caller's input tensor: the write goes there.
    const Buffer::Kind kind = L.plan.buffers.at(dst.buffer).kind;
    if (kind != Buffer::Kind::Persistent && kind != Buffer::Kind::Param)
        throw internal_error("assign target is not a persistent tensor");
    const bool to_slice = n.kind == OpKind::AssignSlice;
    const Axes &space = to_slice ? n.attrs.axes : L.graph.nodes[target].axes;
    Value region = dst;
    if (to_slice) {
        std::vector<int64_t> shape;
        for (const Axis *a : space) shape.push_back(a->length);
        region.layout = slice_layout(dst.layout, n.attrs.slices, shape);
    }
    L.keep_what_assignment_overwrites(id, dst.buffer);

    Step s;
    s.shape = region.layout.shape;
    Operand src = L.read(rhs, space);
    // Writing a tensor from a differently-strided view of itself would read overwritten values.
    if (src.buffer == dst.buffer) {
        Value packed = L.pack(rhs, L.graph.nodes[rhs].axes);
        src = L.operand(packed, L.graph.nodes[rhs].axes, space);
    }
    const DType from = L.graph.nodes[rhs].dtype;
    if (from == n.dtype) {
        s.kind = Step::Kind::Copy;
        s.dtype = n.dtype;
    } else {
        s.kind = Step::Kind::Elementwise;
        s.program.inputs = {from};
        kernels::Instruction cast{};
        cast.type = kernels::Instruction::Type::Cast;
        cast.dtype = from;
        cast.to = n.dtype;
        cast.src[0] = 0;
        s.program.code = {cast};
        s.program.result = 1;
    }
    s.inputs.push_back(src);
    s.output = L.operand(region, space, space);
    L.add_step(std::move(s));
    ++L.writes_to_buffer[dst.buffer];
    L.values[id] = dst;
}

}  // namespace ng
