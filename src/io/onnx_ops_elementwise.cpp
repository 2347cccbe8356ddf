// ONNX's elementwise operators: unary math, activations, NumPy-broadcast binary and variadic
// operators, comparisons, logic, Where, Cast, Clip.
#include <cmath>

#include "graph/builders.hpp"
#include "io/onnx_node.hpp"

namespace ng::onnx_io {
namespace {

using build::binary;
using build::unary;

Op *scalar_for(Node &n, Op *x, double v) {
    return scalar_like(n.c, x->dtype, v);
}

template <OpKind K>
void unary_op(Node &n) {
    n.out(0, unary(K, n.in(0)));
}

template <OpKind K>
void binary_op(Node &n) {
    n.out(0, elementwise(n, K, n.in(0), n.in(1)));
}

template <OpKind K>
void variadic(Node &n) {
    if (n.num_inputs() < 1) throw n.bad("no inputs");
    Op *acc = n.in(0);
    for (int i = 1; i < n.num_inputs(); ++i) acc = elementwise(n, K, acc, n.in(i));
    n.out(0, acc);
}

void mean(Node &n) {
    if (n.num_inputs() < 1) throw n.bad("no inputs");
    Op *acc = n.in(0);
    for (int i = 1; i < n.num_inputs(); ++i) acc = elementwise(n, OpKind::Add, acc, n.in(i));
    n.out(0, binary(OpKind::Divide, acc, scalar_for(n, acc, n.num_inputs())));
}

void identity(Node &n) {
    if (const Known *k = n.known_or_null(0))
        n.out_known(0, *k);
    else
        n.out(0, n.in(0));
}

void dropout(Node &n) {
    if (n.has_input(2) && !n.known_or_null(2))
        throw n.unsupported_here("a training_mode computed at run time");
    const Known *mode = n.known_or_null(2);
    if (mode && mode->numel() == 1 && mode->ints("training_mode")[0] != 0) {
        // Training mode drops at random, except with ratio 0.
        const Known *ratio = n.known_or_null(1);
        const bool zero = ratio && ratio->numel() == 1 && ratio->doubles("ratio")[0] == 0;
        if (!zero) throw n.unsupported_here("training mode (random dropping)");
    }
    Op *x = n.in(0);
    n.out(0, x);
    if (n.num_outputs() > 1) {
        Known ones{NG_BOOL, dims_of(x), {}};
        ones.data.assign(static_cast<size_t>(ones.numel()), 1);
        n.out(1, n.c.constant(ones));
    }
}

DType cast_target(Node &n, int64_t to) {
    DType dt = dtype_of_onnx(static_cast<int32_t>(to));
    if (dt == 0)
        throw dtype_error(n.label, ": element type ", onnx_type_name(static_cast<int32_t>(to)),
                          ", which nanograph lacks");
    return dt;
}

void cast(Node &n) {
    n.out(0, build::cast(n.in(0), cast_target(n, n.attr_int("to", 0))));
}

void cast_like(Node &n) {
    n.out(0, build::cast(n.in(0), n.in(1)->dtype));
}

void pow(Node &n) {
    Op *base = n.in(0), *exponent = n.in(1);
    if (exponent->dtype != base->dtype) exponent = build::cast(exponent, base->dtype);
    n.out(0, elementwise(n, OpKind::Power, base, exponent));
}

void not_equal_to_true(Node &n) {  // Not
    n.out(0, binary(OpKind::Equal, n.in(0), scalar_for(n, n.in(0), 0)));
}

void and_op(Node &n) {
    n.out(0, elementwise(n, OpKind::Minimum, n.in(0), n.in(1)));
}
void or_op(Node &n) {
    n.out(0, elementwise(n, OpKind::Maximum, n.in(0), n.in(1)));
}
void xor_op(Node &n) {
    n.out(0, elementwise(n, OpKind::NotEqual, n.in(0), n.in(1)));
}

void where(Node &n) {
    Dims out;
    std::vector<Op *> ops = broadcast_operands(n, {n.in(0), n.in(1), n.in(2)}, out);
    n.out(0, in_positional_order(n.c, build::select(ops[0], ops[1], ops[2])));
}

// select(x < 0, negative, x) for the piecewise activations.
Op *where_negative(Op *x, Op *negative_part, Op *positive_part, Op *zero) {
    return build::select(binary(OpKind::Less, x, zero), negative_part, positive_part);
}

void leaky_relu(Node &n) {
    Op *x = n.in(0);
    Op *scaled = binary(OpKind::Multiply, x, scalar_for(n, x, n.attr_float("alpha", 0.01f)));
    n.out(0, where_negative(x, scaled, x, scalar_for(n, x, 0)));
}

void prelu(Node &n) {
    Op *x = n.in(0);
    Op *scaled = elementwise(n, OpKind::Multiply, x, n.in(1));
    Dims out;
    std::vector<Op *> ops = broadcast_operands(n, {x, scaled}, out);
    Op *zero = scalar_for(n, x, 0);
    n.out(0, in_positional_order(n.c, where_negative(ops[0], ops[1], ops[0], zero)));
}

Op *elu_of(Node &n, Op *x, double alpha) {
    Op *one = scalar_for(n, x, 1);
    Op *neg = binary(OpKind::Multiply, binary(OpKind::Subtract, unary(OpKind::Exp, x), one),
                     scalar_for(n, x, alpha));
    return where_negative(x, neg, x, scalar_for(n, x, 0));
}

void elu(Node &n) {
    n.out(0, elu_of(n, n.in(0), n.attr_float("alpha", 1.0f)));
}

void selu(Node &n) {
    Op *x = n.in(0);
    const double alpha = n.attr_float("alpha", 1.67326319217681884765625f);
    const double gamma = n.attr_float("gamma", 1.05070102214813232421875f);
    n.out(0, binary(OpKind::Multiply, elu_of(n, x, alpha), scalar_for(n, x, gamma)));
}

void thresholded_relu(Node &n) {
    Op *x = n.in(0);
    Op *above = binary(OpKind::Greater, x, scalar_for(n, x, n.attr_float("alpha", 1.0f)));
    n.out(0, build::select(above, x, scalar_for(n, x, 0)));
}

Op *hard_sigmoid_of(Node &n, Op *x, double alpha, double beta) {
    Op *lin = binary(OpKind::Add, binary(OpKind::Multiply, x, scalar_for(n, x, alpha)),
                     scalar_for(n, x, beta));
    return binary(OpKind::Maximum, binary(OpKind::Minimum, lin, scalar_for(n, x, 1)),
                  scalar_for(n, x, 0));
}

void hard_sigmoid(Node &n) {
    n.out(0, hard_sigmoid_of(n, n.in(0), n.attr_float("alpha", 0.2f), n.attr_float("beta", 0.5f)));
}

void hard_swish(Node &n) {
    Op *x = n.in(0);
    n.out(0, binary(OpKind::Multiply, x, hard_sigmoid_of(n, x, 1.0 / 6, 0.5)));
}

void softplus(Node &n) {
    Op *x = n.in(0);
    n.out(0, unary(OpKind::Log, binary(OpKind::Add, unary(OpKind::Exp, x), scalar_for(n, x, 1))));
}

void softsign(Node &n) {
    Op *x = n.in(0);
    n.out(0, binary(OpKind::Divide, x,
                    binary(OpKind::Add, unary(OpKind::Absolute, x), scalar_for(n, x, 1))));
}

void tan(Node &n) {
    Op *x = n.in(0);
    n.out(0, binary(OpKind::Divide, unary(OpKind::Sin, x), unary(OpKind::Cos, x)));
}

void sinh_cosh(Node &n, OpKind combine) {
    Op *x = n.in(0);
    Op *e = unary(OpKind::Exp, x), *f = unary(OpKind::Exp, unary(OpKind::Negative, x));
    n.out(0, binary(OpKind::Divide, binary(combine, e, f), scalar_for(n, x, 2)));
}
void sinh(Node &n) {
    sinh_cosh(n, OpKind::Subtract);
}
void cosh(Node &n) {
    sinh_cosh(n, OpKind::Add);
}

void clip(Node &n) {
    Op *x = n.in(0);
    Op *lo = nullptr, *hi = nullptr;
    if (n.c.opset < 11) {
        if (n.has_attr("min")) lo = scalar_for(n, x, n.attr_float("min", 0));
        if (n.has_attr("max")) hi = scalar_for(n, x, n.attr_float("max", 0));
    } else {
        if (n.has_input(1)) lo = n.in(1);
        if (n.has_input(2)) hi = n.in(2);
    }
    if (lo) x = elementwise(n, OpKind::Maximum, x, lo);
    if (hi) x = elementwise(n, OpKind::Minimum, x, hi);
    n.out(0, x);
}

}  // namespace

void register_elementwise() {
    add_translation("Neg", unary_op<OpKind::Negative>);
    add_translation("Abs", unary_op<OpKind::Absolute>);
    add_translation("Sign", unary_op<OpKind::Sign>);
    add_translation("Exp", unary_op<OpKind::Exp>);
    add_translation("Log", unary_op<OpKind::Log>);
    add_translation("Sqrt", unary_op<OpKind::Sqrt>);
    add_translation("Reciprocal", unary_op<OpKind::Reciprocal>);
    add_translation("Sigmoid", unary_op<OpKind::Sigmoid>);
    add_translation("Relu", unary_op<OpKind::Relu>);
    add_translation("Sin", unary_op<OpKind::Sin>);
    add_translation("Cos", unary_op<OpKind::Cos>);
    add_translation("Tanh", unary_op<OpKind::Tanh>);
    add_translation("Tan", tan);
    add_translation("Sinh", sinh);
    add_translation("Cosh", cosh);
    add_translation("Identity", identity);
    add_translation("Dropout", dropout);
    add_translation("Cast", cast);
    add_translation("CastLike", cast_like);
    add_translation("Add", binary_op<OpKind::Add>);
    add_translation("Sub", binary_op<OpKind::Subtract>);
    add_translation("Mul", binary_op<OpKind::Multiply>);
    add_translation("Div", binary_op<OpKind::Divide>);
    add_translation("Pow", pow);
    add_translation("Equal", binary_op<OpKind::Equal>);
    add_translation("Less", binary_op<OpKind::Less>);
    add_translation("LessOrEqual", binary_op<OpKind::LessEqual>);
    add_translation("Greater", binary_op<OpKind::Greater>);
    add_translation("GreaterOrEqual", binary_op<OpKind::GreaterEqual>);
    add_translation("Max", variadic<OpKind::Maximum>);
    add_translation("Min", variadic<OpKind::Minimum>);
    add_translation("Sum", variadic<OpKind::Add>);
    add_translation("Mean", mean);
    add_translation("Not", not_equal_to_true);
    add_translation("And", and_op);
    add_translation("Or", or_op);
    add_translation("Xor", xor_op);
    add_translation("Where", where);
    add_translation("LeakyRelu", leaky_relu);
    add_translation("PRelu", prelu);
    add_translation("Elu", elu);
    add_translation("Selu", selu);
    add_translation("ThresholdedRelu", thresholded_relu);
    add_translation("HardSigmoid", hard_sigmoid);
    add_translation("HardSwish", hard_swish);
    add_translation("Softplus", softplus);
    add_translation("Softsign", softsign);
    add_translation("Clip", clip);
}

}  // namespace ng::onnx_io
