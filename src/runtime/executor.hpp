// Runs a Plan's steps over bound buffers. Operand descriptors are prepared once, when the
// executor is made; a run only patches base addresses, so it allocates nothing.
#pragma once

#include <vector>

#include "core/strided_space.hpp"
#include "passes/plan.hpp"

namespace ng {

class ThreadPool;

class Executor {
public:
    explicit Executor(const Plan &plan);
    // bases[b] = address of buffer b's first byte.
    // `seed` and `draw` key the random steps' values (see kernels::random_fill).
    void run(const std::vector<char *> &bases, ThreadPool *pool, uint64_t seed = 0,
             uint64_t draw = 0);
    // Whether a run draws random values (and so takes a draw number from the transformer).
    bool draws_random() const;

private:
    struct Prepared {
        std::vector<kernels::Strided> inputs;
        kernels::Strided output;
    };
    void run_step(const Step &s, Prepared &p, const std::vector<char *> &bases, ThreadPool *pool);

    uint64_t seed_ = 0, draw_ = 0;  // of the current run

    const Plan &plan_;
    std::vector<Prepared> prepared_;
    StridedSpace one_hot_space_;  // kept so that a warm run does not allocate
};

}  // namespace ng
