/**
 * @file ops.h
 * @brief Op builders, by family: tensors, elementwise (one operand, two operands, comparisons and
 * selection), reductions, dot, softmax and losses, views, state and control.
 *
 * Rules every builder follows (each family adds its own at its top):
 * - It takes the graph first and returns a new op owned by the graph, or NULL on failure.
 * - A NULL or foreign handle (an operand or axis of another graph), a wrong handle type or a
 *   negative count is ::NG_ERR_INVALID_ARGUMENT.
 * - A failure sets the thread's error (ng_last_error()) and records it as the graph's first error
 *   when it has none yet (the graph is `g`, or the first operand's when g is NULL), so a whole
 * graph may be built and checked once with ng_graph_status().
 * - Axes are matched by name: an equal name with an unequal length is ::NG_ERR_AXES ("axes C(4) and
 *   C(3) share a name but not a length").
 * - Operands that meet must share their dtype: there is no silent promotion (::NG_ERR_DTYPE; the
 *   one conversion is ng_cast()).
 *
 * The axis and dtype rules of every op, with examples, are in docs/axes.md.
 */
#ifndef NANOGRAPH_OPS_H
#define NANOGRAPH_OPS_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @name Tensors
 * The assignable tensors: constants, placeholders, persistent tensors and variables, whose values
 * live in a transformer.
 *
 * Shared rules: `axes` lists the tensor's axes in order, with distinct names (NULL when rank is
 * 0). An `initial_value` is NULL (zeros) or an op of the same graph and dtype whose axes are among
 * `axes`; the initializers evaluate it once and broadcast it to `axes`. Failures:
 * ::NG_ERR_INVALID_ARGUMENT for a NULL graph or axes, a negative rank, repeated axis names or an
 * overflowing size; ::NG_ERR_DTYPE for an unknown dtype or an initial value of another dtype;
 * ::NG_ERR_AXES for an initial value with an axis the tensor lacks.
 */
/**@{*/
/** @brief One axis of a slice: elements start, start + step, ... before stop; or one index. */
typedef struct ng_slice {
    int64_t start; /**< First index (the index itself when index_only). */
    int64_t stop;  /**< One past the last index in the direction of step; -1 with a negative step
                      runs to index 0. */
    int64_t step;  /**< Not 0; negative walks backwards. Ignored when index_only. */
    int32_t index_only; /**< Nonzero: take the single index `start` and drop the axis from the
                           result. */
} ng_slice_t;

/**
 * @brief A constant (flags CONSTANT | PERSISTENT): an immutable tensor the compiler may inline.
 * @param g The graph.
 * @param dt The dtype.
 * @param axes The axes (see the family's rules).
 * @param rank Number of axes.
 * @param data Dense row-major elements in the order of `axes` (numel * ng_dtype_size(dt) bytes),
 * copied once into the graph; NULL means zeros. Bool elements are stored as 0/1. Computations
 * compiled from the op read that copy in place and keep it alive after the graph is gone (those
 * of a transformer with an allocator of its own copy it into that allocator's memory).
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_constant(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, const void *data);
/**
 * @brief A float32 constant of rank 0.
 * @param g The graph.
 * @param value The value (rounded to float32).
 * @return The new op, or NULL: ::NG_ERR_INVALID_ARGUMENT for a NULL graph or a value beyond the
 * float32 range.
 */
NG_API ng_op_t *ng_scalar(ng_graph_t *g, double value);
/**
 * @brief A constant of rank 0 and any dtype.
 * @param g The graph.
 * @param dt The dtype.
 * @param value The value: nonzero is true for bool; integer dtypes need an integral value in their
 * range.
 * @return The new op, or NULL: ::NG_ERR_INVALID_ARGUMENT for a NULL graph or a value the dtype
 * cannot hold exactly; ::NG_ERR_DTYPE for an unknown dtype.
 */
