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

#include "passes/exec_graph.hpp"

namespace ng {

struct SimplifyStats {
    int32_t folded = 0, merged = 0, simplified = 0;
};

SimplifyStats simplify(ExecGraph &g);

}  // namespace ng
