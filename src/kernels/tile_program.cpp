#include "kernels/tile_program.hpp"

#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {
namespace {

using Type = Instruction::Type;

int operand_count(Type t) {
    switch (t) {
    case Type::Unary:
    case Type::Cast: return 1;
    case Type::Binary:
    case Type::Compare: return 2;
    case Type::Select: return 3;
    }
    return 0;
}

DType produced_dtype(const Instruction &ins) {
    switch (ins.type) {
    case Type::Compare: return NG_BOOL;
    case Type::Cast: return ins.to;
    default: return ins.dtype;
    }
}

DType register_dtype(const Program &p, int32_t r) {
    auto inputs = static_cast<int32_t>(p.inputs.size());
    return r < inputs ? p.inputs[r] : produced_dtype(p.code[r - inputs]);
}

constexpr size_t kSlotBytes = kTile * 8;

size_t header_bytes(size_t registers) {
    return (registers * sizeof(const void *) + 63) / 64 * 64;
}

// n values of `src` (one repeated when src_step is 0) into dst.
void copy_values(const VectorTable &table, DType dt, int64_t n, const void *src, int src_step,
                 void *dst) {
    if (src_step)
        table.unary(UnaryFn::Copy, dt, n, src, dst);
    else
        broadcast(dtype_size(dt), n, src, dst, 1);
}

// What the level-1 entry points would refuse of an instruction's function and dtype, checked
// once here: run() calls the vector table directly, since a tile of a short row is a few values.
void check_function(const Instruction &ins) {
    switch (ins.type) {
    case Type::Unary: check_unary(static_cast<UnaryFn>(ins.fn), ins.dtype); break;
    case Type::Binary: check_binary(static_cast<BinaryFn>(ins.fn), ins.dtype); break;
    case Type::Compare: check_compare(static_cast<CompareFn>(ins.fn), ins.dtype); break;
    case Type::Cast:  // cast() checks its dtypes at each call
    case Type::Select: break;
    }
}

}  // namespace

DType Program::result_dtype() const {
    auto registers = static_cast<int32_t>(inputs.size() + code.size());
    if (result < 0 || result >= registers)
        throw internal_error("program result register ", result, " out of range");
    return register_dtype(*this, result);
}

void TileProgram::prepare(const char *driver, const Program &p,
                          const std::vector<int64_t> &input_strides, bool direct_output) {
    auto inputs = static_cast<int32_t>(p.inputs.size());
    auto registers = static_cast<int32_t>(p.inputs.size() + p.code.size());
    if (input_strides.size() != p.inputs.size())
        throw internal_error(driver, ": program has ", inputs, " inputs, given ",
                             input_strides.size());
    program_.inputs.assign(p.inputs.begin(), p.inputs.end());
    program_.code.assign(p.code.begin(), p.code.end());
    program_.result = p.result;
    result_ = p.result;
    if (result_ < 0 || result_ >= registers)
        throw internal_error(driver, ": result register ", result_, " out of range");

    // Types and steps, checking that every instruction reads defined registers of its dtype.
    dtypes_.resize(registers);
    steps_.resize(registers);
    gather_.resize(inputs);
    gathers_ = false;
    for (int32_t i = 0; i < inputs; ++i) {
        check_dtype(p.inputs[i], driver);
        dtypes_[i] = p.inputs[i];
        steps_[i] = input_strides[i] != 0;
        gather_[i] = input_strides[i] == 0 || input_strides[i] == 1 ? 0 : input_strides[i];
        gathers_ |= gather_[i] != 0;
    }
    for (int32_t k = 0; k < static_cast<int32_t>(p.code.size()); ++k) {
        const Instruction &ins = p.code[k];
        int32_t r = inputs + k;
        int step = 0;
        for (int j = 0; j < operand_count(ins.type); ++j) {
            int32_t s = ins.src[j];
            if (s < 0 || s >= r)
                throw internal_error(driver, ": instruction ", k, " reads register ", s,
                                     " before it is written");
            DType want = ins.type == Type::Select && j == 0 ? NG_BOOL : ins.dtype;
            if (dtypes_[s] != want)
                throw internal_error(driver, ": instruction ", k, " operand ", j, " is ",
                                     dtype_name(dtypes_[s]), ", expected ", dtype_name(want));
            step |= steps_[s];
        }
        dtypes_[r] = produced_dtype(ins);
        check_dtype(dtypes_[r], driver);
        check_function(ins);
        steps_[r] = step;
    }
    result_direct_ =
        direct_output && steps_[result_] == 1 && (result_ >= inputs || gather_[result_] != 0);

    // Slots: a register's slot returns to the pool after the instruction that reads it last.
    last_use_.assign(registers, -1);
    for (int32_t k = 0; k < static_cast<int32_t>(p.code.size()); ++k)
        for (int j = 0; j < operand_count(p.code[k].type); ++j) last_use_[p.code[k].src[j]] = k;
    last_use_[result_] = std::numeric_limits<int64_t>::max();
    slots_.assign(registers, -1);
    free_slots_.clear();
    slot_count_ = 0;
    auto take = [&] {
        if (free_slots_.empty()) return slot_count_++;
        int32_t s = free_slots_.back();
        free_slots_.pop_back();
        return s;
    };
    use_chain_ =
        steps_[result_] == 1 && chain_.compile(p, input_strides) && chain_.code().size() >= 3;

    bool direct = result_direct_;
    if (use_chain_) {
        // A chain keeps its values in registers (run_chain): only a result that does not go
        // straight into the output takes a slot. A small run then needs no thread scratch
        // (ElementwisePlan::run_one_tile).
        if (!direct) slots_[result_] = take();
    } else {
        for (int32_t i = 0; i < inputs; ++i)
            if (gather_[i] && !(direct && i == result_)) slots_[i] = take();
        for (int32_t k = 0; k < static_cast<int32_t>(p.code.size()); ++k) {
            int32_t r = inputs + k;
            if (!(direct && r == result_)) slots_[r] = take();
            const auto &src = p.code[k].src;
            for (int j = 0; j < operand_count(p.code[k].type); ++j) {
                bool repeated = (j > 0 && src[j] == src[0]) || (j > 1 && src[j] == src[1]);
                if (!repeated && last_use_[src[j]] == k && slots_[src[j]] >= 0)
                    free_slots_.push_back(slots_[src[j]]);
            }
        }
    }
    scratch_bytes_ = header_bytes(dtypes_.size()) + slot_count_ * kSlotBytes;
}

