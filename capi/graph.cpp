// Entry points for graphs and axes (graph.h, "Graphs" and "Axes").
#include <cstdio>
#include <memory>

#include "capi/graph_handle.hpp"
#include "graph/dot_export.hpp"
#include "graph/queries.hpp"
#include "nanograph/graph.h"

using namespace ng;
using namespace ng::capi;

namespace {

std::string dot_text(const ng_graph_t *g, ng_op_t *const *roots, int32_t n) {
    const Graph &graph = graph_of(g, "g");
    return graph_to_dot(graph, ops_in(graph, roots, n, "roots"));
}

}  // namespace

extern "C" {

NG_API ng_graph_t *ng_graph_create(void) {
    return call_returning("ng_graph_create", static_cast<ng_graph_t *>(nullptr),
                          [] { return adopt_graph(std::make_unique<Graph>()); });
}

NG_API void ng_graph_destroy(ng_graph_t *g) {
    call_silently([&] {
        delete live_or_null(g);  // ~Graph clears the tags of the graph, its ops and its axes
    });
}

NG_API ng_status_t ng_graph_status(const ng_graph_t *g) {
    ng_status_t status = NG_OK;
    ng_status_t call_status = call("ng_graph_status", [&] { status = graph_of(g, "g").status(); });
    return call_status == NG_OK ? status : call_status;
}

NG_API const char *ng_graph_error(const ng_graph_t *g) {
    return call_returning("ng_graph_error", static_cast<const char *>(nullptr),
                          [&] { return graph_of(g, "g").first_error().c_str(); });
}

NG_API int32_t ng_graph_num_ops(const ng_graph_t *g) {
    return call_returning("ng_graph_num_ops", int32_t{-1},
                          [&] { return static_cast<int32_t>(graph_of(g, "g").ops().size()); });
}

NG_API ng_op_t *ng_graph_op(const ng_graph_t *g, int32_t i) {
    return call_returning("ng_graph_op", static_cast<ng_op_t *>(nullptr), [&] {
        return handle(at_index(graph_of(g, "g").ops(), i, "ops of the graph").get());
    });
}

NG_API ng_op_t *ng_graph_find(const ng_graph_t *g, const char *name) {
    return call_returning("ng_graph_find", static_cast<ng_op_t *>(nullptr), [&] {
        Op *op = graph_of(g, "g").find(require(name, "name"));
        if (!op) throw not_found("no op is named \"", name, "\"");
        return handle(op);
    });
}

NG_API int32_t ng_graph_select(const ng_graph_t *g, const char *key, const char *value,
                               ng_op_t **out, int32_t cap) {
    return call_returning("ng_graph_select", int32_t{-1}, [&] {
        const Graph &graph = graph_of(g, "g");
        std::string wanted = value ? value : "";
        return fill_ops(select_by_metadata(graph, require(key, "key"), value ? &wanted : nullptr),
                        out, cap);
    });
}

NG_API ng_status_t ng_graph_dot(const ng_graph_t *g, ng_op_t *const *roots, int32_t n, char *buf,
                                size_t cap, size_t *needed) {
    if (needed) *needed = 0;
    return call("ng_graph_dot", [&] {
        if (cap > 0) require(buf, "buf");
        std::string text = dot_text(g, roots, n);
        if (cap > 0) {
            const size_t copied = std::min(text.size(), cap - 1);
            text.copy(buf, copied);
            buf[copied] = '\0';
        }
        if (needed) *needed = text.size() + 1;
    });
}

NG_API ng_status_t ng_graph_write_dot(const ng_graph_t *g, ng_op_t *const *roots, int32_t n,
                                      const char *path) {
    return call("ng_graph_write_dot", [&] {
        std::string text = dot_text(g, roots, n);
        std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(require(path, "path"), "w"),
                                                    std::fclose);
        if (!file) throw Error(NG_ERR_IO, concat("cannot open \"", path, "\" for writing"));
        const bool written = std::fwrite(text.data(), 1, text.size(), file.get()) == text.size();
        if (!written || std::fclose(file.release()) != 0)
            throw Error(NG_ERR_IO, concat("cannot write \"", path, "\""));
    });
}

NG_API const ng_axis_t *ng_axis(ng_graph_t *g, const char *name, int64_t length) {
    const ng_axis_t *axis = call_returning("ng_axis", static_cast<const ng_axis_t *>(nullptr), [&] {
        return handle(graph_of(g, "g").axis(require(name, "name"), length));
    });
    if (!axis) record_last_error(graph_for_error(g, nullptr, 0));
    return axis;
}

NG_API const char *ng_axis_name(const ng_axis_t *a) {
    return call_returning("ng_axis_name", static_cast<const char *>(nullptr),
                          [&] { return axis_of(a, "a")->name.c_str(); });
}

NG_API int64_t ng_axis_length(const ng_axis_t *a) {
    return call_returning("ng_axis_length", int64_t{-1}, [&] { return axis_of(a, "a")->length; });
}

NG_API int32_t ng_axis_num_components(const ng_axis_t *a) {
    return call_returning("ng_axis_num_components", int32_t{-1},
                          [&] { return static_cast<int32_t>(axis_of(a, "a")->components.size()); });
}

NG_API const ng_axis_t *ng_axis_component(const ng_axis_t *a, int32_t i) {
    return call_returning("ng_axis_component", static_cast<const ng_axis_t *>(nullptr), [&] {
        return handle(at_index(axis_of(a, "a")->components, i, "components of the axis"));
    });
}

}  // extern "C"
