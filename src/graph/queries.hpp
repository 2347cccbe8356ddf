// Questions asked of a built graph: what is upstream of an op, which ops carry some metadata.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace ng {

// Visits `root` and every op upstream of it through args and control dependencies (not initial
// values: those belong to the initializers), each once, in first-visit depth-first order.
// Iterative, so a very deep chain cannot overflow the stack.
template <class Visit>
void walk_upstream(const std::vector<Op *> &roots, bool include_initial_values, Visit &&visit);

// Assignable tensors upstream of `op` whose flags include all of `required_flags`, in the order
// they are first reached (depth-first, arguments in order): the trainable variables of
// tanh(dot(w, x) + b) are [w, b].
std::vector<Op *> upstream_assignables(Op *op, uint32_t required_flags);

// Ops of g whose metadata has `key` (with `value`, when value is non-null), in creation order.
std::vector<Op *> select_by_metadata(const Graph &g, const std::string &key,
                                     const std::string *value);

// True when `target` is `from` or upstream of it through args and control dependencies.
bool reaches(Op *from, const Op *target);

}  // namespace ng

#include "graph/queries_walk.hpp"
