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
    void run(const std::vector<char *> &bases, ThreadPool *pool);

private:
    struct Prepared {
        std::vector<kernels::Strided> inputs;
        kernels::Strided output;
    };
    void run_step(const Step &s, Prepared &p, const std::vector<char *> &bases, ThreadPool *pool);

    const Plan &plan_;
    std::vector<Prepared> prepared_;
    StridedSpace one_hot_space_;  // kept so that a warm run does not allocate
};

}  // namespace ng
