/**
 * @file autodiff.h
 * @brief Automatic differentiation: derivative graphs and the trainable variables of a value.
 *
 * Like every builder, these functions only add ops to the graph: nothing is
 * computed until a computation runs the result. Derivatives are built in reverse mode over the
 * ops upstream of the differentiated value, one reverse sweep per call. docs/autodiff.md lists
 * the rule of every op kind and what non-differentiable ops contribute.
 */
#ifndef NANOGRAPH_AUTODIFF_H
#define NANOGRAPH_AUTODIFF_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Builds the derivative of a scalar cost with respect to an op.
 * @param g The graph of both ops; the new ops are added to it.
 * @param cost A float op of rank 0.
 * @param wrt Any float op of g (usually a variable).
 * @return An op with wrt's axes (in wrt's order) and dtype whose value is d(cost)/d(wrt); zeros
 *         when cost does not depend on wrt (or only through ng_stop_gradient()). NULL on failure:
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL or foreign handle; ::NG_ERR_AXES for a cost that
 *         is not a scalar; ::NG_ERR_DTYPE for a cost or wrt that is not float32/float64;
 *         ::NG_ERR_UNSUPPORTED when the path from wrt to cost goes through an ng_assign().
 *         The op belongs to g.
 */
NG_API ng_op_t *ng_deriv(ng_graph_t *g, ng_op_t *cost, ng_op_t *wrt);

/**
 * @brief Builds a vector-Jacobian product: the derivative of sum(error * y) with respect to an op.
 * @param g The graph of the ops; the new ops are added to it.
 * @param y A float op of any axes.
 * @param error An op with y's axes (in any order) and dtype: the adjoint of y.
 * @param wrt Any float op of g.
 * @return An op with wrt's axes and dtype (zeros when y does not depend on wrt), or NULL:
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL or foreign handle; ::NG_ERR_AXES when error's axes
 *         are not y's; ::NG_ERR_DTYPE for a non-float y or wrt, or an error whose dtype is not
 *         y's; ::NG_ERR_UNSUPPORTED when the path goes through an ng_assign(). The op belongs to g.
 */
NG_API ng_op_t *ng_vjp(ng_graph_t *g, ng_op_t *y, ng_op_t *error, ng_op_t *wrt);

/**
 * @brief Lists the trainable variables a value depends on.
 * @param op The op whose upstream ops (through arguments and control dependencies, not initial
 *        values) are searched; op itself counts when it is a variable.
 * @param out Receives at most cap variables, in the order they are first reached (depth first,
 *        arguments in order: [w, b] for tanh(dot(w, x) + b)); may be NULL when cap is 0.
 * @param cap The capacity of out (0 or more).
 * @return The number of trainable variables upstream of op (which may exceed cap: call with
 *         cap 0 to size the array), or -1 with ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid
 *         op, a negative cap, or a NULL out with a positive cap.
 */
NG_API int32_t ng_variables(const ng_op_t *op, ng_op_t **out, int32_t cap);

#ifdef __cplusplus
}
#endif

#endif
