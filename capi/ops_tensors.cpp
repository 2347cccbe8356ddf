// Entry points for the four tensor kinds and the generic assignable tensor (ops.h, "Tensors").
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/ops.h"

using namespace ng;
using namespace ng::capi;

namespace {

using TensorBuilder = Op *(*)(Graph &, DType, const Axes &, Op *);

ng_op_t *tensor_entry(const char *function, TensorBuilder build, ng_graph_t *g, ng_dtype_t dt,
                      const ng_axis_t *const *axes, int32_t rank, ng_op_t *initial_value) {
    return call_builder(function, g, {initial_value}, [&] {
        Graph &graph = graph_of(g, "g");
        Axes own = axes_in(graph, axes, rank, "axes");
        return build(graph, dt, own,
                     initial_value ? op_in(graph, initial_value, "initial_value") : nullptr);
    });
}

}  // namespace

extern "C" {

NG_API ng_op_t *ng_constant(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, const void *data) {
    return call_builder("ng_constant", g, {}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::constant(graph, dt, axes_in(graph, axes, rank, "axes"), data);
    });
}

NG_API ng_op_t *ng_scalar(ng_graph_t *g, double value) {
    return call_builder("ng_scalar", g, {},
                        [&] { return build::scalar(graph_of(g, "g"), NG_FLOAT32, value); });
}

NG_API ng_op_t *ng_scalar_of(ng_graph_t *g, ng_dtype_t dt, double value) {
    return call_builder("ng_scalar_of", g, {},
                        [&] { return build::scalar(graph_of(g, "g"), dt, value); });
}

NG_API ng_op_t *ng_placeholder(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                               int32_t rank, ng_op_t *initial_value) {
    return tensor_entry("ng_placeholder", build::placeholder, g, dt, axes, rank, initial_value);
}

NG_API ng_op_t *ng_persistent_tensor(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                     int32_t rank, ng_op_t *initial_value) {
    return tensor_entry("ng_persistent_tensor", build::persistent_tensor, g, dt, axes, rank,
                        initial_value);
}

NG_API ng_op_t *ng_variable(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, ng_op_t *initial_value) {
    return tensor_entry("ng_variable", build::variable, g, dt, axes, rank, initial_value);
}

NG_API ng_op_t *ng_assignable_tensor(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                     int32_t rank, uint32_t flags, ng_op_t *initial_value) {
    return call_builder("ng_assignable_tensor", g, {initial_value}, [&] {
        Graph &graph = graph_of(g, "g");
        Axes own = axes_in(graph, axes, rank, "axes");
        return build::assignable(
            graph, dt, own, flags, nullptr,
            initial_value ? op_in(graph, initial_value, "initial_value") : nullptr);
    });
}

}  // extern "C"
