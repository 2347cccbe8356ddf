// Lowering: turns an ExecGraph into a Plan. Views (broadcast, reorder, cast_axes, slice,
// flatten when strides allow, unflatten, stop_gradient) become strided Values over their
// argument's buffer, with no kernel; elementwise chains whose intermediate values nobody else
// reads are fused into one Program (so `sum((x - y)^2)` is one reduction kernel that never
// stores `x - y`); everything else becomes one kernel launch writing a new arena buffer.
#pragma once

#include <vector>

#include "passes/exec_graph.hpp"
#include "passes/plan.hpp"

namespace ng {

// Parameter i is read with strides param_strides[i] (in elements, from the input's element
// (0, ..., 0)); an empty list means row-major for every parameter. Persistent and constant leaves
// get their buffers here. Buffer offsets are placed later by plan_memory().
Plan lower(const ExecGraph &graph, const std::vector<std::vector<int64_t>> &param_strides = {});

}  // namespace ng
