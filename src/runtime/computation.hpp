// A compiled computation: the passes' output (a Plan), its arena, and the binding of inputs,
// persistent values and outputs at each run. It owns everything it uses (its copy of the graph
// and of the axes, the descriptions of its parameters and results, the specs and initializers of
// its persistent tensors) and shares its transformer: the user's graph may be destroyed at any
// time after it is compiled.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "passes/exec_graph.hpp"
#include "kernels/scratch.hpp"
#include "runtime/executor.hpp"
#include "passes/plan.hpp"
#include "runtime/persistent.hpp"
#include "runtime/transformer.hpp"
#include "runtime/value_info.hpp"

namespace ng {

class Computation {
public:
    // Compiles `results` of the user's ops; nothing refers to them afterwards. `compiling` (for
    // an initializer's computation) is the compilation of initializers it is part of (see
    // compile_persistent).
    Computation(std::shared_ptr<Transformer> t, const std::vector<const Op *> &results,
                const std::vector<const Op *> &params, InitializerCompilation *compiling = nullptr);
    ~Computation();
    Computation(const Computation &) = delete;
    Computation &operator=(const Computation &) = delete;

    // inputs: one tensor per parameter. outputs: one slot per result; a result whose slot is
    // null goes into a new tensor in fresh[i]. Everything is validated before anything runs.
    // Once warm, a run allocates nothing but those new tensors (and, with recycle_outputs, not
    // even those once their caller releases them).
    void run(const Tensor *const *inputs, Tensor *const *outputs, Tensor *fresh);

    // From now on the computation keeps the storage of each new output it hands out, and the
    // next run reuses it for the same result once nothing else refers to it (new_output). For
    // computations run again and again (the C API's); an initializer runs once, and keeping its
    // output would only hold memory.
    void recycle_outputs() { recycles_outputs_ = true; }

    const Plan &plan() const { return plan_; }
    int32_t num_source_ops() const { return num_source_ops_; }
    // Copies taken at compile time: valid after the graph is destroyed.
    const std::vector<ValueInfo> &param_info() const { return param_info_; }
    const std::vector<ValueInfo> &result_info() const { return result_info_; }
    Transformer &transformer() { return *transformer_; }
    // The specs of the persistent tensors a run reads or writes, in the order a run fetches
    // their values.
    std::vector<const PersistentSpec *> persistent_specs() const {
        std::vector<const PersistentSpec *> specs;
        for (size_t b : persistent_buffers_) specs.push_back(buffer_specs_[b]);
        return specs;
    }

private:
    // Refuses inputs and given outputs whose dtype or shape differ from the plan's; returns
    // whether an input's strides differ from those the plan was made for.
    bool validate(const Tensor *const *inputs, Tensor *const *outputs) const;
    bool can_forward(size_t i, const Tensor &target, const Tensor *const *inputs,
                     Tensor *const *outputs) const;
    // Whether a run's tensors are those whose checks (validate, can_forward) the last run made
    // and passed, by identity; and what records them for the next run.
    bool checked_before(const Tensor *const *inputs, Tensor *const *outputs) const;
    void remember_checked(const Tensor *const *inputs, Tensor *const *outputs);
    void copy_result(size_t i, Tensor &out, ThreadPool *pool);
    Tensor new_output(size_t i);
    void compile();
    void release_initializers();  // see ~Computation
    void compile_persistents(const std::vector<const Op *> &results,
                             InitializerCompilation &compiling);

    std::shared_ptr<Transformer> transformer_;
    std::vector<ValueInfo> param_info_, result_info_;
    // The spec of each persistent tensor the plan reads or writes, by uid; and by buffer index
    // for the current plan (null for other buffers).
    std::unordered_map<uint64_t, std::shared_ptr<const PersistentSpec>> persistents_;
    std::vector<const PersistentSpec *> buffer_specs_;
    Plan plan_;
    std::unique_ptr<Executor> executor_;
    std::shared_ptr<Storage> arena_;
    std::vector<char *> bases_;
    std::vector<uint64_t> versions_;  // per buffer, of the current run (Executor::run)
    // The buffers whose bases a run sets, by kind (compile() sets the others once): parameters
    // (buffer, parameter), persistent tensors, and the arena buffers of forwardable results
    // (buffer, base in the arena), which the last run may have pointed at its output.
    std::vector<std::pair<size_t, int32_t>> param_buffers_;
    std::vector<size_t> persistent_buffers_;
    std::vector<std::pair<size_t, char *>> result_buffers_;
    // Per result (bytes, not bits: every run reads them): computed straight into its output this
    // run; is_forwardable_result for the current plan.
    std::vector<char> forwarded_, forwardable_;
    // The identities of the tensors of the last run whose checks passed: the inputs', then the
    // outputs' (0 for an output left to the run). Empty when none are known: before the first
    // run, and from the moment a run starts checking other tensors (it may plan again).
    std::vector<uint64_t> checked_;
    ExecGraph graph_;  // after the graph passes; lowered again on new strides
    std::vector<std::vector<int64_t>> param_strides_;  // the input strides plan_ was made for
    kernels::Scratch scratch_;  // the running thread's kernel scratch (one run at a time)
    kernels::Strided copy_from_, copy_to_;  // reused by copy_result, so a run does not allocate
    // Per result: the storage of the new output the last run that made one handed out, while
    // recycling (see new_output).
    std::vector<std::shared_ptr<Storage>> recycled_;
    bool recycles_outputs_ = false;
    int32_t num_source_ops_ = 0;
    bool needs_pool_ = false;  // a run of the current plan may split kernel work (compile())
};

}  // namespace ng