NG_API ng_op_t *ng_scalar_of(ng_graph_t *g, ng_dtype_t dt, double value);
/**
 * @brief A placeholder (flags PERSISTENT | INPUT): a value passed in at run time, or kept by the
 * transformer between runs.
 * @param g The graph.
 * @param dt The dtype.
 * @param axes The axes (see the family's rules).
 * @param rank Number of axes.
 * @param initial_value NULL or the initial value (see the family's rules).
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_placeholder(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                               int32_t rank, ng_op_t *initial_value);
/**
 * @brief A persistent tensor (flag PERSISTENT): state kept by the transformer, such as SGD
 * velocity.
 * @param g The graph.
 * @param dt The dtype.
 * @param axes The axes (see the family's rules).
 * @param rank Number of axes.
 * @param initial_value NULL or the initial value (see the family's rules).
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_persistent_tensor(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                     int32_t rank, ng_op_t *initial_value);
/**
 * @brief A variable (flags PERSISTENT | TRAINABLE): a parameter that training updates; listed by
 * ng_variables().
 * @param g The graph.
 * @param dt The dtype.
 * @param axes The axes (see the family's rules).
 * @param rank Number of axes.
 * @param initial_value NULL or the initial value (see the family's rules).
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_variable(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, ng_op_t *initial_value);
/**
 * @brief An assignable tensor with any valid combination of flags (the four kinds above are special
 * cases).
 * @param g The graph.
 * @param dt The dtype.
 * @param axes The axes (see the family's rules).
 * @param rank Number of axes.
 * @param flags A union of NG_FLAG_*: must contain ::NG_FLAG_PERSISTENT; ::NG_FLAG_CONSTANT excludes
 * ::NG_FLAG_TRAINABLE, ::NG_FLAG_INPUT and an initial value (the constant is then zeros).
 * @param initial_value NULL or the initial value (see the family's rules).
 * @return The new op, or NULL (see the family's rules); also ::NG_ERR_INVALID_ARGUMENT for flags
 * outside those rules.
 */
NG_API ng_op_t *ng_assignable_tensor(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                     int32_t rank, uint32_t flags, ng_op_t *initial_value);
/**@}*/

/**
 * @name Elementwise, one operand
 * Shared rules: the result has x's axes and dtype (ng_cast() excepted). Arithmetic (negative,
 * absolute, sign, square, relu) takes any dtype but bool; the transcendental functions (exp, log,
 * sqrt, reciprocal, sigmoid, sin, cos, tanh) take float32 or float64 only. Another dtype is
 * ::NG_ERR_DTYPE; a NULL or foreign handle is ::NG_ERR_INVALID_ARGUMENT.
 */
/**@{*/
/**
 * @brief -x (arithmetic).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_negative(ng_graph_t *g, ng_op_t *x);
/**
 * @brief |x| (arithmetic).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_absolute(ng_graph_t *g, ng_op_t *x);
/**
 * @brief -1, 0 or 1 after the sign of x (arithmetic).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_sign(ng_graph_t *g, ng_op_t *x);
/**
 * @brief e to the x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_exp(ng_graph_t *g, ng_op_t *x);
/**
 * @brief The natural logarithm of x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_log(ng_graph_t *g, ng_op_t *x);
/**
 * @brief The square root of x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_sqrt(ng_graph_t *g, ng_op_t *x);
/**
 * @brief x * x (arithmetic).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_square(ng_graph_t *g, ng_op_t *x);
/**
 * @brief 1 / x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_reciprocal(ng_graph_t *g, ng_op_t *x);
/**
 * @brief 1 / (1 + exp(-x)) (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_sigmoid(ng_graph_t *g, ng_op_t *x);
/**
 * @brief max(x, 0) (arithmetic).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_relu(ng_graph_t *g, ng_op_t *x);
/**
 * @brief The sine of x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_sin(ng_graph_t *g, ng_op_t *x);
/**
 * @brief The cosine of x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_cos(ng_graph_t *g, ng_op_t *x);
/**
 * @brief The hyperbolic tangent of x (transcendental).
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_tanh(ng_graph_t *g, ng_op_t *x);
/**
 * @brief x unchanged, but its derivative is zero: autodiff does not look through it. Any dtype.
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_stop_gradient(ng_graph_t *g, ng_op_t *x);
/**
 * @brief x converted to another dtype (the only dtype conversion there is): floats to integers
 * truncate toward zero, anything nonzero to bool is 1. Any dtype.
 * @param g The graph.
 * @param x The operand.
 * @param dt The result's dtype.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_DTYPE for an unknown dtype.
 */
