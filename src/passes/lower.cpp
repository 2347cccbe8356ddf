#include "passes/lower.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "core/checked_math.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

Lowering::Lowering(const ExecGraph &g, const std::vector<std::vector<int64_t>> &strides)
    : graph(g), param_strides(strides) {
    const size_t n = g.nodes.size();
    values.resize(n);
    uses.assign(n, 0);
    fused.assign(n, 0);
    version.assign(n, 0);
    fused_into.assign(n, -1);
    last_use.assign(n, -1);
}

int32_t Lowering::new_arena_buffer(DType dt, int64_t numel) {
    Buffer b;
    b.kind = Buffer::Kind::Arena;
    b.dtype = dt;
    b.bytes = checked_bytes(numel, dtype_size(dt), "intermediate value");
    plan.buffers.push_back(std::move(b));
    writes_to_buffer.push_back(0);
    return static_cast<int32_t>(plan.buffers.size() - 1);
}

int32_t Lowering::add_constant_buffer(DType dt, std::shared_ptr<Storage> data) {
    Buffer b;
    b.kind = Buffer::Kind::Constant;
    b.dtype = dt;
    b.bytes = data->bytes();
    b.constant = std::move(data);
    plan.buffers.push_back(std::move(b));
    writes_to_buffer.push_back(0);
    return static_cast<int32_t>(plan.buffers.size() - 1);
}

int32_t Lowering::new_constant_buffer(DType dt, const std::vector<int64_t> &shape,
                                      const void *data) {
    const size_t bytes =
        checked_bytes(checked_numel(shape, "constant"), dtype_size(dt), "constant");
    std::shared_ptr<Storage> copy = Storage::allocate(bytes);
    if (bytes) std::memcpy(copy->data(), data, bytes);
    return add_constant_buffer(dt, std::move(copy));
}

int32_t Lowering::new_constant_buffer(DType dt, const std::vector<int64_t> &shape,
                                      const SharedBytes &data) {
    if (data.empty() || !current_allocator().is_default())
        return new_constant_buffer(dt, shape, data.data());
    return add_constant_buffer(dt, data.storage());
}

Value Lowering::row_major(int32_t buffer, const std::vector<int64_t> &shape) const {
    Value v;
    v.buffer = buffer;
    v.layout.shape = shape;
    v.layout.strides = row_major_strides(shape);
    return v;
}

Operand Lowering::operand(const Value &v, const Axes &value_axes, const Axes &space) const {
    Operand o;
    o.buffer = v.buffer;
    o.offset = v.layout.offset;
    o.strides.assign(space.size(), 0);
    for (size_t i = 0; i < value_axes.size(); ++i) {
        int32_t at = find_axis(space, value_axes[i]);
        if (at < 0) {
            // A length-1 axis the space does not have contributes nothing.
            if (value_axes[i]->length == 1) continue;
            throw internal_error("axis ", value_axes[i]->name, " is not in the iteration space");
        }
        o.strides[at] += v.layout.strides[i];
    }
    return o;
}

Operand Lowering::read(int32_t id, const Axes &space) {
    const Value &v = values[id];
    if (v.buffer < 0) throw internal_error("node ", id, " read before it was lowered");
    if (version[id] != writes_to_buffer[v.buffer]) {
        // keep_what_assignment_overwrites makes this impossible.
        throw internal_error("node ", id, " read after an assignment overwrote it");
    }
    return operand(v, graph.nodes[id].axes, space);
}

int32_t Lowering::add_step(Step step) {
    plan.steps.push_back(std::move(step));
    return static_cast<int32_t>(plan.steps.size() - 1);
}

Value Lowering::pack(int32_t id, const Axes &order) {
    const Node &n = graph.nodes[id];
    std::vector<int64_t> shape = axes_shape(order);
    int32_t buffer = new_arena_buffer(n.dtype, checked_numel(shape, "packed value"));
    Value packed = row_major(buffer, shape);
    Step s;
    s.kind = Step::Kind::Copy;
    s.dtype = n.dtype;
    s.shape = shape;
    s.inputs.push_back(read(id, order));
    s.output = operand(packed, order, order);
    add_step(std::move(s));
    return packed;
}

