// A compiled computation: the passes' output (a Plan), its arena, and the binding of inputs,
// persistent values and outputs at each run.
#pragma once

#include <memory>
#include <vector>

#include "runtime/executor.hpp"
#include "runtime/plan.hpp"
#include "runtime/transformer.hpp"

namespace ng {

class Computation {
public:
    Computation(std::shared_ptr<Transformer> t, const std::vector<const Op *> &results,
                const std::vector<const Op *> &params);

    // outputs[i] null: receives a new tensor. Inputs/outputs are validated before anything runs.
    void run(const std::vector<const Tensor *> &inputs, std::vector<Tensor> &outputs, const std::vector<bool> &given);

    const Plan &plan() const { return plan_; }
    int32_t num_source_ops() const { return num_source_ops_; }
    const std::vector<const Op *> &params() const { return params_; }
    const std::vector<const Op *> &results() const { return results_; }
    Transformer &transformer() { return *transformer_; }

private:
    void validate(const std::vector<const Tensor *> &inputs, std::vector<Tensor> &outputs, const std::vector<bool> &given) const;

    std::shared_ptr<Transformer> transformer_;
    std::vector<const Op *> results_, params_;
    Plan plan_;
    std::unique_ptr<Executor> executor_;
    std::shared_ptr<Storage> arena_;
    std::vector<char *> bases_;
    std::vector<Tensor> staged_inputs_;  // row-major copies of strided inputs, kept for reuse
    int32_t num_source_ops_ = 0;
};

}  // namespace ng
