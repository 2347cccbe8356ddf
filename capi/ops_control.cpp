// Entry points for state and control (ops.h, "State and control").
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/ops.h"

using namespace ng;
using namespace ng::capi;

extern "C" {

NG_API ng_op_t *ng_assign(ng_graph_t *g, ng_op_t *lhs, ng_op_t *rhs) {
    return call_builder("ng_assign", g, {lhs, rhs}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::assign(op_in(graph, lhs, "lhs"), op_in(graph, rhs, "rhs"));
    });
}

NG_API ng_op_t *ng_assign_slice(ng_graph_t *g, ng_op_t *lhs, const ng_slice_t *specs, int32_t n,
                                ng_op_t *rhs) {
    return call_builder("ng_assign_slice", g, {lhs, rhs}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *target = op_in(graph, lhs, "lhs");
        Op *value = op_in(graph, rhs, "rhs");
        require_array(specs, n, "specs", "n");
        std::vector<SliceSpec> slices;
        for (int32_t i = 0; i < n; ++i)
            slices.push_back(
                {specs[i].start, specs[i].stop, specs[i].step, specs[i].index_only != 0});
        return build::assign_slice(target, slices, value);
    });
}

NG_API ng_op_t *ng_fill(ng_graph_t *g, ng_op_t *persistent, double value) {
    return call_builder("ng_fill", g, {persistent}, [&] {
        return build::fill(op_in(graph_of(g, "g"), persistent, "persistent"), value);
    });
}

NG_API ng_op_t *ng_value_of(ng_graph_t *g, ng_op_t *persistent) {
    return call_builder("ng_value_of", g, {persistent}, [&] {
        return build::value_of(op_in(graph_of(g, "g"), persistent, "persistent"));
    });
}

NG_API ng_op_t *ng_uniform(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                           double low, double high) {
    return call_builder("ng_uniform", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::random(graph, OpKind::Uniform, dt, axes_in(graph, axes, n, "axes"), low,
                             high);
    });
}

NG_API ng_op_t *ng_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                          double mean, double stddev) {
    return call_builder("ng_normal", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::random(graph, OpKind::Normal, dt, axes_in(graph, axes, n, "axes"), mean,
                             stddev);
    });
}

NG_API ng_op_t *ng_sequential(ng_graph_t *g, ng_op_t *const *ops, int32_t n) {
    return call_builder("ng_sequential", g, ops, n > 0 && ops ? static_cast<size_t>(n) : 0,
                        [&] { return build::sequential(ops_in(graph_of(g, "g"), ops, n, "ops")); });
}

}  // extern "C"
