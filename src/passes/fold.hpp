// Constant folding's evaluator: runs one node whose args are constants and returns its value as
// dense row-major bytes, by compiling the node alone with the ordinary passes and kernels.
#pragma once

#include <vector>

#include "passes/exec_graph.hpp"

namespace ng {

std::vector<uint8_t> evaluate_constant_node(const ExecGraph &g, int32_t id);

}  // namespace ng
