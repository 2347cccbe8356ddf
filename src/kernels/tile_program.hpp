// An elementwise Program prepared for one iteration space: every register gets a step (1 = a
// tile of values, 0 = one value for the whole tile, computed once) and a scratch slot, with slots
// reused once a register is dead; a float chain over arrays and broadcast values is evaluated in
// registers instead (run_chain). run() evaluates the program on one tile with the level-1
// primitives. It keeps its own copy of the program, so a prepared TileProgram (inside a
// kernels/prepared.hpp plan) can be kept, copied and moved independently of the Program it was
// made from; run() is const and may be called by several threads at once.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/chain.hpp"
#include "kernels/kernels.hpp"

namespace ng::kernels {

struct TileValues {
    const void *data;
    int step;  // 1: len values; 0: one value for the whole tile
};

class TileProgram {
public:
    // input_strides[i]: the innermost stride of input i (0 broadcast, 1 in place, else gathered).
    // direct_output: the result may be written straight into the output tile (the output is
    // contiguous along the innermost dimension and not a reduction target).
    void prepare(const char *driver, const Program &program,
                 const std::vector<int64_t> &input_strides, bool direct_output);

    DType result_dtype() const { return dtypes_[result_]; }
    // Per-thread scratch a run() needs.
    size_t scratch_bytes() const { return scratch_bytes_; }
    // Evaluates one tile of `len` <= kTile points. inputs[i] is input i's first element of the
    // tile; `out` is the output tile (used when prepared with direct_output, else may be null).
    // The values are in scratch, in an input, or in `out` (then data == out). stream_out: a
    // register chain that writes straight into `out` writes it past the cache (run_chain), and
    // the caller fences after its last tile (fence_streamed_stores).
    TileValues run(void *scratch, int64_t len, const char *const *inputs, void *out,
                   bool stream_out) const;
    // The input whose tile run() returns as it is (the program computes nothing and the input is
    // read in place, along the innermost dimension), or -1.
    int32_t in_place_input() const {
        const bool in_place = program_.code.empty() && result_ < int32_t(program_.inputs.size()) &&
                              steps_[result_] == 1 && gather_[result_] == 0;
        return in_place ? result_ : -1;
    }
    // Whether the program runs as a register chain, whose values run_sum can add up without
    // storing them.
    bool sums_in_registers() const { return use_chain_; }
    // For a program that sums_in_registers(): *sum = the float sum of the tile's `len` values (in
    // the result's dtype), as run_chain_sum adds them.
    void run_sum(int64_t len, const char *const *inputs, void *sum) const;

private:
    Program program_;  // a copy; assigned in place so that a warm prepare() does not allocate
    int32_t result_ = -1;
    std::vector<DType> dtypes_;        // per register
    std::vector<int> steps_;           // per register
    std::vector<int32_t> slots_;       // per register: scratch slot, -1 = in place / output
    std::vector<int64_t> gather_;      // per input: innermost stride when gathered, else 0
    bool gathers_ = false;             // whether any input is gathered (a run skips gather_)
    std::vector<int64_t> last_use_;    // scratch for slot assignment
    std::vector<int32_t> free_slots_;  // scratch for slot assignment
    bool result_direct_ = false;
    int32_t slot_count_ = 0;
    size_t scratch_bytes_ = 0;  // worked out by prepare(): the drivers ask for it at every tile
    // Programs that are register chains (kernels/chain.hpp) of at least two functions run as one
    // run_chain per tile: each value is loaded and stored once instead of once per instruction.
    ChainCompiler chain_;
    bool use_chain_ = false;
};

}  // namespace ng::kernels
