#include "capi/graph_handle.hpp"

#include <algorithm>

#include "nanograph/base.h"

namespace ng::capi {
namespace {

template <class Object, class Handle>
Object *checked(Handle *h, uint32_t magic, const char *arg, const char *type) {
    if (h == nullptr) throw invalid_argument(arg, " is NULL");
    if (!has_magic(h, magic))
        throw invalid_argument(arg, " is not ", type,
                               " handle (wrong type, or its graph was destroyed)");
    return reinterpret_cast<Object *>(h);
}

std::string element(const char *arg, int32_t i) {
    return concat(arg, "[", i, "]");
}

}  // namespace

Graph &graph_of(ng_graph_t *g, const char *arg) {
    return *checked<Graph>(g, kGraphMagic, arg, "a graph");
}

const Graph &graph_of(const ng_graph_t *g, const char *arg) {
    return *checked<const Graph>(g, kGraphMagic, arg, "a graph");
}

Op *op_of(const ng_op_t *op, const char *arg) {
    // Ops are handed out non-const; a const handle only promises that the call does not modify it.
    return const_cast<Op *>(checked<const Op>(op, kOpMagic, arg, "an op"));
}

const Axis *axis_of(const ng_axis_t *axis, const char *arg) {
    return checked<const Axis>(axis, kAxisMagic, arg, "an axis");
}

Op *op_in(const Graph &g, const ng_op_t *op, const char *arg) {
    Op *o = op_of(op, arg);
    if (o->graph != &g) throw invalid_argument(arg, " (", o->name, ") belongs to another graph");
    return o;
}

Axes axes_of(const ng_axis_t *const *axes, int32_t n, const char *arg) {
    require_array(axes, n, arg, "the count");
    Axes out;
    out.reserve(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) out.push_back(axis_of(axes[i], element(arg, i).c_str()));
    return out;
}

const Axis *axis_in(const Graph &g, const ng_axis_t *axis, const char *arg) {
    const Axis *a = axis_of(axis, arg);
    if (a->graph != &g) throw invalid_argument(arg, " (", a->name, ") belongs to another graph");
    return a;
}

Axes axes_in(const Graph &g, const ng_axis_t *const *axes, int32_t n, const char *arg) {
    Axes out = axes_of(axes, n, arg);
    for (int32_t i = 0; i < n; ++i) axis_in(g, handle(out[i]), element(arg, i).c_str());
    return out;
}

std::vector<Op *> ops_in(const Graph &g, ng_op_t *const *ops, int32_t n, const char *arg) {
    require_array(ops, n, arg, "the count");
    std::vector<Op *> out;
    out.reserve(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) out.push_back(op_in(g, ops[i], element(arg, i).c_str()));
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
    if (has_magic(g, kGraphMagic)) return const_cast<Graph *>(reinterpret_cast<const Graph *>(g));
    for (size_t i = 0; ops != nullptr && i < n; ++i)
        if (has_magic(ops[i], kOpMagic)) return reinterpret_cast<const Op *>(ops[i])->graph;
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
