// Lowering of the ops that compute: elementwise programs (with their fused producers),
// reductions, arg-reductions, softmax and dot.
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "core/checked_math.hpp"
#include "kernels/parallel.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

namespace {

using kernels::Instruction;

// The kernel function op_kinds.def names for each op kind, as the code of its family's enum
// (-1 for an op without one).
#define NG_KERNEL_Unary(Fn) int32_t(kernels::UnaryFn::Fn)
#define NG_KERNEL_Binary(Fn) int32_t(kernels::BinaryFn::Fn)
#define NG_KERNEL_Comparison(Fn) int32_t(kernels::CompareFn::Fn)
#define NG_KERNEL_Reduction(Fn) int32_t(kernels::ReduceFn::Fn)
#define NG_KERNEL_NONE(Fn) -1
#define NG_KERNEL_Leaf NG_KERNEL_NONE
#define NG_KERNEL_Cast NG_KERNEL_NONE
#define NG_KERNEL_Identity NG_KERNEL_NONE
#define NG_KERNEL_Select NG_KERNEL_NONE
#define NG_KERNEL_ArgReduction NG_KERNEL_NONE
#define NG_KERNEL_Contraction NG_KERNEL_NONE
#define NG_KERNEL_Normalization NG_KERNEL_NONE
#define NG_KERNEL_View NG_KERNEL_NONE
#define NG_KERNEL_DataMovement NG_KERNEL_NONE
#define NG_KERNEL_Assignment NG_KERNEL_NONE
#define NG_KERNEL_Control NG_KERNEL_NONE
#define NG_KERNEL_Random NG_KERNEL_NONE
#define NG_KERNEL_Kernel NG_KERNEL_NONE
constexpr int32_t kKernelFn[] = {
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) NG_KERNEL_##Class(Kernel),
#include "graph/op_kinds.def"
};
static_assert(sizeof kKernelFn / sizeof kKernelFn[0] == kNumOpKinds, "one entry per op kind");
#undef NG_KERNEL_Unary
#undef NG_KERNEL_Binary
#undef NG_KERNEL_Comparison
#undef NG_KERNEL_Reduction
#undef NG_KERNEL_NONE
#undef NG_KERNEL_Leaf
#undef NG_KERNEL_Cast
#undef NG_KERNEL_Identity
#undef NG_KERNEL_Select
#undef NG_KERNEL_ArgReduction
#undef NG_KERNEL_Contraction
#undef NG_KERNEL_Normalization
#undef NG_KERNEL_View
#undef NG_KERNEL_DataMovement
#undef NG_KERNEL_Assignment
#undef NG_KERNEL_Control
#undef NG_KERNEL_Random
#undef NG_KERNEL_Kernel

int32_t kernel_fn(OpKind k) {
    return kKernelFn[static_cast<int32_t>(k)];
}

Instruction instruction_for(const Node &n, const ExecGraph &g) {
    Instruction ins{};
    ins.dtype = g.nodes[n.args.at(0)].dtype;
    ins.fn = kernel_fn(n.kind);
    switch (op_kind_class(n.kind)) {
    case OpClass::Unary: ins.type = Instruction::Type::Unary; break;
    case OpClass::Binary: ins.type = Instruction::Type::Binary; break;
    case OpClass::Comparison: ins.type = Instruction::Type::Compare; break;
    case OpClass::Select:
        ins.type = Instruction::Type::Select;
        ins.dtype = n.dtype;
        break;
    case OpClass::Cast:
        ins.type = Instruction::Type::Cast;
        ins.to = n.dtype;
        break;
    default: throw internal_error("not an elementwise op: ", op_kind_name(n.kind));
    }
    return ins;
}

// Builds the program computing node `root` over `space`, inlining fused producers.
class ProgramBuilder {
public:
    ProgramBuilder(Lowering &L, const Axes &space) : L_(L), space_(space) {}

    kernels::Program build(int32_t root, std::vector<Operand> &inputs) {
        program_.result = emit_instruction(root, inputs);
        // Instruction registers come after the inputs, whose number is known only now.
        const int32_t ni = static_cast<int32_t>(program_.inputs.size());
        auto resolve = [ni](int32_t &reg) {
            if (reg <= kInstructionTag) reg = ni + (kInstructionTag - reg);
        };
        for (Instruction &ins : program_.code)
            for (int32_t &src : ins.src) resolve(src);
        resolve(program_.result);
        return std::move(program_);
    }

private:
    // While building, instruction k's register is encoded as kInstructionTag - k.
    static constexpr int32_t kInstructionTag = -10;

    // The instruction computing `root`, after those of the fused producers it reads (each
    // once), with the values stored elsewhere as inputs in the order first read. An explicit
    // stack, not recursion: a fused chain may be as long as the graph.
    int32_t emit_instruction(int32_t root, std::vector<Operand> &inputs) {
        struct Pending {
            int32_t id;
            size_t next;  // the next arg to read
            Instruction ins;
        };
        std::vector<Pending> stack{{root, 0, instruction_for(L_.graph.nodes[root], L_.graph)}};
        for (;;) {
            Pending &p = stack.back();
            const Node &n = L_.graph.nodes[p.id];
            if (p.next < n.args.size() && p.next < 3) {
                const int32_t arg = n.args[p.next];
                auto known = reg_of_.find(arg);
                if (known != reg_of_.end()) {
                    p.ins.src[p.next++] = known->second;
                } else if (L_.fused[arg]) {
                    const Instruction ins = instruction_for(L_.graph.nodes[arg], L_.graph);
                    stack.push_back(Pending{arg, 0, ins});  // p is invalid from here on
                } else {
                    const auto reg = static_cast<int32_t>(program_.inputs.size());
                    program_.inputs.push_back(L_.graph.nodes[arg].dtype);
                    inputs.push_back(L_.read(arg, space_));
                    reg_of_[arg] = reg;
                    p.ins.src[p.next++] = reg;
                }
                continue;
            }
            program_.code.push_back(p.ins);
            const int32_t reg = kInstructionTag - static_cast<int32_t>(program_.code.size() - 1);
            const int32_t done = p.id;
            stack.pop_back();
            if (stack.empty()) return reg;
            reg_of_[done] = reg;
            Pending &consumer = stack.back();
            consumer.ins.src[consumer.next++] = reg;
        }
    }

