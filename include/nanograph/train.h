/**
 * @file train.h
 * @brief Training: optimizers that build one training step as an op, and initial values for
 * variables.
 *
 * An optimizer call differentiates the cost with respect to every trainable variable it depends
 * on (ng_variables()) and returns an update op: running a computation of it performs one step.
 * The step first evaluates the cost and every new value (gradients, optimizer state, weights)
 * and only then assigns them, so a whole step sees the weights from before it; the update op's
 * value is that cost. Optimizer state (velocities, moments, the step count) lives in persistent
 * tensors the optimizer creates, named "<variable>/velocity", "<variable>/adam_m", ... when free.
 *
 * The learning rate is an op of rank 0, normally a persistent tensor the caller creates:
 * @code
 * ng_op_t *lr = ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, 0.001));
 * ng_op_t *step = ng_adam(g, cost, lr, NULL);
 * // later, without recompiling: ng_transformer_set_value(t, lr, new_value);
 * @endcode
 *
 * Options structs start with `struct_size` and only ever gain fields at the end (see ng_api_t for
 * the rule): fill one with the matching `*_options_init()` function, passing `sizeof` of your
 * struct, then change the fields you need:
 * @code
 * ng_adam_options_t o;
 * ng_adam_options_init(&o, sizeof o);
 * o.weight_decay = 1e-4;
 * ng_op_t *step = ng_adam(g, cost, lr, &o);
 * @endcode
 */
#ifndef NANOGRAPH_TRAIN_H
#define NANOGRAPH_TRAIN_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Options of ng_sgd(). */
typedef struct ng_sgd_options {
    size_t struct_size; /**< sizeof(ng_sgd_options_t) as the caller compiled it. */
    double momentum;    /**< In [0, 1); 0 (the default) keeps no velocity: w -= lr * g. */
    int32_t nesterov;   /**< Nonzero for Nesterov momentum (needs momentum > 0); default 0. */
    double
        weight_decay; /**< L2 penalty >= 0 added to each gradient as weight_decay * w; default 0. */
} ng_sgd_options_t;

/**
 * @brief Fills options for ng_sgd() with the defaults: plain gradient descent.
 * @param options The struct to fill.
 * @param struct_size sizeof(ng_sgd_options_t) as the caller compiled it; stored in
 *        options->struct_size. Only that many bytes are written.
 * @return ::NG_OK (momentum 0, nesterov 0, weight_decay 0); ::NG_ERR_INVALID_ARGUMENT for NULL
 *         options or a struct_size smaller than the first published struct.
 */
NG_API ng_status_t ng_sgd_options_init(ng_sgd_options_t *options, size_t struct_size);

/**
 * @brief Builds one step of stochastic gradient descent over the trainable variables of a cost.
 * @param g The graph of the cost; the new ops are added to it.
 * @param cost A float op of rank 0 that depends on at least one trainable variable.
 * @param learning_rate A float op of rank 0 (normally a persistent tensor).
 * @param options The options (struct_size set, see ng_sgd_options_init()), or NULL for the
 *        defaults.
 * @return The update op (its value is the cost before the step), or NULL:
 *         ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles, a cost without trainable
 *         variables, options out of range (the message names the field) or a bad struct_size;
 *         ::NG_ERR_UNSUPPORTED for options that set fields this library does not know;
 * ::NG_ERR_AXES for a cost or learning rate that is not a scalar; ::NG_ERR_DTYPE for a non-float
 * cost or learning rate. The op belongs to g.
 *
 * Per variable w with gradient g' = dcost/dw + weight_decay * w: with momentum m, a velocity
 * v <- m v + g' and w <- w - lr * v (Nesterov: w <- w - lr * (g' + m v)); without, w <- w - lr *
 * g'.
 */
NG_API ng_op_t *ng_sgd(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                       const ng_sgd_options_t *options);

/** @brief Options of ng_adam(). */
typedef struct ng_adam_options {
    size_t struct_size; /**< sizeof(ng_adam_options_t) as the caller compiled it. */
    double beta1;       /**< Decay of the first moment, in [0, 1); default 0.9. */
    double beta2;       /**< Decay of the second moment, in [0, 1); default 0.999. */
    double epsilon;     /**< Added to the root of the second moment, > 0; default 1e-8. */
    double
        weight_decay; /**< L2 penalty >= 0 added to each gradient as weight_decay * w; default 0. */
} ng_adam_options_t;

