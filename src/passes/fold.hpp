// Constant folding's evaluator: computes one node whose args are constants and returns its value
// as dense row-major bytes, by compiling the node alone through the ordinary pipeline and running
// the plan with the runner the runtime supplied.
#pragma once

#include <vector>

#include "passes/exec_graph.hpp"
#include "passes/pipeline.hpp"

namespace ng {

std::vector<uint8_t> evaluate_constant_node(const ExecGraph &g, int32_t id,
                                            const PlanRunner &run_plan);

}  // namespace ng
