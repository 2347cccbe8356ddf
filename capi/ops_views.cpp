// Entry points for axes and views (ops.h, "Axes and views").
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/ops.h"

using namespace ng;
using namespace ng::capi;

namespace {

using AxesView = Op *(*)(Op *, const Axes &);

ng_op_t *axes_view(const char *function, AxesView build, ng_graph_t *g, ng_op_t *x,
                   const ng_axis_t *const *axes, int32_t n) {
    return call_builder(function, g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build(operand, axes_in(graph, axes, n, "axes"));
    });
}

}  // namespace

extern "C" {

NG_API ng_op_t *ng_broadcast(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return axes_view("ng_broadcast", build::broadcast, g, x, axes, n);
}
NG_API ng_op_t *ng_axes_with_order(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                                   int32_t n) {
    return axes_view("ng_axes_with_order", build::axes_with_order, g, x, axes, n);
}
NG_API ng_op_t *ng_cast_axes(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return axes_view("ng_cast_axes", build::cast_axes, g, x, axes, n);
}

NG_API ng_op_t *ng_expand_dims(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, int32_t position) {
    return call_builder("ng_expand_dims", g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build::expand_dims(operand, axis_in(graph, axis, "axis"), position);
    });
}

NG_API ng_op_t *ng_slice(ng_graph_t *g, ng_op_t *x, const ng_slice_t *specs, int32_t n) {
    return call_builder("ng_slice", g, {x}, [&] {
        Op *operand = op_in(graph_of(g, "g"), x, "x");
        require_array(specs, n, "specs", "n");
        std::vector<SliceSpec> slices;
        for (int32_t i = 0; i < n; ++i)
            slices.push_back(
                {specs[i].start, specs[i].stop, specs[i].step, specs[i].index_only != 0});
        return build::slice(operand, slices);
    });
}

NG_API ng_op_t *ng_pad(ng_graph_t *g, ng_op_t *x, const int64_t *before, const int64_t *after,
                       int32_t n) {
    return call_builder("ng_pad", g, {x}, [&] {
        Op *operand = op_in(graph_of(g, "g"), x, "x");
        require_array(before, n, "before", "n");
        require_array(after, n, "after", "n");
        std::vector<std::pair<int64_t, int64_t>> padding;
        for (int32_t i = 0; i < n; ++i) padding.emplace_back(before[i], after[i]);
        return build::pad(operand, padding);
    });
}

NG_API ng_op_t *ng_flatten(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n,
                           const char *name) {
    return call_builder("ng_flatten", g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build::flatten(operand, axes_in(graph, axes, n, "axes"), name ? name : "");
    });
}

NG_API ng_op_t *ng_unflatten(ng_graph_t *g, ng_op_t *x) {
    return call_builder("ng_unflatten", g, {x},
                        [&] { return build::unflatten(op_in(graph_of(g, "g"), x, "x")); });
}

NG_API ng_op_t *ng_reshape(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return axes_view("ng_reshape", build::reshape, g, x, axes, n);
}

NG_API ng_op_t *ng_concat(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const char *axis_name) {
    return call_builder("ng_concat", g, ops, n > 0 && ops ? static_cast<size_t>(n) : 0, [&] {
        Graph &graph = graph_of(g, "g");
        std::vector<Op *> operands = ops_in(graph, ops, n, "ops");
        return build::concat(operands, require(axis_name, "axis_name"));
    });
}

NG_API ng_op_t *ng_stack(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const ng_axis_t *axis,
                         int32_t position) {
    return call_builder("ng_stack", g, ops, n > 0 && ops ? static_cast<size_t>(n) : 0, [&] {
        Graph &graph = graph_of(g, "g");
        std::vector<Op *> operands = ops_in(graph, ops, n, "ops");
        return build::stack(operands, axis_in(graph, axis, "axis"), position);
    });
}

NG_API ng_op_t *ng_one_hot(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, ng_dtype_t dt) {
    return call_builder("ng_one_hot", g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build::one_hot(operand, axis_in(graph, axis, "axis"), dt);
    });
}

NG_API ng_op_t *ng_gather(ng_graph_t *g, ng_op_t *params, ng_op_t *indices, const ng_axis_t *axis) {
    return call_builder("ng_gather", g, {params, indices}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *values = op_in(graph, params, "params");
        Op *picks = op_in(graph, indices, "indices");
        return build::gather(values, picks, axis_in(graph, axis, "axis"));
    });
}

}  // extern "C"
