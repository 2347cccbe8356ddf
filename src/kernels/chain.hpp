// Turns an elementwise Program into the steps of a register chain (run_chain) when it is one:
// float Unary and Binary instructions of functions the chain kernels have, over inputs that are
// arrays or broadcast values. The program's expression graph is walked from its result with one
// accumulator: an operand that is an input (or a value kept earlier) is read as a leaf, and a
// value read twice, or needed while another operand is computed, is saved to a temporary leaf.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernels.hpp"

namespace ng::kernels {

class ChainCompiler {
public:
    // Fills `code` and `leaves` (inputs first, then temporaries) and returns true when `program`
    // can run as a chain over inputs with these innermost strides (0 or 1 only); false (code
    // cleared) otherwise. A warm compiler allocates nothing for a program of the same size.
    bool compile(const Program &program, const std::vector<int64_t> &input_strides);

    const std::vector<ChainStep> &code() const { return code_; }
    int32_t leaves() const { return leaves_; }

private:
    bool emit(int32_t r);
    void push(ChainStep::Kind kind, int32_t fn, int32_t leaf);

    const Program *program_ = nullptr;
    std::vector<ChainStep> code_;
    std::vector<int32_t> uses_;     // per register: reads by instructions the result needs
    std::vector<int32_t> leaf_of_;  // per register: its leaf once it is one, else -1
    int32_t leaves_ = 0;
};

}  // namespace ng::kernels
