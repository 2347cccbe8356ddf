// Graphs, ops and axes at the boundary: the checks every op builder entry point makes on them
// (handle type through capi/handles.hpp, membership of one graph) and the wrapper it goes through.
#pragma once

#include <initializer_list>
#include <vector>

#include "capi/boundary.hpp"
#include "capi/handles.hpp"
#include "graph/graph.hpp"
#include "nanograph/base.h"

namespace ng::capi {

inline Graph &graph_of(ng_graph_t *g, const char *arg) {
    return *checked(g, arg);
}
inline const Graph &graph_of(const ng_graph_t *g, const char *arg) {
    return *checked(g, arg);
}
// Ops are handed out non-const; a const handle only promises that the call does not modify it.
inline Op *op_of(const ng_op_t *op, const char *arg) {
    return const_cast<Op *>(checked(op, arg));
}
inline const Axis *axis_of(const ng_axis_t *axis, const char *arg) {
    return checked(axis, arg);
}

// The same, also requiring that the op / axes belong to `g`.
Op *op_in(const Graph &g, const ng_op_t *op, const char *arg);
const Axis *axis_in(const Graph &g, const ng_axis_t *axis, const char *arg);
Axes axes_in(const Graph &g, const ng_axis_t *const *axes, int32_t n, const char *arg);
std::vector<Op *> ops_in(const Graph &g, ng_op_t *const *ops, int32_t n, const char *arg);
// Handles of no given graph (the graph is the first op's): handle checks only.
Axes axes_of(const ng_axis_t *const *axes, int32_t n, const char *arg);

// Element i of an op's or axis's list, checked against its size; `what` names the list.
template <class List>
const typename List::value_type &at_index(const List &list, int32_t i, const char *what) {
    if (i < 0 || static_cast<size_t>(i) >= list.size())
        throw invalid_argument("index ", i, " is outside the ", list.size(), " ", what);
    return list[static_cast<size_t>(i)];
}

// Copies ops (at most cap) into out and returns how many there are; the `ng_variables` style.
int32_t fill_ops(const std::vector<Op *> &ops, ng_op_t **out, int32_t cap);

// The graph a failed builder call reports to: `g` when it is a live graph, otherwise the graph
// of the first live op among `ops`; null when there is none.
Graph *graph_for_error(const ng_graph_t *g, const ng_op_t *const *ops, size_t n) noexcept;

// Records the calling thread's last error as the first construction error of `g` (if any).
void record_last_error(Graph *g) noexcept;

// Runs an op builder's body (returning ng::Op*) through the boundary. On failure the result is
// NULL, the thread's error is set and the graph (found as graph_for_error says) keeps it as its
// first error, so a whole graph can be built and checked once.
template <class Body>
ng_op_t *call_builder(const char *function, ng_graph_t *g, const ng_op_t *const *ops, size_t n,
                      Body &&body) noexcept {
    Op *result = call_returning(function, static_cast<Op *>(nullptr), body);
    if (result == nullptr) record_last_error(graph_for_error(g, ops, n));
    return handle(result);
}

template <class Body>
ng_op_t *call_builder(const char *function, ng_graph_t *g,
                      std::initializer_list<const ng_op_t *> ops, Body &&body) noexcept {
    return call_builder(function, g, ops.begin(), ops.size(), body);
}

}  // namespace ng::capi
