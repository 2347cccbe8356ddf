// C entry points of autodiff.h.
#include "autodiff/deriv.hpp"
#include "capi/graph_handle.hpp"
#include "graph/queries.hpp"
#include "nanograph/autodiff.h"

using namespace ng;
using namespace ng::capi;

extern "C" {

NG_API ng_op_t *ng_deriv(ng_graph_t *g, ng_op_t *cost, ng_op_t *wrt) {
    return call_builder("ng_deriv", g, {cost, wrt}, [&] {
        Graph &graph = graph_of(g, "g");
        return deriv(op_in(graph, cost, "cost"), op_in(graph, wrt, "wrt"));
    });
}

NG_API ng_op_t *ng_vjp(ng_graph_t *g, ng_op_t *y, ng_op_t *error, ng_op_t *wrt) {
    return call_builder("ng_vjp", g, {y, error, wrt}, [&] {
        Graph &graph = graph_of(g, "g");
        return vjp(op_in(graph, y, "y"), op_in(graph, error, "error"), {op_in(graph, wrt, "wrt")})
            .front();
    });
}

NG_API int32_t ng_variables(const ng_op_t *op, ng_op_t **out, int32_t cap) {
    return call_returning("ng_variables", int32_t{-1}, [&] {
        Op *root = op_of(op, "op");
        require_array(out, cap, "out", "cap");
        return fill_ops(upstream_assignables(root, kFlagTrainable), out, cap);
    });
}

}  // extern "C"
