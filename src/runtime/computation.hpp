// A compiled computation: the passes' output (a Plan), its arena, and the binding of inputs,
// persistent values and outputs at each run.
#pragma once

#include <memory>
#include <vector>

#include "passes/exec_graph.hpp"
#include "runtime/executor.hpp"
#include "passes/plan.hpp"
#include "runtime/transformer.hpp"

namespace ng {

class Computation {
public:
    Computation(std::shared_ptr<Transformer> t, const std::vector<const Op *> &results,
                const std::vector<const Op *> &params);

    // inputs: one tensor per parameter. outputs: one slot per result; a result whose slot is
    // null goes into a new tensor in fresh[i]. Everything is validated before anything runs.
    // Once warm, a run allocates nothing but those new tensors.
    void run(const Tensor *const *inputs, Tensor *const *outputs, Tensor *fresh);

    const Plan &plan() const { return plan_; }
    int32_t num_source_ops() const { return num_source_ops_; }
    const std::vector<const Op *> &params() const { return params_; }
    const std::vector<const Op *> &results() const { return results_; }
    Transformer &transformer() { return *transformer_; }

private:
    void validate(const Tensor *const *inputs, Tensor *const *outputs) const;
    bool can_forward(size_t i, const Tensor &target, const Tensor *const *inputs,
                     Tensor *const *outputs) const;
    void copy_result(size_t i, Tensor &out);
    void compile();

    std::shared_ptr<Transformer> transformer_;
    std::vector<const Op *> results_, params_;
    Plan plan_;
    std::unique_ptr<Executor> executor_;
    std::shared_ptr<Storage> arena_;
    std::vector<char *> bases_;
    std::vector<bool> forwarded_;  // per result: computed straight into its output this run
    ExecGraph graph_;              // after the graph passes; lowered again on new strides
    std::vector<std::vector<int64_t>> param_strides_;  // the input strides plan_ was made for
    kernels::Strided copy_from_, copy_to_;  // reused by copy_result, so a run does not allocate
    int32_t num_source_ops_ = 0;
};

}  // namespace ng
