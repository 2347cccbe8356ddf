#include "passes/fuse_gemm.hpp"

#include <algorithm>

namespace ng {

namespace {

using kernels::BinaryFn;
using kernels::Instruction;
using kernels::UnaryFn;

// Which steps read and which write each buffer.
struct Access {
    std::vector<std::vector<int32_t>> readers, writers;
    std::vector<char> is_result;

    explicit Access(const Plan &plan)
        : readers(plan.buffers.size()),
          writers(plan.buffers.size()),
          is_result(plan.buffers.size(), 0) {
        for (int32_t i = 0; i < static_cast<int32_t>(plan.steps.size()); ++i) {
            const Step &s = plan.steps[i];
            for (const Operand &o : s.inputs)
                if (o.buffer >= 0) readers[o.buffer].push_back(i);
            if (s.output.buffer >= 0) writers[s.output.buffer].push_back(i);
        }
        for (const Value &v : plan.results)
            if (v.buffer >= 0) is_result[v.buffer] = 1;
    }

    // Whether a step strictly between `from` and `to` writes `buffer`.
    bool written_between(int32_t buffer, int32_t from, int32_t to) const {
        return any_between(writers[buffer], from, to);
    }

    // Whether `steps` (in increasing order, as the constructor lists them) has one strictly
    // between `from` and `to`: a binary search, so a tensor that many steps touch costs no
    // more than a logarithm per question.
    static bool any_between(const std::vector<int32_t> &steps, int32_t from, int32_t to) {
        auto after = std::upper_bound(steps.begin(), steps.end(), from);
        return after != steps.end() && *after < to;
    }
};

// Whether two operands' strides address the same elements over `shape` (a dimension of length
// 1 has no stride that matters).
bool same_strides(const std::vector<int64_t> &shape, const std::vector<int64_t> &a,
                  const std::vector<int64_t> &b) {
    if (a.size() != shape.size() || b.size() != shape.size()) return false;
    for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] != 1 && a[d] != b[d]) return false;
    return true;
}

bool same_operand(const std::vector<int64_t> &shape, const Operand &a, const Operand &b) {
    return a.buffer == b.buffer && a.offset == b.offset &&
           same_strides(shape, a.strides, b.strides);
}

