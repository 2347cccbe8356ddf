// Memory planning: liveness of every arena buffer over the step list, in-place reuse (an
// elementwise step may write over an input that dies there, with identical strides), and
// placement of the rest in one arena so buffers whose lifetimes do not overlap share memory.
#pragma once

#include "passes/plan.hpp"

namespace ng {

// Results that are dense row-major views of a whole arena buffer of their own (see
// is_forwardable_result) are placed at the end of the arena, apart from everything else: a run
// usually computes them straight into their output tensors, and then the arena memory set aside
// for them is never touched, so it costs no physical memory.
void plan_memory(Plan &plan);

// True when result value v covers its arena buffer exactly, dense and row-major, so a run can
// bind that buffer to an output tensor's memory instead (output forwarding).
bool is_forwardable_result(const Plan &plan, const Value &v);

}  // namespace ng