NG_API ng_op_t *ng_cast(ng_graph_t *g, ng_op_t *x, ng_dtype_t dt);
/**@}*/

/**
 * @name Elementwise, two operands
 * Shared rules: a and b align by axis name, in any order; the result has a's axes in order, then
 * b's other axes, and their dtype. Axes of one name and two lengths are ::NG_ERR_AXES; dtypes that
 * differ are ::NG_ERR_DTYPE, and so is bool except for ng_maximum() and ng_minimum(); a NULL or
 * foreign handle is ::NG_ERR_INVALID_ARGUMENT.
 */
/**@{*/
/**
 * @brief a + b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_add(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a - b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_subtract(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a * b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_multiply(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a / b; integer division truncates toward zero.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_divide(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a to the power b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_power(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief The larger of a and b (bool allowed).
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_maximum(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief The smaller of a and b (bool allowed).
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_minimum(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**@}*/

/**
 * @name Comparisons and selection
 * Shared rules: operands align by axis name as for two operands (the result has a's axes, then
 * b's other axes); a comparison's result is ::NG_BOOL. Any dtype, bool included, but the operands'
 * dtypes must be equal (::NG_ERR_DTYPE); axes of one name and two lengths are ::NG_ERR_AXES; a NULL
 * or foreign handle is ::NG_ERR_INVALID_ARGUMENT.
 */
/**@{*/
/**
 * @brief a == b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a != b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_not_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a < b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_less(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a <= b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_less_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a > b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_greater(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief a >= b.
 * @param g The graph.
 * @param a The first operand.
 * @param b The second operand.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_greater_equal(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**
 * @brief condition ? a : b, all three aligned by name; the result has a's axes, then b's others,
 * then condition's others, and a's dtype.
 * @param g The graph.
 * @param condition A ::NG_BOOL op (another dtype is ::NG_ERR_DTYPE).
 * @param a Taken where condition is true.
 * @param b Taken where condition is false; a's dtype.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_select(ng_graph_t *g, ng_op_t *condition, ng_op_t *a, ng_op_t *b);
/**@}*/

/**
 * @name Reductions
 * Shared rules: `axes` lists distinct axes of x, matched by name (NULL when n is 0); `n == 0`
 * reduces every axis. The result keeps x's other axes in x's order, and x's dtype. Sum, max, min
 * and prod take any dtype but bool; mean, variance and the norms take float32 or float64 only.
 * Failures: ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles or a negative n; ::NG_ERR_AXES
 * for an axis x lacks (or of another length) or listed twice; ::NG_ERR_DTYPE for a dtype the
 * reduction does not take.
 */
/**@{*/
/**
 * @brief The sum of x over some axes.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_sum(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The maximum of x over some axes.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_max(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The minimum of x over some axes.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_min(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The mean of x over some axes (float).
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_mean(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The product of x over some axes.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_prod(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The (biased) variance, mean(square(x - mean(x))), of x over some axes (float).
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_variance(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief sum(square(x)) over some axes (float).
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_squared_l2(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief sqrt(sum(square(x))) over some axes (float).
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_l2_norm(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief sum(absolute(x)) over some axes (float).
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes to reduce.
 * @param n Number of axes; 0 reduces every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_l1_norm(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The index of the first maximum of x along one axis, as ::NG_INT64 (any dtype but bool).
 * @param g The graph.
 * @param x The operand.
 * @param axis The axis of x to search along.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_argmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis);
/**
 * @brief The index of the first minimum of x along one axis, as ::NG_INT64 (any dtype but bool).
 * @param g The graph.
 * @param x The operand.
 * @param axis The axis of x to search along.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_argmin(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis);
/**@}*/

