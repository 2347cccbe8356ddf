#include "kernels/chain.hpp"

namespace ng::kernels {
namespace {

using Type = Instruction::Type;

// Longer programs stay with the tile passes (this also bounds emit's recursion).
constexpr size_t kMaxChainInstructions = 64;

bool chain_instruction(const Instruction &ins, DType dt) {
    if (ins.dtype != dt) return false;
    if (ins.type == Type::Unary) {
        auto f = static_cast<UnaryFn>(ins.fn);
        return f == UnaryFn::Copy || chain_supports(f);
    }
    return ins.type == Type::Binary && chain_supports(static_cast<BinaryFn>(ins.fn));
}

}  // namespace

bool ChainCompiler::compile(const Program &p, const std::vector<int64_t> &input_strides) {
    code_.clear();
    leaves_ = 0;
    const auto inputs = static_cast<int32_t>(p.inputs.size());
    const auto registers = static_cast<int32_t>(p.inputs.size() + p.code.size());
    if (p.result < inputs || p.result >= registers || p.code.size() > kMaxChainInstructions ||
        inputs > kMaxChainLeaves || input_strides.size() != p.inputs.size())
        return false;
    const DType dt = p.code[p.result - inputs].dtype;
    if (!dtype_is_float(dt)) return false;
    for (int32_t i = 0; i < inputs; ++i)
        if (p.inputs[i] != dt || (input_strides[i] != 0 && input_strides[i] != 1)) return false;

    // Which instructions the result needs, and how many of them read each register (an
    // instruction reading one register twice counts once: BinarySelf reads the accumulator).
    uses_.assign(registers, 0);
    leaf_of_.assign(registers, 0);  // here: needed
    leaf_of_[p.result] = 1;
    for (int32_t k = static_cast<int32_t>(p.code.size()) - 1; k >= 0; --k) {
        if (!leaf_of_[inputs + k]) continue;
        const Instruction &ins = p.code[k];
        if (!chain_instruction(ins, dt)) return false;
        const int operands = ins.type == Type::Unary ? 1 : 2;
        for (int j = 0; j < operands; ++j) {
            int32_t s = ins.src[j];
            if (s < 0 || s >= inputs + k) return false;
            leaf_of_[s] = 1;
            if (j == 0 || s != ins.src[0]) ++uses_[s];
        }
    }

    for (int32_t r = 0; r < registers; ++r) leaf_of_[r] = r < inputs ? r : -1;
    leaves_ = inputs;
    program_ = &p;
    bool ok = emit(p.result);
    program_ = nullptr;
    if (!ok) code_.clear();
    return ok;
}

void ChainCompiler::push(ChainStep::Kind kind, int32_t fn, int32_t leaf) {
    ChainStep step{kind};
    step.fn = fn;
    step.leaf = leaf;
    code_.push_back(step);
}

// Leaves register r's value in the accumulator; false when the temporaries run out.
bool ChainCompiler::emit(int32_t r) {
    using Kind = ChainStep::Kind;
    if (leaf_of_[r] >= 0) {
        push(Kind::Load, 0, leaf_of_[r]);
        return true;
    }
    const Instruction &ins = program_->code[r - static_cast<int32_t>(program_->inputs.size())];
    auto save = [&](int32_t reg) {
        if (leaves_ == kMaxChainLeaves) return false;
        push(Kind::Save, 0, leaves_);
        leaf_of_[reg] = leaves_++;
        return true;
    };
    if (ins.type == Type::Unary) {
        if (!emit(ins.src[0])) return false;
        if (static_cast<UnaryFn>(ins.fn) != UnaryFn::Copy) push(Kind::Unary, ins.fn, 0);
    } else {
        const int32_t a = ins.src[0], b = ins.src[1];
        if (a == b) {
            if (!emit(a)) return false;
            push(Kind::BinarySelf, ins.fn, 0);
        } else if (leaf_of_[b] >= 0) {
            if (!emit(a)) return false;
            push(Kind::Binary, ins.fn, leaf_of_[b]);
        } else if (leaf_of_[a] >= 0) {
            if (!emit(b)) return false;
            push(Kind::BinaryReversed, ins.fn, leaf_of_[a]);
        } else {
            // Both computed: b first, kept as a temporary while a is computed.
            if (!emit(b)) return false;
            if (leaf_of_[b] < 0 && !save(b)) return false;
            if (!emit(a)) return false;
            push(Kind::Binary, ins.fn, leaf_of_[b]);
        }
    }
    // A value read again later is kept (it is still in the accumulator).
    if (uses_[r] > 1 && leaf_of_[r] < 0 && !save(r)) return false;
    return true;
}

}  // namespace ng::kernels
