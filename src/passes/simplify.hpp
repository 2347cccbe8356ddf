// Graph-level passes over a computation's ExecGraph, in one forward sweep (nodes are in schedule
// order, so every arg is already simplified when its user is visited):
//  - algebraic simplification: x+0, x-0, x*1, x/1, log(exp x), -(-x), identity casts/views,
//    stop_gradient (a plain identity once the derivative graph exists);
//  - constant folding: an op whose args are all constants and whose value is small is
//    evaluated at compile time (by compiling and running it on its own) and becomes a constant;
//  - common-subexpression elimination: the same op on the same args (and equal constants) is
//    computed once. Assignments and persistent tensors are never merged.
// Then dead code is removed.
#pragma once

#include <string>

#include "passes/exec_graph.hpp"
#include "passes/pipeline.hpp"

namespace ng {

// Folding evaluates constant nodes with `run_plan`.
void simplify(ExecGraph &g, const PlanRunner &run_plan);

// Everything that makes two nodes compute the same value, as a byte string: kind, dtype, axes,
// args and every attribute. Nodes with equal keys are merged.
std::string cse_key(const Node &n);

}  // namespace ng