/**
 * @name Dot
 * The tensor contraction, with axes matched by name: no axis positions to get wrong.
 */
/**@{*/
/**
 * @brief The tensor contraction of a and b over every axis they share (by name).
 *
 * The result has a's other axes in order, then b's other axes in order; sharing nothing gives the
 * outer product, sharing everything a scalar.
 * @param g The graph.
 * @param a The first operand (any dtype but bool).
 * @param b The second operand, of a's dtype.
 * @return The new op, or NULL: ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles; ::NG_ERR_AXES
 * when a shared name has two lengths; ::NG_ERR_DTYPE when the dtypes differ or are bool.
 */
NG_API ng_op_t *ng_dot(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
/**@}*/

/**
 * @name Softmax and losses
 * Shared rules: the operands are float32 or float64 (of one dtype), and `axes` lists distinct axes
 * matched by name (NULL when n is 0). Failures: ::NG_ERR_INVALID_ARGUMENT for NULL or foreign
 * handles or a negative n; ::NG_ERR_AXES for an axis no operand has (or of another length), listed
 * twice, or operands whose axes do not match; ::NG_ERR_DTYPE for dtypes that differ or are not
 * float.
 */
/**@{*/
/**
 * @brief exp(x - max) / sum(exp(x - max)) over some axes; the result has x's axes and dtype.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes normalised over.
 * @param n Number of axes; 0 normalises over every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief x - max - log(sum(exp(x - max))) over some axes: the logarithm of ng_softmax(), finite for
 * any x; the result has x's axes and dtype.
 * @param g The graph.
 * @param x The operand.
 * @param axes The axes normalised over.
 * @param n Number of axes; 0 normalises over every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_log_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The cross entropy -sum(t * log(y)) over some axes.
 *
 * When y is an ng_softmax() of logits x, it is built as -sum(t * log_softmax(x)), finite for any
 * logits.
 * @param g The graph.
 * @param y Predicted probabilities.
 * @param t Targets, of y's dtype, aligned with y by name.
 * @param axes The axes summed over.
 * @param n Number of axes; 0 sums over every axis.
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_cross_entropy_multi(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                       const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The binary cross entropy -(t log y + (1 - t) log(1 - y)), summed over some axes.
 *
 * When y is an ng_sigmoid() of logits x, it is built as max(x, 0) - t x + log(1 + exp(-|x|)),
 * finite for any logits.
 * @param g The graph.
 * @param y Predicted probabilities.
 * @param t Targets, of y's dtype, aligned with y by name.
 * @param axes The axes summed over.
 * @param n Number of axes; 0 keeps the loss elementwise (no sum).
 * @return The new op, or NULL (see the family's rules).
 */
NG_API ng_op_t *ng_cross_entropy_binary(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                        const ng_axis_t *const *axes, int32_t n);
/**@}*/

/**
 * @name Axes and views
 * Ops that change a value's axes, not its elements: the compiler turns them into stride tricks
 * (no copy) where it can. Shared rules: any dtype; lists given with a count n must have exactly n
 * entries; failures are ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles or a negative n, and
 * ::NG_ERR_AXES for axes that do not fit, as said per function.
 */
/**@{*/
/**
 * @brief x broadcast to more axes: the result has exactly `axes`, in that order, repeating x along
 * the new ones.
 * @param g The graph.
 * @param x The operand.
 * @param axes Distinct axes including every axis of x (by name, same length), in any order.
 * @param n Number of axes.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES when an axis of x is missing
 * or has another length, or a name repeats.
 */
NG_API ng_op_t *ng_broadcast(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief x with its axes in another order (a transpose view).
 * @param g The graph.
 * @param x The operand.
 * @param axes A permutation of x's axes (by name).
 * @param n Number of axes: the rank of x.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES when axes is not a
 * permutation of x's axes.
 */
NG_API ng_op_t *ng_axes_with_order(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                                   int32_t n);
/**
 * @brief x with its axes renamed, position by position (same data, new names).
 * @param g The graph.
 * @param x The operand.
 * @param axes Distinct axes, the i-th of the length of x's i-th axis.
 * @param n Number of axes: the rank of x.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES for a count or a length that
 * differs, or a repeated name.
 */
NG_API ng_op_t *ng_cast_axes(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief x with one more axis, inserted at a position, x repeated along it (a broadcast).
 * @param g The graph.
 * @param x The operand.
 * @param axis An axis whose name x does not have (length 1 to merely add a dimension).
 * @param position Where the axis goes: 0 <= position <= rank of x.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for a position
 * outside 0..rank; ::NG_ERR_AXES when x already has an axis of that name.
 */
NG_API ng_op_t *ng_expand_dims(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, int32_t position);
/**
 * @brief A slice of x: per axis a range with a step (the axis keeps its name with its new length)
 * or one index (the axis is dropped).
 * @param g The graph.
 * @param x The operand.
 * @param specs One ::ng_slice_t per axis of x, in order. With a positive step: 0 <= start <= stop
 * <= length; with a negative step: -1 <= stop <= start < length; an index: 0 <= start < length.
 * @param n Number of specs: the rank of x.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for a count other
 * than the rank, a step of 0 or a range or index outside its axis (the message names the axis).
 */
NG_API ng_op_t *ng_slice(ng_graph_t *g, ng_op_t *x, const ng_slice_t *specs, int32_t n);
/**
 * @brief x padded with zeros: each axis keeps its name and grows by before + after.
 * @param g The graph.
 * @param x The operand.
 * @param before Per axis of x, the zeros before its elements (0 or more).
 * @param after Per axis of x, the zeros after its elements (0 or more).
 * @param n Number of entries: the rank of x.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for a count
 * other than the rank, a negative padding or an overflowing length.
 */
NG_API ng_op_t *ng_pad(ng_graph_t *g, ng_op_t *x, const int64_t *before, const int64_t *after,
                       int32_t n);
/**
 * @brief x with consecutive axes merged into one; the merged axis remembers its components, so
 * ng_unflatten() restores them.
 * @param g The graph.
 * @param x The operand.
 * @param axes Axes of x that are consecutive and in x's order (at least one).
 * @param n Number of axes.
 * @param name Name of the merged axis; NULL or "" joins the names with '_' ("H_W").
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES for axes x lacks, not
 * consecutive or out of order, or a name another axis of x has.
 */
NG_API ng_op_t *ng_flatten(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n,
                           const char *name);
/**
 * @brief x with every flattened axis split back into its components.
 * @param g The graph.
 * @param x The operand.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES when x has no flattened axis
 * or a component's name clashes with another axis.
 */
NG_API ng_op_t *ng_unflatten(ng_graph_t *g, ng_op_t *x);
/**
 * @brief x reinterpreted onto new axes with the same number of elements: the elements of x in
 * row-major order of its axes become the elements of the result in row-major order of `axes`.
 *
 * Unlike ng_flatten(), the axes need not be consecutive or related: `(A(2), B(6))` may become
 * `(P(3), Q(4))`. The result is a view of x when x's layout allows it, otherwise a row-major copy;
 * its gradient is the reverse reshape. It is built from Flatten, CastAxes and Unflatten, which is
 * what ng_op_type() reports for its ops.
 * @param g The graph.
 * @param x The operand.
 * @param axes The result's axes, in order, with distinct names (they may reuse x's names); may be
 * NULL when n is 0, which needs an x of one element.
 * @param n Number of axes (0 or more).
 * @return The new op, or NULL: ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles or a negative
 * n; ::NG_ERR_AXES when the element counts differ or a name repeats.
 */
NG_API ng_op_t *ng_reshape(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
/**
 * @brief The concatenation of ops along the axis of a given name, whose lengths add up.
 * @param g The graph.
 * @param ops The operands: one dtype, the same axis names (the others of equal lengths), in any
 * order: the first's order is the result's.
 * @param n Number of operands (1 or more).
 * @param axis_name The name of the axis to concatenate along.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for n < 1;
 * ::NG_ERR_AXES for an operand without that axis or with other axes; ::NG_ERR_DTYPE when the dtypes
 * differ.
 */
NG_API ng_op_t *ng_concat(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const char *axis_name);
/**
 * @brief The ops stacked along a new axis.
 * @param g The graph.
 * @param ops The operands: one dtype, the same axes (by name and length), in any order.
 * @param n Number of operands (1 or more).
 * @param axis The new axis, of length n, whose name no operand has.
 * @param position Where the new axis goes among the first operand's axes: 0 <= position <= rank.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for n < 1 or a
 * bad position; ::NG_ERR_AXES for operands with different axes or an axis of the wrong length or an
 * existing name; ::NG_ERR_DTYPE when the dtypes differ.
 */
NG_API ng_op_t *ng_stack(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const ng_axis_t *axis,
                         int32_t position);
/**
 * @brief One-hot encoding: result[axis = k, ...] is 1 where x == k, else 0; the new axis comes
 * first, then x's axes.
 * @param g The graph.
 * @param x Integer class indices (int32, int64 or uint8); values outside 0..length-1 give all
 * zeros.
 * @param axis The new axis; its length is the number of classes; x must not have its name.
 * @param dt The result's dtype.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES when x has an axis of that
 * name; ::NG_ERR_DTYPE for a non-integer x or an unknown dt.
 */
NG_API ng_op_t *ng_one_hot(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, ng_dtype_t dt);
/**
 * @brief Gather: params' elements along `axis` picked by integer indices (an embedding lookup).
 * The result has params' axes with `axis` replaced, in its place, by the indices' axes:
 * result[..., i..., ...] = params[..., axis = indices[i...], ...].
 * @param g The graph.
 * @param params The values to pick from, of any dtype.
 * @param indices Integer indices (int32, int64 or uint8) into `axis`; none of its axes may share
 * a name with an axis of params. A run fails with ::NG_ERR_INVALID_ARGUMENT, naming the index,
 * when an index is outside 0..length-1.
 * @param axis The axis of params to pick along (its name and length).
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_AXES when params has no such
 * axis or the indices share an axis name with params; ::NG_ERR_DTYPE for non-integer indices.
 * The derivative with respect to params sums the result's adjoint into the rows the indices
 * picked; the indices have none.
 */
NG_API ng_op_t *ng_gather(ng_graph_t *g, ng_op_t *params, ng_op_t *indices, const ng_axis_t *axis);
/**@}*/

/**
 * @name State and control
 * Ops with side effects, and the order they happen in. An assignment happens only in
 * computations whose results reach it, e.g. through ng_sequential(). Failures are
 * ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles, as said per function otherwise.
 */
/**@{*/
/**
 * @brief Writes rhs, broadcast to lhs's axes, into lhs when the op runs; the op's value is lhs's
 * new value.
 * @param g The graph.
 * @param lhs A placeholder, persistent tensor or variable (not a constant).
 * @param rhs The value, of lhs's dtype, with axes among lhs's.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for an lhs that
 * is not an assignable non-constant tensor; ::NG_ERR_AXES when rhs has an axis lhs lacks;
 * ::NG_ERR_DTYPE when the dtypes differ.
 */
NG_API ng_op_t *ng_assign(ng_graph_t *g, ng_op_t *lhs, ng_op_t *rhs);
/**
 * @brief Runs ops in the listed order (each at most once per run); the value is the last op's.
 * @param g The graph.
 * @param ops The ops, kept as the sequential's args in this order.
 * @param n Number of ops (1 or more).
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for n < 1.
 */
NG_API ng_op_t *ng_sequential(ng_graph_t *g, ng_op_t *const *ops, int32_t n);
/**
 * @brief Writes rhs into a slice of lhs when the op runs (NumPy's `lhs[specs] = rhs`); the
 * elements outside the slice keep their values. The op's value is lhs's new value.
 *
 * The slice is described as for ng_slice(); rhs is broadcast to the slice's axes (an axis the
 * slice keeps whole has lhs's axis, a narrowed one an axis of the same name and its new
 * length). When lhs is a placeholder that is a parameter of the computation, the write goes into
 * the caller's input tensor.
 * @param g The graph.
 * @param lhs A placeholder, persistent tensor or variable (not a constant).
 * @param specs One slice per axis of lhs, in lhs's axis order.
 * @param n Number of specs: lhs's rank.
 * @param rhs The value, of lhs's dtype, with axes among the slice's.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for an lhs that
 * is not an assignable non-constant tensor, n different from lhs's rank or an index out of range;
 * ::NG_ERR_AXES when rhs has an axis the slice lacks; ::NG_ERR_DTYPE when the dtypes differ.
 */
NG_API ng_op_t *ng_assign_slice(ng_graph_t *g, ng_op_t *lhs, const ng_slice_t *specs, int32_t n,
                                ng_op_t *rhs);
/**
 * @brief Sets every element of a tensor to value when the op runs: ng_assign() of the value
 * converted to the tensor's dtype.
 * @param g The graph.
 * @param persistent A placeholder, persistent tensor or variable (not a constant).
 * @param value The value; for an integer dtype it must be an integer in the dtype's range.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_INVALID_ARGUMENT for a target
 * that is not an assignable non-constant tensor or a value the dtype cannot hold.
 */
NG_API ng_op_t *ng_fill(ng_graph_t *g, ng_op_t *persistent, double value);
/**
 * @brief The value of an assignable tensor at this op's position in the order of side effects:
 * assignments later in that order do not change it.
 *
 * In `ng_sequential({ng_value_of(x), ng_assign(x, v), ...})` it is x's value before the
 * assignment, whatever else the computation returns. No derivative flows through it (like
 * ng_stop_gradient()).
 * @param g The graph.
 * @param persistent An assignable tensor (constant, placeholder, persistent tensor or variable).
 * @return The new op, with persistent's dtype and axes, or NULL (see the family's rules);
 * ::NG_ERR_INVALID_ARGUMENT when persistent is another kind of op.
 */
NG_API ng_op_t *ng_value_of(ng_graph_t *g, ng_op_t *persistent);
/**
 * @brief Values drawn uniformly from [low, high), new at every run of a computation.
 *
 * The draws come from the transformer's generator (ng_transformer_set_seed()): element i of
 * this op in the k-th run that draws is a function of the seed, k, the op's creation order in its
 * graph and i only, so results do not depend on the thread count and a program replayed from
 * the same seed gets the same values. Within a run the op has one value wherever it is used.
 * No derivative flows through it.
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the result (distinct names, of g).
 * @param n Number of axes (0: a scalar).
 * @param low The lower bound (included), finite.
 * @param high The upper bound (excluded), finite, greater than low.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_DTYPE for a non-float dt;
 * ::NG_ERR_INVALID_ARGUMENT for bounds that are not finite or not increasing, or invalid axes.
 */
NG_API ng_op_t *ng_uniform(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                           double low, double high);
/**
 * @brief Values drawn from the normal distribution N(mean, stddev^2), new at every run; drawn
 * like ng_uniform().
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the result (distinct names, of g).
 * @param n Number of axes (0: a scalar).
 * @param mean The mean, finite.
 * @param stddev The standard deviation, finite and >= 0.
 * @return The new op, or NULL (see the family's rules); ::NG_ERR_DTYPE for a non-float dt;
 * ::NG_ERR_INVALID_ARGUMENT for parameters out of range or invalid axes.
 */
NG_API ng_op_t *ng_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                          double mean, double stddev);
/**@}*/

#ifdef __cplusplus
}
#endif

#endif
