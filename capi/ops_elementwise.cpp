// Entry points for elementwise ops (ops.h, "Elementwise").
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/ops.h"

using namespace ng;
using namespace ng::capi;

namespace {

ng_op_t *unary_entry(const char *function, OpKind kind, ng_graph_t *g, ng_op_t *x) {
    return call_builder(function, g, {x},
                        [&] { return build::unary(kind, op_in(graph_of(g, "g"), x, "x")); });
}

ng_op_t *binary_entry(const char *function, OpKind kind, ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return call_builder(function, g, {a, b}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::binary(kind, op_in(graph, a, "a"), op_in(graph, b, "b"));
    });
}

}  // namespace

extern "C" {

NG_API ng_op_t *ng_negative(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_negative", OpKind::Negative, g, x);
}
NG_API ng_op_t *ng_absolute(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_absolute", OpKind::Absolute, g, x);
}
NG_API ng_op_t *ng_sign(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_sign", OpKind::Sign, g, x);
}
NG_API ng_op_t *ng_exp(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_exp", OpKind::Exp, g, x);
}
NG_API ng_op_t *ng_log(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_log", OpKind::Log, g, x);
}
NG_API ng_op_t *ng_sqrt(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_sqrt", OpKind::Sqrt, g, x);
}
NG_API ng_op_t *ng_square(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_square", OpKind::Square, g, x);
}
NG_API ng_op_t *ng_reciprocal(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_reciprocal", OpKind::Reciprocal, g, x);
}
NG_API ng_op_t *ng_sigmoid(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_sigmoid", OpKind::Sigmoid, g, x);
}
NG_API ng_op_t *ng_relu(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_relu", OpKind::Relu, g, x);
}
NG_API ng_op_t *ng_sin(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_sin", OpKind::Sin, g, x);
}
NG_API ng_op_t *ng_cos(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_cos", OpKind::Cos, g, x);
}
NG_API ng_op_t *ng_tanh(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_tanh", OpKind::Tanh, g, x);
}
NG_API ng_op_t *ng_stop_gradient(ng_graph_t *g, ng_op_t *x) {
    return unary_entry("ng_stop_gradient", OpKind::StopGradient, g, x);
}

NG_API ng_op_t *ng_cast(ng_graph_t *g, ng_op_t *x, ng_dtype_t dt) {
    return call_builder("ng_cast", g, {x},
                        [&] { return build::cast(op_in(graph_of(g, "g"), x, "x"), dt); });
}

NG_API ng_op_t *ng_add(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_add", OpKind::Add, g, a, b);
}
NG_API ng_op_t *ng_subtract(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_subtract", OpKind::Subtract, g, a, b);
}
NG_API ng_op_t *ng_multiply(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_multiply", OpKind::Multiply, g, a, b);
}
NG_API ng_op_t *ng_divide(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_divide", OpKind::Divide, g, a, b);
}
NG_API ng_op_t *ng_power(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_power", OpKind::Power, g, a, b);
}
NG_API ng_op_t *ng_maximum(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_maximum", OpKind::Maximum, g, a, b);
}
NG_API ng_op_t *ng_minimum(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_minimum", OpKind::Minimum, g, a, b);
}
NG_API ng_op_t *ng_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_equal", OpKind::Equal, g, a, b);
}
NG_API ng_op_t *ng_not_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_not_equal", OpKind::NotEqual, g, a, b);
}
NG_API ng_op_t *ng_less(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_less", OpKind::Less, g, a, b);
}
NG_API ng_op_t *ng_less_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_less_equal", OpKind::LessEqual, g, a, b);
}
NG_API ng_op_t *ng_greater(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_greater", OpKind::Greater, g, a, b);
}
NG_API ng_op_t *ng_greater_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b) {
    return binary_entry("ng_greater_equal", OpKind::GreaterEqual, g, a, b);
}

NG_API ng_op_t *ng_select(ng_graph_t *g, ng_op_t *condition, ng_op_t *a, ng_op_t *b) {
    return call_builder("ng_select", g, {condition, a, b}, [&] {
        Graph &graph = graph_of(g, "g");
        return build::select(op_in(graph, condition, "condition"), op_in(graph, a, "a"),
                             op_in(graph, b, "b"));
    });
}

}  // extern "C"
