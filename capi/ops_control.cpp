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

NG_API ng_op_t *ng_sequential(ng_graph_t *g, ng_op_t *const *ops, int32_t n) {
    return call_builder("ng_sequential", g, ops, n > 0 && ops ? static_cast<size_t>(n) : 0,
                        [&] { return build::sequential(ops_in(graph_of(g, "g"), ops, n, "ops")); });
}

}  // extern "C"