    Lowering &L_;
    const Axes &space_;
    kernels::Program program_;
    std::unordered_map<int32_t, int32_t> reg_of_;
};

// A program that just passes its single input through (a reduction of a stored value).
kernels::Program identity_program(DType dt) {
    kernels::Program p;
    p.inputs = {dt};
    p.result = 0;
    return p;
}

kernels::ReduceFn reduce_fn(OpKind k) {
    if (op_kind_class(k) != OpClass::Reduction)
        throw internal_error("not a reduction: ", op_kind_name(k));
    return static_cast<kernels::ReduceFn>(kernel_fn(k));
}

const Axis *single_axis(const Node &n) {
    if (n.attrs.axis) return n.attrs.axis;
    if (n.attrs.axes.size() == 1) return n.attrs.axes[0];
    throw internal_error(op_kind_name(n.kind), " needs exactly one axis");
}

}  // namespace

void lower_elementwise(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    Step s;
    s.kind = Step::Kind::Elementwise;
    s.shape = n.shape();
    s.program = ProgramBuilder(L, n.axes).build(id, s.inputs);
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), s.shape);
    s.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(s));
}

void lower_reduction(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t x = n.args.at(0);
    const Node &xn = L.graph.nodes[x];
    Step s;
    s.kind = Step::Kind::Reduce;
    s.reduce_fn = reduce_fn(n.kind);
    s.shape = xn.shape();
    if (L.fused[x])
        s.program = ProgramBuilder(L, xn.axes).build(x, s.inputs);
    else {
        s.program = identity_program(xn.dtype);
        s.inputs.push_back(L.read(x, xn.axes));
    }
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    s.output = L.operand(L.values[id], n.axes, xn.axes);
    L.add_step(std::move(s));
    if (n.kind != OpKind::Mean) return;

    // mean = sum / count, in place over the (small) reduced result.
    int64_t count = checked_numel(xn.shape(), "mean") / std::max<int64_t>(1, n.numel());
    std::vector<uint8_t> bytes(dtype_size(n.dtype));
    visit_dtype(n.dtype, [&](auto zero) {
        auto c = static_cast<decltype(zero)>(count);
        std::memcpy(bytes.data(), &c, sizeof c);
    });
    Value divisor = L.row_major(L.new_constant_buffer(n.dtype, {}, bytes.data()), {});
    Step d;
    d.kind = Step::Kind::Elementwise;
    d.shape = n.shape();
    d.program.inputs = {n.dtype, n.dtype};
    Instruction div{};
    div.type = Instruction::Type::Binary;
    div.fn = int32_t(kernels::BinaryFn::Divide);
    div.dtype = n.dtype;
    div.src[0] = 0;
    div.src[1] = 1;
    d.program.code = {div};
    d.program.result = 2;
    d.inputs = {L.operand(L.values[id], n.axes, n.axes), L.operand(divisor, {}, n.axes)};
    d.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(d));
}

void lower_arg_reduction(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t x = n.args.at(0);
    const Node &xn = L.graph.nodes[x];
    const bool is_max = n.kind == OpKind::Argmax;
    const DType dt = xn.dtype;
    const std::vector<int64_t> shape = xn.shape();
    const int32_t dim = find_axis(xn.axes, single_axis(n));
    if (dim < 0) throw internal_error("arg-reduction axis not in operand");
    Step s;
    s.kind = Step::Kind::Kernel;
    s.kernel.run = [is_max, dt, shape, dim](const KernelRun &r) {
        kernels::run_arg_reduce(is_max, dt, shape, dim, r.inputs[0], r.output, r.pool);
    };
    s.kernel.may_use_pool = kernels::may_split(checked_numel(shape, "operand"));
    s.inputs.push_back(L.read(x, xn.axes));
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    s.output = L.operand(L.values[id], n.axes, xn.axes);
    L.add_step(std::move(s));
}

void lower_softmax(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t x = n.args.at(0);
    const bool log = n.kind == OpKind::LogSoftmax;
    const DType dt = n.dtype;
    const std::vector<int64_t> shape = n.shape();
    std::vector<bool> reduced(n.axes.size(), n.attrs.axes.empty());
    for (const Axis *a : n.attrs.axes) {
        int32_t at = find_axis(n.axes, a);
        if (at < 0) throw internal_error("softmax axis not in operand");
        reduced[at] = true;
    }
    Step s;
    s.kind = Step::Kind::Kernel;
    s.kernel.run = [log, dt, shape, reduced](const KernelRun &r) {
        kernels::run_softmax(log, dt, shape, reduced, r.inputs[0], r.output, r.pool);
    };
    s.kernel.may_use_pool = kernels::may_split(checked_numel(shape, "operand"));
    s.inputs.push_back(L.read(x, n.axes));
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), shape);
    s.output = L.operand(L.values[id], n.axes, n.axes);
    L.add_step(std::move(s));
}

}  // namespace ng