void TileProgram::run_sum(int64_t len, const char *const *inputs, void *sum) const {
    if (!use_chain_) throw internal_error("TileProgram::run_sum: the program is not a chain");
    const std::vector<ChainStep> &code = chain_.code();
    vector_table().chain_sum(dtypes_[result_], len, code.data(), static_cast<int32_t>(code.size()),
                             reinterpret_cast<const void *const *>(inputs), steps_.data(),
                             static_cast<int32_t>(program_.inputs.size()), chain_.leaves(), sum);
}

TileValues TileProgram::run(void *scratch, int64_t len, const char *const *inputs, void *out,
                            bool stream_out) const {
    const Program &p = program_;
    auto count = static_cast<int32_t>(p.inputs.size());
    auto values = static_cast<const void **>(scratch);
    char *slot_base = static_cast<char *>(scratch) + header_bytes(dtypes_.size());
    auto destination = [&](int32_t r) -> void * {
        return slots_[r] >= 0 ? slot_base + slots_[r] * kSlotBytes : out;
    };
    const VectorTable &table = vector_table();

    if (use_chain_) {
        void *dst = destination(result_);
        const std::vector<ChainStep> &code = chain_.code();
        // The compiler's steps are valid by construction: the table directly, without
        // run_chain's per-call checks (a tile of a short row is a few values).
        table.chain(dtypes_[result_], len, code.data(), static_cast<int32_t>(code.size()),
                    reinterpret_cast<const void *const *>(inputs), steps_.data(), count,
                    chain_.leaves(), dst, stream_out && dst == out);
        return TileValues{dst, 1};
    }
    for (int32_t i = 0; i < count; ++i) values[i] = inputs[i];
    if (gathers_) {
        for (int32_t i = 0; i < count; ++i) {
            if (!gather_[i]) continue;
            void *dst = destination(i);
            gather(dtype_size(dtypes_[i]), len, inputs[i], gather_[i], dst);
            values[i] = dst;
        }
    }
    for (int32_t k = 0; k < static_cast<int32_t>(p.code.size()); ++k) {
        const Instruction &ins = p.code[k];
        int32_t r = count + k;
        void *dst = destination(r);
        int64_t n = steps_[r] ? len : 1;
        const void *a = values[ins.src[0]];
        int a_step = steps_[ins.src[0]];
        switch (ins.type) {
        case Type::Unary: table.unary(static_cast<UnaryFn>(ins.fn), ins.dtype, n, a, dst); break;
        case Type::Cast: cast(ins.dtype, ins.to, n, a, dst); break;
        case Type::Binary:
            table.binary(static_cast<BinaryFn>(ins.fn), ins.dtype, n, a, a_step, values[ins.src[1]],
                         steps_[ins.src[1]], dst);
            break;
        case Type::Compare:
            table.compare(static_cast<CompareFn>(ins.fn), ins.dtype, n, a, a_step,
                          values[ins.src[1]], steps_[ins.src[1]], static_cast<uint8_t *>(dst));
            break;
        case Type::Select: {
            int32_t t = ins.src[1], f = ins.src[2];
            if (a_step) {
                table.select(ins.dtype, n, static_cast<const uint8_t *>(a), values[t], steps_[t],
                             values[f], steps_[f], dst);
            } else {  // one condition for the whole tile picks one operand
                int32_t chosen = *static_cast<const uint8_t *>(a) ? t : f;
                copy_values(table, ins.dtype, n, values[chosen], steps_[chosen], dst);
            }
            break;
        }
        }
        values[r] = dst;
    }
    return TileValues{values[result_], steps_[result_]};
}

}  // namespace ng::kernels
