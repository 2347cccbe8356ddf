// Graphviz DOT text of a graph (or of what some roots need): one node per op labelled with its
// name, type, dtype and axes; data edges solid, control edges dashed, initial values dotted.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace ng {

// roots empty: the whole graph. Otherwise the roots and everything upstream of them, initial
// values included. Nodes are listed in creation order, so the text is deterministic.
std::string graph_to_dot(const Graph &g, const std::vector<Op *> &roots);

}  // namespace ng