/**
 * @brief Fills options for ng_adam() with the defaults.
 * @param options The struct to fill.
 * @param struct_size sizeof(ng_adam_options_t) as the caller compiled it; stored in
 *        options->struct_size. Only that many bytes are written.
 * @return ::NG_OK (beta1 0.9, beta2 0.999, epsilon 1e-8, weight_decay 0);
 *         ::NG_ERR_INVALID_ARGUMENT for NULL options or a struct_size smaller than the first
 *         published struct.
 */
NG_API ng_status_t ng_adam_options_init(ng_adam_options_t *options, size_t struct_size);

/**
 * @brief Builds one step of Adam (Kingma and Ba, 2015) over the trainable variables of a cost.
 * @param g The graph of the cost; the new ops are added to it.
 * @param cost A float op of rank 0 that depends on at least one trainable variable.
 * @param learning_rate A float op of rank 0 (normally a persistent tensor).
 * @param options The options (struct_size set, see ng_adam_options_init()), or NULL for the
 *        defaults.
 * @return The update op (its value is the cost before the step), or NULL with the same status
 *         codes as ng_sgd(). The op belongs to g.
 *
 * At step t (counted from 1), per variable w with gradient g' (weight decay included):
 * m <- beta1 m + (1 - beta1) g', v <- beta2 v + (1 - beta2) g'^2,
 * w <- w - lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + epsilon).
 */
NG_API ng_op_t *ng_adam(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                        const ng_adam_options_t *options);

/**
 * @brief A constant of uniformly distributed values, to use as a variable's initial value.
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the value (axes of g); may be NULL when rank is 0.
 * @param rank The number of axes (0 or more).
 * @param low The lower bound (included).
 * @param high The upper bound (excluded); must be greater than low.
 * @param seed The generator's seed: the same seed gives the same values on every platform.
 * @return A constant op of g, or NULL: ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles,
 *         a negative rank, non-finite bounds, low >= high or a size that overflows;
 *         ::NG_ERR_DTYPE for a dtype that is not float.
 */
NG_API ng_op_t *ng_initializer_uniform(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                       int32_t rank, double low, double high, uint64_t seed);

/**
 * @brief A constant of normally distributed values, to use as a variable's initial value.
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the value (axes of g); may be NULL when rank is 0.
 * @param rank The number of axes (0 or more).
 * @param mean The mean.
 * @param stddev The standard deviation (0 or more).
 * @param seed The generator's seed.
 * @return A constant op of g, or NULL with the status codes of ng_initializer_uniform() (a
 *         negative or non-finite stddev is ::NG_ERR_INVALID_ARGUMENT).
 */
NG_API ng_op_t *ng_initializer_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                      int32_t rank, double mean, double stddev, uint64_t seed);

/**
 * @brief Glorot/Xavier uniform values: uniform in +-sqrt(6 / (fan_in + fan_out)).
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the value (axes of g).
 * @param rank The number of axes (0 or more).
 * @param fan_in_axes The axes (among `axes`) a unit sums over: fan_in is the product of their
 *        lengths; fan_out is the product of the lengths of the other axes (1 when none).
 * @param fan_in_rank The number of fan-in axes (1 or more).
 * @param seed The generator's seed.
 * @return A constant op of g, or NULL: the status codes of ng_initializer_uniform(), and
 *         ::NG_ERR_AXES for a fan-in axis that is not one of `axes` or is listed twice;
 *         ::NG_ERR_INVALID_ARGUMENT for no fan-in axes or a fan-in of 0.
 */
NG_API ng_op_t *ng_initializer_glorot_uniform(ng_graph_t *g, ng_dtype_t dt,
                                              const ng_axis_t *const *axes, int32_t rank,
                                              const ng_axis_t *const *fan_in_axes,
                                              int32_t fan_in_rank, uint64_t seed);

/**
 * @brief He (Kaiming) normal values: mean 0, standard deviation sqrt(2 / fan_in), for ReLU layers.
 * @param g The graph.
 * @param dt ::NG_FLOAT32 or ::NG_FLOAT64.
 * @param axes The axes of the value (axes of g).
 * @param rank The number of axes (0 or more).
 * @param fan_in_axes The axes (among `axes`) a unit sums over; fan_in is the product of their
 * lengths.
 * @param fan_in_rank The number of fan-in axes (1 or more).
 * @param seed The generator's seed.
 * @return A constant op of g, or NULL with the status codes of ng_initializer_glorot_uniform().
 */
NG_API ng_op_t *ng_initializer_he_normal(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                         int32_t rank, const ng_axis_t *const *fan_in_axes,
                                         int32_t fan_in_rank, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