bool all_zero(const std::vector<int64_t> &v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

bool is_binary(const Instruction &ins, BinaryFn fn) {
    return ins.type == Instruction::Type::Binary && ins.fn == static_cast<int32_t>(fn);
}

int64_t numel(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

bool is_unary(const Instruction &ins, UnaryFn fn) {
    return ins.type == Instruction::Type::Unary && ins.fn == static_cast<int32_t>(fn);
}

// A GEMM step as lowered from a dot: C = op(A) op(B), nothing fused into it yet.
bool plain_gemm(const Step &g) {
    return g.kind == Step::Kind::Gemm && g.alpha == 1 && g.beta == 0 && g.inputs.size() == 2 &&
           g.scale_input < 0 && g.bias_input < 0 && !g.flag;
}

// Drops the steps marked in `drop`.
void drop_steps(Plan &plan, const std::vector<char> &drop) {
    std::vector<Step> kept;
    kept.reserve(plan.steps.size());
    for (size_t i = 0; i < plan.steps.size(); ++i)
        if (!drop[i]) kept.push_back(std::move(plan.steps[i]));
    plan.steps = std::move(kept);
}

// The update found around copy step `copy`: steps to drop and the fused GEMM replacing the copy.
struct Update {
    int32_t gemm = -1, elementwise = -1;
    Step fused;
};

// Matches copy step `ci` (new value -> w) with the elementwise step w - s * D making the new
// value and the GEMM making D.
bool match_update(const Plan &plan, const Access &access, int32_t ci, Update &u) {
    const Step &copy = plan.steps[ci];
    if (copy.kind != Step::Kind::Copy) return false;
    const int32_t fresh = copy.inputs.at(0).buffer, target = copy.output.buffer;
    if (fresh < 0 || target < 0 || fresh == target) return false;
    if (plan.buffers[fresh].kind != Buffer::Kind::Arena || access.is_result[fresh]) return false;
    if (access.writers[fresh].size() != 1 || access.readers[fresh].size() != 1) return false;

    const int32_t ei = access.writers[fresh][0];
    const Step &e = plan.steps[ei];
    if (e.kind != Step::Kind::Elementwise || ei >= ci || e.shape != copy.shape) return false;
    if (!same_operand(e.shape, e.output, copy.inputs[0])) return false;
    const kernels::Program &p = e.program;
    const DType dt = copy.dtype;
    if ((dt != NG_FLOAT32 && dt != NG_FLOAT64) || p.inputs.size() != 3 || p.code.size() != 2 ||
        p.result != 4)
        return false;
    for (DType in : p.inputs)
        if (in != dt) return false;
    const Instruction &mul = p.code[0], &sub = p.code[1];
    if (!is_binary(mul, BinaryFn::Multiply) || !is_binary(sub, BinaryFn::Subtract) ||
        mul.dtype != dt || sub.dtype != dt || sub.src[1] != 3 || sub.src[0] < 0 || sub.src[0] > 2 ||
        mul.src[0] < 0 || mul.src[0] > 2 || mul.src[1] < 0 || mul.src[1] > 2)
        return false;
    // The old value of w, read where the copy writes it.
    const Operand &w = e.inputs[sub.src[0]];
    if (w.buffer != target || w.offset != copy.output.offset ||
        !same_strides(e.shape, w.strides, copy.output.strides))
        return false;
    // The scale (one value broadcast) and the product.
    int32_t si = mul.src[0], di = mul.src[1];
    if (!all_zero(e.inputs[si].strides)) std::swap(si, di);
    if (si == di || si == sub.src[0] || di == sub.src[0]) return false;
    const Operand &scale = e.inputs[si], &product = e.inputs[di];
    if (!all_zero(scale.strides) || scale.buffer < 0 || scale.buffer == target) return false;
    // The product must cover its buffer laid out exactly like w, so that the GEMM's C can be w.
    const int32_t d = product.buffer;
    if (d < 0 || plan.buffers[d].kind != Buffer::Kind::Arena || access.is_result[d] ||
        product.offset != 0 || !same_strides(e.shape, product.strides, w.strides))
        return false;
    if (access.writers[d].size() != 1 || access.readers[d].size() != 1) return false;
    const int32_t gi = access.writers[d][0];
    const Step &g = plan.steps[gi];
    if (!plain_gemm(g) || gi >= ei || g.dtype != dt || g.output.offset != 0 ||
        numel(e.shape) != g.m * g.n)
        return false;
    // The GEMM moves to the copy's place: what it reads must still hold the same values there,
    // and w must not be one of its operands.
    for (const Operand &in : g.inputs)
        if (in.buffer == target || access.written_between(in.buffer, gi, ci)) return false;
    if (access.written_between(scale.buffer, ei, ci) || access.written_between(target, ei, ci))
        return false;

    u.gemm = gi;
    u.elementwise = ei;
    u.fused = g;
    u.fused.alpha = -1;
    u.fused.beta = 1;
    u.fused.scale_input = static_cast<int32_t>(u.fused.inputs.size());
    u.fused.inputs.push_back(Operand{scale.buffer, scale.offset, {}});
    u.fused.output = Operand{target, copy.output.offset, {}};
    return true;
}

}  // namespace

void fuse_gemm_updates(Plan &plan) {
    const Access access(plan);
    std::vector<char> drop(plan.steps.size(), 0);
    bool changed = false;
    for (int32_t ci = 0; ci < static_cast<int32_t>(plan.steps.size()); ++ci) {
        Update u;
        if (!match_update(plan, access, ci, u)) continue;
        drop[u.gemm] = drop[u.elementwise] = 1;
        plan.steps[ci] = std::move(u.fused);
        changed = true;
    }
    if (changed) drop_steps(plan, drop);
}

namespace {

// Matches GEMM step `gi` with the one elementwise step reading its product, when that step
// computes D + bias or relu(D + bias) into a buffer of its own laid out like D. On success
// `fused` is the GEMM writing that step's output and `ei` the step it replaces.
bool match_epilogue(const Plan &plan, const Access &access, int32_t gi, int32_t &ei, Step &fused) {
    const Step &g = plan.steps[gi];
    if (!plain_gemm(g) || (g.dtype != NG_FLOAT32 && g.dtype != NG_FLOAT64)) return false;
    const int32_t d = g.output.buffer;
    if (d < 0 || plan.buffers[d].kind != Buffer::Kind::Arena || access.is_result[d] ||
        g.output.offset != 0 || access.writers[d].size() != 1 || access.readers[d].size() != 1)
        return false;
    ei = access.readers[d][0];
    const Step &e = plan.steps[ei];
    if (e.kind != Step::Kind::Elementwise || ei <= gi || numel(e.shape) != g.m * g.n) return false;
    const kernels::Program &p = e.program;
    const DType dt = g.dtype;
    if (p.inputs.size() != 2 || p.inputs[0] != dt || p.inputs[1] != dt || p.code.empty() ||
        p.code.size() > 2 || p.result != 1 + static_cast<int32_t>(p.code.size()))
        return false;
    const Instruction &add = p.code[0];
    if (!is_binary(add, BinaryFn::Add) || add.dtype != dt ||
        !((add.src[0] == 0 && add.src[1] == 1) || (add.src[0] == 1 && add.src[1] == 0)))
        return false;
    const bool relu = p.code.size() == 2;
    if (relu &&
        (!is_unary(p.code[1], UnaryFn::Relu) || p.code[1].dtype != dt || p.code[1].src[0] != 2))
        return false;
    const int32_t di = e.inputs[0].buffer == d ? 0 : 1;
    const Operand &product = e.inputs[di], &bias = e.inputs[1 - di];
    if (product.buffer != d || bias.buffer < 0 || bias.buffer == d || product.offset != 0 ||
        !same_strides(e.shape, product.strides, e.output.strides))
        return false;
    // The step's output is written at the GEMM's place now: it must be a buffer of its own that
    // nothing touches before, and the bias must hold the same values there.
    const int32_t out = e.output.buffer;
    if (out < 0 || plan.buffers[out].kind != Buffer::Kind::Arena || out == bias.buffer ||
        access.writers[out].size() != 1)
        return false;
    for (int32_t r : access.readers[out])
        if (r <= ei) return false;
    for (const Operand &in : g.inputs)
        if (in.buffer == out) return false;
    if (access.written_between(bias.buffer, gi, ei)) return false;

    fused = g;
    fused.shape = e.shape;
    fused.output = e.output;
    fused.bias_input = static_cast<int32_t>(fused.inputs.size());
    fused.inputs.push_back(bias);
    fused.beta = 1;
    fused.flag = relu;
    return true;
}

}  // namespace

void fuse_gemm_epilogues(Plan &plan) {
    const Access access(plan);
    std::vector<char> drop(plan.steps.size(), 0);
    bool changed = false;
    for (int32_t gi = 0; gi < static_cast<int32_t>(plan.steps.size()); ++gi) {
        int32_t ei = -1;
        Step fused;
        if (!match_epilogue(plan, access, gi, ei, fused)) continue;
        drop[ei] = 1;
        plan.steps[gi] = std::move(fused);
        changed = true;
    }
    if (changed) drop_steps(plan, drop);
}

namespace {

// Whether any step strictly between `from` and `to` reads `buffer`.
bool read_between(const Access &access, int32_t buffer, int32_t from, int32_t to) {
    return Access::any_between(access.readers[buffer], from, to);
}

// Matches copy step `ci` (new value -> tensor) with the elementwise step `ei` computing the new
// value, when that step can write the tensor instead.
bool match_assignment(const Plan &plan, const Access &access, int32_t ci, int32_t &ei) {
    const Step &copy = plan.steps[ci];
    if (copy.kind != Step::Kind::Copy) return false;
    const Operand &from = copy.inputs.at(0), &to = copy.output;
    const int32_t fresh = from.buffer, target = to.buffer;
    if (fresh < 0 || target < 0 || fresh == target) return false;
    if (plan.buffers[fresh].kind != Buffer::Kind::Arena || access.is_result[fresh] ||
        plan.buffers[target].kind == Buffer::Kind::Arena)
        return false;
    if (access.writers[fresh].size() != 1) return false;
    ei = access.writers[fresh][0];
    const Step &e = plan.steps[ei];
    if (e.kind != Step::Kind::Elementwise || ei >= ci || e.shape != copy.shape ||
        !same_operand(e.shape, e.output, from))
        return false;
    // From the step on, the tensor holds the new value: nothing may read the old one or write
    // the tensor in between, and the step itself reads the tensor only where it writes it (as
    // an in-place elementwise step may).
    if (read_between(access, target, ei, ci) || access.written_between(target, ei, ci))
        return false;
    for (const Operand &in : e.inputs)
        if (in.buffer == target &&
            (in.offset != to.offset || !same_strides(e.shape, in.strides, to.strides)))
            return false;
    // Other readers of the new value read the tensor: only if they come before the copy and the
    // two are laid out alike (so an element's offset moves by a constant).
    for (int32_t r : access.readers[fresh]) {
        if (r == ci) continue;
        if (r <= ei || r > ci || !same_strides(e.shape, from.strides, to.strides)) return false;
    }
    return true;
}

}  // namespace

void fuse_assignments(Plan &plan) {
    const Access access(plan);
    std::vector<char> drop(plan.steps.size(), 0);
    // Buffers whose readers an earlier match changed: `access` no longer describes them.
    std::vector<char> touched(plan.buffers.size(), 0);
    bool changed = false;
    for (int32_t ci = 0; ci < static_cast<int32_t>(plan.steps.size()); ++ci) {
        int32_t ei = -1;
        if (!match_assignment(plan, access, ci, ei)) continue;
        const Operand from = plan.steps[ci].inputs[0], to = plan.steps[ci].output;
        if (touched[from.buffer] || touched[to.buffer]) continue;
        touched[from.buffer] = touched[to.buffer] = 1;
        for (int32_t r : access.readers[from.buffer])
            for (Operand &in : plan.steps[r].inputs)
                if (in.buffer == from.buffer) {
                    in.buffer = to.buffer;
                    in.offset += to.offset - from.offset;
                }
        plan.steps[ei].output = to;
        drop[ci] = 1;
        changed = true;
    }
    if (changed) drop_steps(plan, drop);
}

}  // namespace ng
