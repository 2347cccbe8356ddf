// The compiler's pipeline, written once: every computation and every constant folded at compile
// time goes through these two functions.
//
//  graph passes:  user ops -> ExecGraph (ordering of side effects) -> simplify (algebra, folding,
//                 CSE, dead code)
//  lowering:      ExecGraph -> Plan (views as strides, fusion) -> GEMM fusions -> memory plan
//                 (liveness, arena)
//
// The compiler does not run kernels. Constant folding needs a plan evaluated, so the caller (the
// runtime) hands in a PlanRunner; this keeps the passes below the runtime in the layer order.
#pragma once

#include <functional>
#include <vector>

#include "passes/exec_graph.hpp"
#include "passes/plan.hpp"

namespace ng {

// Runs `plan` once over `bases` (bases[b] = address of buffer b's first byte). Used only for
// plans that read constants and write arena buffers: no parameters, no persistent values.
using PlanRunner = std::function<void(const Plan &plan, const std::vector<char *> &bases)>;

// The graph passes: builds the ExecGraph of `results` and simplifies it. `num_source_nodes`
// receives the node count before simplification (reported in a computation's stats).
ExecGraph compile_graph(const std::vector<const Op *> &results,
                        const std::vector<const Op *> &params, const PlanRunner &run_plan,
                        int32_t &num_source_nodes);

// Lowering and memory planning for the given parameter strides (empty: row-major everywhere).
Plan compile_plan(const ExecGraph &graph,
                  const std::vector<std::vector<int64_t>> &param_strides = {});

}  // namespace ng
