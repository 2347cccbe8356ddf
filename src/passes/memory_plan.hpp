// Memory planning: liveness of every arena buffer over the step list, in-place reuse (an
// elementwise step may write over an input that dies there, with identical strides), and
// placement of the rest in one arena so buffers whose lifetimes do not overlap share memory.
#pragma once

#include "runtime/plan.hpp"

namespace ng {

void plan_memory(Plan &plan);

}  // namespace ng