// Counts consumers, not edges: x*x reads x twice but x is still computed for one consumer only.
// Lists each node's consumers in order, each once (users, user_start).
void Lowering::count_uses() {
    const int32_t n = static_cast<int32_t>(graph.nodes.size());
    std::vector<std::vector<int32_t>> distinct_args(static_cast<size_t>(n));
    std::vector<int32_t> distinct;
    for (int32_t c = 0; c < n; ++c) {
        distinct = graph.nodes[c].args;
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        for (int32_t a : distinct) {
            ++uses[a];
            last_use[a] = std::max(last_use[a], c);
        }
        distinct_args[c] = distinct;
    }
    // Consumers as one array, in consumer order: users_of(v) is a contiguous range.
    user_start.assign(static_cast<size_t>(n) + 1, 0);
    for (int32_t c = 0; c < n; ++c)
        for (int32_t a : distinct_args[c]) ++user_start[a + 1];
    for (int32_t v = 0; v < n; ++v) user_start[v + 1] += user_start[v];
    users.assign(user_start[n], 0);
    std::vector<int32_t> filled(user_start.begin(), user_start.end() - 1);
    for (int32_t c = 0; c < n; ++c)
        for (int32_t a : distinct_args[c]) users[filled[a]++] = c;
    is_result.assign(static_cast<size_t>(n), 0);
    for (int32_t r : graph.results) {
        ++uses[r];
        last_use[r] = INT32_MAX;
        is_result[r] = 1;
    }
}

namespace {

constexpr int32_t kMaxFusedIntermediates = 64;  // see mark_fusible

bool is_elementwise(OpKind k) {
    switch (op_kind_class(k)) {
    case OpClass::Unary:
    case OpClass::Cast:
    case OpClass::Binary:
    case OpClass::Comparison:
    case OpClass::Select: return true;
    default: return false;
    }
}

bool is_fusing_reduction(OpKind k) {
    return op_kind_class(k) == OpClass::Reduction;
}

bool same_axis_set(const Axes &a, const Axes &b) {
    if (a.size() != b.size()) return false;
    for (const Axis *x : a)
        if (find_axis(b, x) < 0) return false;
    return true;
}

}  // namespace

// A producer is fused into its consumer when it is an elementwise op read once, by an
// elementwise op or a reduction whose iteration space has exactly the producer's axes (so
// nothing is recomputed), unless the consumer's program would then read more than
// kMaxFusedIntermediates values computed by other steps: each stays alive until the program
// runs, so a long sum of products fused whole kept every product alive at once (and the memory
// plan placed each of them against all the others). Leaves (parameters, constants, persistent
// tensors) are alive anyway and do not count: x + x + ... + x stays one program.
void Lowering::mark_fusible() {
    const int32_t n = static_cast<int32_t>(graph.nodes.size());
    auto computed = [&](int32_t id) { return graph.nodes[id].is_leaf() ? 0 : 1; };
    // Per node, the values computed elsewhere that its program reads (reads of one value
    // counted each time: an upper bound).
    std::vector<int32_t> intermediates(static_cast<size_t>(n), 0);
    for (int32_t c = 0; c < n; ++c) {
        const Node &consumer = graph.nodes[c];
        bool ew = is_elementwise(consumer.kind);
        if (!ew && !is_fusing_reduction(consumer.kind)) continue;
        const Axes &space = ew ? consumer.axes : graph.nodes[consumer.args[0]].axes;
        int32_t reads = 0;
        for (int32_t a : consumer.args) reads += computed(a);
        for (int32_t p : consumer.args) {
            const Node &producer = graph.nodes[p];
            if (!is_elementwise(producer.kind) || uses[p] != 1 || is_result[p]) continue;
            if (!same_axis_set(producer.axes, space)) continue;
            if (fused[p]) continue;  // read twice (x * x): fused at its first read
            if (reads - 1 + intermediates[p] > kMaxFusedIntermediates) continue;
            fused[p] = 1;
            fused_into[p] = c;
            reads += intermediates[p] - 1;
        }
        intermediates[c] = reads;
    }
}

// Walks the fused producers of `id` with a stack of its own: a fused chain may be as long as the
// graph.
bool Lowering::fused_reads_buffer(int32_t id, int32_t buffer) const {
    std::vector<int32_t> stack{id};
    while (!stack.empty()) {
        const int32_t at = stack.back();
        stack.pop_back();
        for (int32_t a : graph.nodes[at].args) {
            if (fused[a])
                stack.push_back(a);
            else if (values[a].buffer == buffer)
                return true;
        }
    }
    return false;
}

