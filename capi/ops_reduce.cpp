// Entry points for reductions, dot, softmax and the composite losses and norms (ops.h,
// "Reductions").
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/ops.h"

using namespace ng;
using namespace ng::capi;

namespace {

using AxesBuilder = Op *(*)(Op *, const Axes &);
using PairBuilder = Op *(*)(Op *, Op *, const Axes &);

ng_op_t *over_axes(const char *function, AxesBuilder build, ng_graph_t *g, ng_op_t *x,
                   const ng_axis_t *const *axes, int32_t n) {
    return call_builder(function, g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build(operand, axes_in(graph, axes, n, "axes"));
    });
}

ng_op_t *reduction(const char *function, OpKind kind, ng_graph_t *g, ng_op_t *x,
                   const ng_axis_t *const *axes, int32_t n) {
    return call_builder(function, g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build::reduce(kind, operand, axes_in(graph, axes, n, "axes"));
    });
}

ng_op_t *arg_reduction(const char *function, OpKind kind, ng_graph_t *g, ng_op_t *x,
                       const ng_axis_t *axis) {
    return call_builder(function, g, {x}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, "x");
        return build::arg_reduce(kind, operand, axis_in(graph, axis, "axis"));
    });
}

ng_op_t *pair_over_axes(const char *function, PairBuilder build, ng_graph_t *g, ng_op_t *y,
                        ng_op_t *t, const ng_axis_t *const *axes, int32_t n) {
    return call_builder(function, g, {y, t}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *predicted = op_in(graph, y, "y");
        Op *target = op_in(graph, t, "t");
        return build(predicted, target, axes_in(graph, axes, n, "axes"));
    });
}

}  // namespace

extern "C" {

NG_API ng_op_t *ng_sum(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return reduction("ng_sum", OpKind::Sum, g, x, axes, n);
}
NG_API ng_op_t *ng_max(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return reduction("ng_max", OpKind::Max, g, x, axes, n);
}
NG_API ng_op_t *ng_min(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return reduction("ng_min", OpKind::Min, g, x, axes, n);
}
NG_API ng_op_t *ng_mean(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return reduction("ng_mean", OpKind::Mean, g, x, axes, n);
}
NG_API ng_op_t *ng_prod(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return reduction("ng_prod", OpKind::Prod, g, x, axes, n);
}
NG_API ng_op_t *ng_variance(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_variance", build::variance, g, x, axes, n);
}

NG_API ng_op_t *ng_argmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis) {
    return arg_reduction("ng_argmax", OpKind::Argmax, g, x, axis);
}
NG_API ng_op_t *ng_argmin(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis) {
    return arg_reduction("ng_argmin", OpKind::Argmin, g, x, axis);
}

NG_API ng_op_t *ng_dot(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return call_builder("ng_dot", g, {a, b}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::dot(op_in(graph, a, "a"), op_in(graph, b, "b"));
    });
}

NG_API ng_op_t *ng_squared_l2(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_squared_l2", build::squared_l2, g, x, axes, n);
}
NG_API ng_op_t *ng_l2_norm(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_l2_norm", build::l2_norm, g, x, axes, n);
}
NG_API ng_op_t *ng_l1_norm(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_l1_norm", build::l1_norm, g, x, axes, n);
}
NG_API ng_op_t *ng_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_softmax", build::softmax, g, x, axes, n);
}
NG_API ng_op_t *ng_log_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n) {
    return over_axes("ng_log_softmax", build::log_softmax, g, x, axes, n);
}

NG_API ng_op_t *ng_cross_entropy_multi(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                       const ng_axis_t *const *axes, int32_t n) {
    return pair_over_axes("ng_cross_entropy_multi", build::cross_entropy_multi, g, y, t, axes, n);
}
NG_API ng_op_t *ng_cross_entropy_binary(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                        const ng_axis_t *const *axes, int32_t n) {
    return pair_over_axes("ng_cross_entropy_binary", build::cross_entropy_binary, g, y, t, axes, n);
}

}  // extern "C"
