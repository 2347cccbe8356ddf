// Entry points for op attributes and queries (graph.h, "Op attributes").
#include "capi/graph_handle.hpp"
#include "graph/queries.hpp"
#include "nanograph/graph.h"

using namespace ng;
using namespace ng::capi;

extern "C" {

NG_API uint32_t ng_op_flags(const ng_op_t *op) {
    return call_returning("ng_op_flags", uint32_t{0}, [&] { return op_of(op, "op")->flags(); });
}

NG_API const char *ng_op_name(const ng_op_t *op) {
    return call_returning("ng_op_name", static_cast<const char *>(nullptr),
                          [&] { return op_of(op, "op")->name.c_str(); });
}

NG_API ng_status_t ng_op_set_name(ng_op_t *op, const char *name) {
    return call("ng_op_set_name", [&] {
        Op *o = op_of(op, "op");
        o->graph->rename(o, require(name, "name"));
    });
}

NG_API const char *ng_op_type(const ng_op_t *op) {
    return call_returning("ng_op_type", static_cast<const char *>(nullptr),
                          [&] { return op_type_name(*op_of(op, "op")); });
}

NG_API ng_dtype_t ng_op_dtype(const ng_op_t *op) {
    return call_returning("ng_op_dtype", ng_dtype_t{0}, [&] { return op_of(op, "op")->dtype; });
}

NG_API int32_t ng_op_rank(const ng_op_t *op) {
    return call_returning("ng_op_rank", int32_t{-1}, [&] { return op_of(op, "op")->rank(); });
}

NG_API const ng_axis_t *ng_op_axis(const ng_op_t *op, int32_t i) {
    return call_returning("ng_op_axis", static_cast<const ng_axis_t *>(nullptr), [&] {
        return handle(at_index(op_of(op, "op")->axes, i, "axes of the op"));
    });
}

NG_API int32_t ng_op_num_args(const ng_op_t *op) {
    return call_returning("ng_op_num_args", int32_t{-1},
                          [&] { return static_cast<int32_t>(op_of(op, "op")->args.size()); });
}

NG_API ng_op_t *ng_op_arg(const ng_op_t *op, int32_t i) {
    return call_returning("ng_op_arg", static_cast<ng_op_t *>(nullptr), [&] {
        return handle(at_index(op_of(op, "op")->args, i, "args of the op"));
    });
}

NG_API int32_t ng_op_num_control_deps(const ng_op_t *op) {
    return call_returning("ng_op_num_control_deps", int32_t{-1}, [&] {
        return static_cast<int32_t>(op_of(op, "op")->control_deps.size());
    });
}

NG_API ng_op_t *ng_op_control_dep(const ng_op_t *op, int32_t i) {
    return call_returning("ng_op_control_dep", static_cast<ng_op_t *>(nullptr), [&] {
        return handle(at_index(op_of(op, "op")->control_deps, i, "control dependencies of the op"));
    });
}

NG_API ng_status_t ng_op_add_control_dep(ng_op_t *op, ng_op_t *dep) {
    return call("ng_op_add_control_dep", [&] {
        Op *o = op_of(op, "op");
        Op *d = op_in(*o->graph, dep, "dep");
        if (reaches(d, o))
            throw invalid_argument("dep ", d->name, " is ", o->name, " or depends on it: a cycle");
        for (const Op *existing : o->control_deps)
            if (existing == d) return;
        o->control_deps.push_back(d);
    });
}

NG_API ng_op_t *ng_op_initial_value(const ng_op_t *op) {
    return call_returning("ng_op_initial_value", static_cast<ng_op_t *>(nullptr),
                          [&] { return handle(op_of(op, "op")->initial_value); });
}

NG_API ng_graph_t *ng_op_graph(const ng_op_t *op) {
    return call_returning("ng_op_graph", static_cast<ng_graph_t *>(nullptr),
                          [&] { return handle(op_of(op, "op")->graph); });
}

NG_API ng_status_t ng_op_set_metadata(ng_op_t *op, const char *key, const char *value) {
    return call("ng_op_set_metadata", [&] {
        Op *o = op_of(op, "op");
        if (*require(key, "key") == '\0') throw invalid_argument("key is empty");
        o->metadata[key] = require(value, "value");
    });
}

NG_API const char *ng_op_metadata(const ng_op_t *op, const char *key) {
    return call_returning("ng_op_metadata", static_cast<const char *>(nullptr),
                          [&]() -> const char * {
                              const Op *o = op_of(op, "op");
                              auto it = o->metadata.find(require(key, "key"));
                              return it == o->metadata.end() ? nullptr : it->second.c_str();
                          });
}

NG_API int32_t ng_placeholders(const ng_op_t *op, ng_op_t **out, int32_t cap) {
    return call_returning("ng_placeholders", int32_t{-1}, [&] {
        return fill_ops(upstream_assignables(op_of(op, "op"), kFlagInput), out, cap);
    });
}

}  // extern "C"
