// Runs a Plan's steps over bound buffers. Each step's kernel work is planned once, when the
// executor is made (the strides of every operand are fixed by the plan): elementwise, reduction
// and copy steps keep a prepared kernel plan (kernels/prepared.hpp), the others their operand
// descriptors. A run only patches base addresses, so it allocates nothing and re-derives no
// iteration space.
#pragma once

#include <memory>
#include <vector>

#include "kernels/packed_gemm.hpp"
#include "kernels/prepared.hpp"
#include "passes/plan.hpp"

namespace ng {

class ThreadPool;

class Executor {
public:
    // How a float32 Gemm step runs in nanograph's own product (kernels/packed_gemm.hpp): not at
    // all (OpenBLAS), with B packed once and kept from run to run, or packed a panel at a time
    // at each run.
    enum class OwnProduct { None, PackedOnce, PackedEachRun };

    explicit Executor(const Plan &plan);
    // bases[b] = address of buffer b's first byte.
    // `seed` and `draw` key the random steps' values (see kernels::random_fill).
    // versions (null: none known) holds, per buffer, a number that changes whenever the buffer's
    // contents may have changed since an earlier run (0: unknown, assume changed); a float32
    // matrix product whose right-hand matrix has the same version and address as in the run
    // before reuses that matrix packed then (kernels/packed_gemm.hpp).
    void run(const std::vector<char *> &bases, ThreadPool *pool, uint64_t seed = 0,
             uint64_t draw = 0, const uint64_t *versions = nullptr);
    // Whether a step of the plan writes buffer b.
    bool writes(int32_t buffer) const;
    // Whether a run draws random values (and so takes a draw number from the transformer).
    bool draws_random() const { return draws_random_; }
    // Whether a run may hand work to a thread pool: false when every step is small enough for
    // the kernels to run it on the calling thread whatever pool they are given.
    bool may_use_pool() const { return may_use_pool_; }

private:
    // Where an operand starts: its buffer and its offset in bytes.
    struct Address {
        int32_t buffer;
        int64_t byte_offset;
    };
    struct Prepared {
        std::vector<Address> addresses;  // the output's, then each input's
        std::vector<void *> bases;       // of the current run, in the same order
        // Elementwise and Copy steps: elementwise (and Gemm steps with a bias: the copy of the
        // bias over C); Reduce steps: reduce. Other steps use the operand descriptors.
        kernels::ElementwisePlan elementwise;
        kernels::ReducePlan reduce;
        std::vector<kernels::Strided> inputs;
        kernels::Strided output;
        // Gemm steps: whether they run in nanograph's own float32 product, and whether its
        // fused bias is one value per column, added as C is stored.
        OwnProduct own_product = OwnProduct::None;
        bool adds_bias = false;
        // Packed once: B packed, and what it was packed from.
        struct PackedB {
            kernels::PackedPanels panels;
            const void *source = nullptr;
            uint64_t version = 0;
        };
        std::unique_ptr<PackedB> packed;
        // Gemm steps through kernels::gemm: which threads it runs on.
        kernels::GemmThreads gemm_threads = kernels::GemmThreads::Caller;
    };
    void run_step(const Step &s, Prepared &p, const std::vector<char *> &bases, ThreadPool *pool);
    void run_own_gemm(const Step &s, Prepared &p, double alpha, ThreadPool *pool);
    static bool is_column_bias(const Step &s, const Prepared &p);

    uint64_t seed_ = 0, draw_ = 0;        // of the current run
    const uint64_t *versions_ = nullptr;  // of the current run
    bool draws_random_ = false, may_use_pool_ = false;

    const Plan &plan_;
    std::vector<bool> written_;  // per buffer: a step writes it
    std::vector<Prepared> prepared_;
};

}  // namespace ng
