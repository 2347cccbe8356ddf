#include "capi/graph_handle.hpp"

#include <algorithm>

#include "nanograph/base.h"

namespace ng::capi {
namespace {

// `o` (argument `arg`, or element `index` of it) belongs to `g`; the name is built on failure.
template <class Object>
Object *in_graph(const Graph &g, Object *o, const char *arg, int64_t index) {
    if (o->graph == &g) return o;
    if (index < 0) throw invalid_argument(arg, " (", o->name, ") belongs to another graph");
    throw invalid_argument(arg, "[", index, "] (", o->name, ") belongs to another graph");
}

}  // namespace

Op *op_in(const Graph &g, const ng_op_t *op, const char *arg) {
    return in_graph(g, op_of(op, arg), arg, -1);
}

const Axis *axis_in(const Graph &g, const ng_axis_t *axis, const char *arg) {
    return in_graph(g, axis_of(axis, arg), arg, -1);
}

Axes axes_of(const ng_axis_t *const *axes, int32_t n, const char *arg) {
    require_array(axes, n, arg, "the count");
    Axes out;
    out.reserve(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) out.push_back(checked_at(axes, static_cast<size_t>(i), arg));
    return out;
}

Axes axes_in(const Graph &g, const ng_axis_t *const *axes, int32_t n, const char *arg) {
    Axes out = axes_of(axes, n, arg);
    for (int32_t i = 0; i < n; ++i) in_graph(g, out[static_cast<size_t>(i)], arg, i);
    return out;
}

std::vector<Op *> ops_in(const Graph &g, ng_op_t *const *ops, int32_t n, const char *arg) {
    require_array(ops, n, arg, "the count");
    std::vector<Op *> out;
    out.reserve(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i)
        out.push_back(in_graph(g, checked_at(ops, static_cast<size_t>(i), arg), arg, i));
    return out;
}

int32_t fill_ops(const std::vector<Op *> &ops, ng_op_t **out, int32_t cap) {
    require_array(out, cap, "out", "cap");
    if (ops.size() > static_cast<size_t>(INT32_MAX))
        throw invalid_argument("more than INT32_MAX ops match");
    const size_t copied = std::min(ops.size(), static_cast<size_t>(cap));
    for (size_t i = 0; i < copied; ++i) out[i] = handle(ops[i]);
    return static_cast<int32_t>(ops.size());
}

Graph *graph_for_error(const ng_graph_t *g, const ng_op_t *const *ops, size_t n) noexcept {
    if (const Graph *graph = live_or_null(g)) return const_cast<Graph *>(graph);
    for (size_t i = 0; ops != nullptr && i < n; ++i)
        if (const Op *op = live_or_null(ops[i])) return op->graph;
    return nullptr;
}

void record_last_error(Graph *g) noexcept {
    if (g == nullptr) return;
    try {
        g->record_error(ng_last_status(), ng_last_error());
    } catch (...) {
        // Out of memory while copying the message: the thread's error still says what happened.
    }
}

}  // namespace ng::capi