// The graph says which version of a tensor each node reads (exec_graph.hpp); the storage holds
// one. Before an assignment overwrites it, the values read from it that are still needed after
// the assignment are made: a fused computation that would run later runs now, and a value
// stored there (the old content itself, or a view of it) is copied. Assignments are lowered in
// node order, so only fused nodes whose consumer is still to come (open_fused) and the nodes
// stored in `buffer` (values_in) are candidates: each is looked at until it stops being one, so
// an assignment costs what it keeps, not the number of nodes before it.
void Lowering::keep_what_assignment_overwrites(int32_t assignment, int32_t buffer) {
    for (; indexed_upto < assignment; ++indexed_upto)
        if (!fused[indexed_upto] && values[indexed_upto].buffer >= 0)
            values_in[values[indexed_upto].buffer].push_back(indexed_upto);
    for (auto it = open_fused.begin(); it != open_fused.end();) {
        const int32_t i = *it;
        if (fused_into[i] < assignment) {
            it = open_fused.erase(it);  // its consumer is lowered: it never runs again
            continue;
        }
        if (!fused_reads_buffer(i, buffer)) {
            ++it;
            continue;
        }
        it = open_fused.erase(it);
        fused[i] = 0;
        lower_node(i);
        if (values[i].buffer >= 0) values_in[values[i].buffer].push_back(i);
    }
    auto found = values_in.find(buffer);
    if (found == values_in.end()) return;
    std::vector<int32_t> candidates = std::move(found->second);
    values_in.erase(found);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (int32_t i : candidates) {
        // A value copied before, or read by nothing after the assignment, stays as it is.
        if (fused[i] || values[i].buffer != buffer || last_use[i] <= assignment) continue;
        values[i] = pack(i, graph.nodes[i].axes);
        version[i] = writes_to_buffer[values[i].buffer];
        values_in[values[i].buffer].push_back(i);
    }
}

namespace {

// Whether `o` walks `shape` in row-major order (dimensions of length 1 ignored).
bool is_row_major(const Operand &o, const std::vector<int64_t> &shape) {
    int64_t expected = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        if (shape[d] == 1) continue;
        if (o.strides[d] != expected) return false;
        expected *= shape[d];
    }
    return true;
}

}  // namespace

Operand Lowering::read_row_major(int32_t id, const Axes &order) {
    Operand o = read(id, order);
    if (is_row_major(o, axes_shape(order))) return o;
    Value packed = pack(id, order);
    return operand(packed, order, order);
}

namespace {

// The lowering of each op of the Kernel class, named by its Kernel column.
void lower_kernel_op(Lowering &L, int32_t id) {
    switch (L.graph.nodes[id].kind) {
        // clang-format off
#define NG_KERNEL_CLASS_CASE(Name, Kernel) \
    case OpKind::Name: return lower_##Kernel(L, id);
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) \
    NG_IF_KERNEL_CLASS_##Class(NG_KERNEL_CLASS_CASE(Name, Kernel))
#include "graph/op_kinds.def"
#undef NG_KERNEL_CLASS_CASE
        // clang-format on
    default:
        throw internal_error(op_kind_name(L.graph.nodes[id].kind), " is not of the Kernel class");
    }
}

}  // namespace

void Lowering::lower_node(int32_t id) {
    const Node &n = graph.nodes[id];
    if (fused[id]) return;  // computed inside its consumer
    switch (op_kind_class(n.kind)) {
    case OpClass::Leaf: lower_leaf(*this, id); break;
    case OpClass::Unary:
    case OpClass::Cast:
    case OpClass::Binary:
    case OpClass::Comparison:
    case OpClass::Select: lower_elementwise(*this, id); break;
    case OpClass::Identity:
    case OpClass::View: lower_view(*this, id); break;
    case OpClass::Reduction: lower_reduction(*this, id); break;
    case OpClass::ArgReduction: lower_arg_reduction(*this, id); break;
    case OpClass::Contraction: lower_dot(*this, id); break;
    case OpClass::Normalization: lower_softmax(*this, id); break;
    case OpClass::DataMovement: lower_data_movement(*this, id); break;
    case OpClass::Assignment: lower_assign(*this, id); break;
    case OpClass::Kernel: lower_kernel_op(*this, id); break;
    case OpClass::Random: lower_random(*this, id); break;
    case OpClass::Control: throw internal_error("sequential left in the compiled graph");
    }
    if (values[id].buffer >= 0) version[id] = writes_to_buffer[values[id].buffer];
}

Plan Lowering::run() {
    count_uses();
    mark_fusible();
    for (int32_t i = 0; i < static_cast<int32_t>(graph.nodes.size()); ++i) {
        if (fused[i]) open_fused.insert(open_fused.end(), i);
        lower_node(i);
    }
    for (int32_t r : graph.results) {
        plan.results.push_back(values[r]);
        plan.result_shapes.push_back(graph.nodes[r].shape());
        plan.result_dtypes.push_back(graph.nodes[r].dtype);
    }
    for (int32_t p : graph.params) plan.param_buffers.push_back(p >= 0 ? values[p].buffer : -1);
    plan.num_nodes = static_cast<int32_t>(graph.nodes.size());
    return std::move(plan);
}

Plan lower(const ExecGraph &graph, const std::vector<std::vector<int64_t>> &param_strides) {
    return Lowering(graph, param_strides).run();
}

}  // namespace ng
