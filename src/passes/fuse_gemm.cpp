#include "passes/fuse_gemm.hpp"

#include <algorithm>

namespace ng {

namespace {

using kernels::BinaryFn;
using kernels::Instruction;

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
        for (int32_t w : writers[buffer])
            if (w > from && w < to) return true;
        return false;
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
    if (g.kind != Step::Kind::Gemm || gi >= ei || g.dtype != dt || g.beta != 0 ||
        g.inputs.size() != 2 || g.output.offset != 0 || numel(e.shape) != g.m * g.n)
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
    if (!changed) return;
    std::vector<Step> kept;
    kept.reserve(plan.steps.size());
    for (size_t i = 0; i < plan.steps.size(); ++i)
        if (!drop[i]) kept.push_back(std::move(plan.steps[i]));
    plan.steps = std::move(kept);
}

}  // namespace ng
