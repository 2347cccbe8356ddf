/**
 * @file api.h
 * @brief The function table: every public function behind one symbol, ng_get_api(), for hosts
 * that load the library with dlopen() (or LoadLibrary) and for language bindings.
 *
 * A host needs nothing but `dlopen` and `dlsym(lib, "ng_get_api")`:
 * @code
 * typedef const ng_api_t *(*get_api_fn)(uint32_t);
 * get_api_fn get_api = (get_api_fn)dlsym(lib, "ng_get_api");
 * const ng_api_t *api = get_api ? get_api(NG_API_VERSION) : NULL;
 * if (!api) { ... the library is older than this header ... }
 * ng_graph_t *g = api->graph_create();
 * @endcode
 *
 * Versioning rules (they are what make the table safe to use across library versions):
 * - Each field is named as its function without the `ng_` prefix and has its exact signature.
 * - The table only grows: new functions are appended at the end; a field is never removed,
 *   reordered or re-typed. A version, once published, is served unchanged forever, so a host
 *   built against version N works with every later library of the same major version.
 * - ::NG_API_VERSION is the version of this header's table. A library that appends entries
 *   raises it, and the struct marks where each version's entries begin. ng_get_api() serves every
 *   version from 1 up to its own and returns NULL (with ::NG_ERR_UNSUPPORTED) for a newer one:
 *   the host was built against a newer header than the library it loaded, whose table would end
 *   before the entries the host expects.
 * - Structs that may grow (options, stats) start with `size_t struct_size`, which the caller
 *   sets to `sizeof` the struct as it compiled it; the library reads and writes only that many
 *   bytes (use the `*_options_init()` functions to fill options).
 */
#ifndef NANOGRAPH_API_H
#define NANOGRAPH_API_H

#include "nanograph/autodiff.h"
#include "nanograph/base.h"
#include "nanograph/checkpoint.h"
#include "nanograph/exec.h"
#include "nanograph/graph.h"
#include "nanograph/jagged.h"
#include "nanograph/onnx.h"
#include "nanograph/ops.h"
#include "nanograph/segment.h"
#include "nanograph/serialize.h"
#include "nanograph/shape.h"
#include "nanograph/tensor.h"
#include "nanograph/train.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The version of the function table this header declares. */
#define NG_API_VERSION 3

/**
 * @brief Every public function of the library, as a pointer named after it without `ng_`.
 *
 * Append new entries at the end only (the build checks that every exported function has an
 * entry); see the file's description for the rules.
 */
typedef struct ng_api {
    /* base.h */
    int32_t (*version_number)(void);                               /**< ng_version_number() */
    const char *(*version_string)(void);                           /**< ng_version_string() */
    ng_status_t (*last_status)(void);                              /**< ng_last_status() */
    const char *(*last_error)(void);                               /**< ng_last_error() */
    const char *(*status_string)(ng_status_t status);              /**< ng_status_string() */
    size_t (*dtype_size)(ng_dtype_t dtype);                        /**< ng_dtype_size() */
    const char *(*dtype_name)(ng_dtype_t dtype);                   /**< ng_dtype_name() */
    ng_status_t (*set_allocator)(const ng_allocator_t *allocator); /**< ng_set_allocator() */

    /* tensor.h */
    ng_tensor_t *(*tensor_create)(ng_dtype_t dt, const int64_t *shape,
                                  int32_t rank); /**< ng_tensor_create() */
    ng_tensor_t *(*tensor_from_data)(ng_dtype_t dt, const int64_t *shape, int32_t rank,
                                     const void *data); /**< ng_tensor_from_data() */
    ng_tensor_t *(*tensor_wrap)(ng_dtype_t dt, const int64_t *shape, const int64_t *strides,
                                int32_t rank, void *data, void (*)(void *data, void *ctx),
                                void *ctx);                    /**< ng_tensor_wrap() */
    void (*tensor_retain)(ng_tensor_t *t);                     /**< ng_tensor_retain() */
    void (*tensor_release)(ng_tensor_t *t);                    /**< ng_tensor_release() */
    ng_dtype_t (*tensor_dtype)(const ng_tensor_t *t);          /**< ng_tensor_dtype() */
    int32_t (*tensor_rank)(const ng_tensor_t *t);              /**< ng_tensor_rank() */
    int64_t (*tensor_dim)(const ng_tensor_t *t, int32_t i);    /**< ng_tensor_dim() */
    int64_t (*tensor_stride)(const ng_tensor_t *t, int32_t i); /**< ng_tensor_stride() */
    int64_t (*tensor_numel)(const ng_tensor_t *t);             /**< ng_tensor_numel() */
    void *(*tensor_data)(ng_tensor_t *t);                      /**< ng_tensor_data() */
    ng_status_t (*tensor_read)(const ng_tensor_t *t, void *dst,
                               size_t dst_bytes); /**< ng_tensor_read() */
    ng_status_t (*tensor_write)(ng_tensor_t *t, const void *src,
                                size_t src_bytes);         /**< ng_tensor_write() */
    int32_t (*tensor_is_contiguous)(const ng_tensor_t *t); /**< ng_tensor_is_contiguous() */
    ng_tensor_t *(*tensor_copy)(const ng_tensor_t *t);     /**< ng_tensor_copy() */
    ng_tensor_t *(*tensor_reshape)(ng_tensor_t *t, const int64_t *shape,
                                   int32_t rank); /**< ng_tensor_reshape() */
    ng_tensor_t *(*tensor_permute)(ng_tensor_t *t, const int32_t *order,
                                   int32_t rank);     /**< ng_tensor_permute() */
    ng_tensor_t *(*tensor_transpose)(ng_tensor_t *t); /**< ng_tensor_transpose() */
    ng_tensor_t *(*tensor_slice)(ng_tensor_t *t, int32_t dim, int64_t start, int64_t stop,
                                 int64_t step); /**< ng_tensor_slice() */
    ng_tensor_t *(*tensor_broadcast)(ng_tensor_t *t, const int64_t *shape,
                                     int32_t rank); /**< ng_tensor_broadcast() */
    ng_status_t (*tensor_to_dlpack)(ng_tensor_t *t,
                                    struct DLManagedTensor **out); /**< ng_tensor_to_dlpack() */
    ng_tensor_t *(*tensor_from_dlpack)(struct DLManagedTensor *m); /**< ng_tensor_from_dlpack() */

    /* shape.h */
    ng_shape_t *(*shape_smooth)(const int64_t *extents, int32_t rank); /**< ng_shape_smooth() */
    ng_shape_t *(*shape_jagged)(int64_t outer, int32_t rank, const int64_t *const *splits,
                                const int64_t *num_splits,
                                const int64_t *extents); /**< ng_shape_jagged() */
    ng_shape_t *(*shape_nested)(const ng_shape_t *outer, const ng_shape_t *const *elements,
                                int64_t num_elements); /**< ng_shape_nested() */
    void (*shape_retain)(ng_shape_t *s);               /**< ng_shape_retain() */
    void (*shape_release)(ng_shape_t *s);              /**< ng_shape_release() */
    int32_t (*shape_kind)(const ng_shape_t *s);        /**< ng_shape_kind() */
    int32_t (*shape_rank)(const ng_shape_t *s);        /**< ng_shape_rank() */
    int64_t (*shape_numel)(const ng_shape_t *s);       /**< ng_shape_numel() */
    int64_t (*shape_extent)(const ng_shape_t *s, const int64_t *prefix,
                            int32_t n); /**< ng_shape_extent() */
    int32_t (*shape_mode_is_jagged)(const ng_shape_t *s,
                                    int32_t mode);     /**< ng_shape_mode_is_jagged() */
    int32_t (*shape_smooth_rank)(const ng_shape_t *s); /**< ng_shape_smooth_rank() */
    int64_t (*shape_row_splits)(const ng_shape_t *s, int32_t mode, int64_t *out,
                                int64_t cap);                         /**< ng_shape_row_splits() */
    int32_t (*shape_equal)(const ng_shape_t *a, const ng_shape_t *b); /**< ng_shape_equal() */
    ng_shape_t *(*shape_flatten)(const ng_shape_t *s);                /**< ng_shape_flatten() */
    ng_shape_t *(*shape_outer)(const ng_shape_t *s);                  /**< ng_shape_outer() */
    ng_shape_t *(*shape_element)(const ng_shape_t *s, int64_t i);     /**< ng_shape_element() */
    ng_shape_t *(*shape_slice)(const ng_shape_t *s, int64_t start,
                               int64_t stop); /**< ng_shape_slice() */
    ng_shape_t *(*shape_at)(const ng_shape_t *s, const int64_t *prefix,
                            int32_t n); /**< ng_shape_at() */
    int32_t (*shape_origin)(const ng_shape_t *s, int64_t *out,
                            int32_t cap); /**< ng_shape_origin() */
    ng_shape_t *(*shape_broadcast)(const ng_shape_t *a,
                                   const ng_shape_t *b);               /**< ng_shape_broadcast() */
    int64_t (*shape_text)(const ng_shape_t *s, char *out, size_t cap); /**< ng_shape_text() */
    ng_shape_iter_t *(*shape_iter_create)(const ng_shape_t *s,
                                          int32_t index_mode); /**< ng_shape_iter_create() */
    void (*shape_iter_destroy)(ng_shape_iter_t *it);           /**< ng_shape_iter_destroy() */
    int32_t (*shape_iter_index_length)(
        const ng_shape_iter_t *it); /**< ng_shape_iter_index_length() */
    int32_t (*shape_iter_next)(ng_shape_iter_t *it, int64_t *index,
                               int32_t cap);              /**< ng_shape_iter_next() */
    ng_status_t (*shape_iter_reset)(ng_shape_iter_t *it); /**< ng_shape_iter_reset() */

    /* jagged.h */
    ng_jagged_t *(*jagged_create)(ng_dtype_t dt,
                                  const ng_shape_t *shape); /**< ng_jagged_create() */
    ng_jagged_t *(*jagged_from_data)(ng_dtype_t dt, const ng_shape_t *shape,
                                     const void *values); /**< ng_jagged_from_data() */
    ng_jagged_t *(*jagged_wrap)(ng_dtype_t dt, const ng_shape_t *shape, void *values,
                                void (*)(void *values, void *ctx),
                                void *ctx); /**< ng_jagged_wrap() */
    ng_jagged_t *(*jagged_from_values)(const ng_shape_t *shape,
                                       ng_tensor_t *values); /**< ng_jagged_from_values() */
    void (*jagged_retain)(ng_jagged_t *j);                   /**< ng_jagged_retain() */
    void (*jagged_release)(ng_jagged_t *j);                  /**< ng_jagged_release() */
    ng_dtype_t (*jagged_dtype)(const ng_jagged_t *j);        /**< ng_jagged_dtype() */
    ng_shape_t *(*jagged_shape)(const ng_jagged_t *j);       /**< ng_jagged_shape() */
    ng_tensor_t *(*jagged_values)(ng_jagged_t *j);           /**< ng_jagged_values() */
    ng_tensor_t *(*jagged_row_splits)(const ng_jagged_t *j,
                                      int32_t mode); /**< ng_jagged_row_splits() */
    int64_t (*jagged_position)(const ng_jagged_t *j, const int64_t *index,
                               int32_t n); /**< ng_jagged_position() */
    ng_status_t (*jagged_read)(const ng_jagged_t *j, void *dst,
                               size_t dst_bytes); /**< ng_jagged_read() */
    ng_status_t (*jagged_write)(ng_jagged_t *j, const void *src,
                                size_t src_bytes); /**< ng_jagged_write() */
    ng_status_t (*jagged_to_padded)(const ng_jagged_t *j, ng_tensor_t **padded,
                                    ng_tensor_t **mask); /**< ng_jagged_to_padded() */
    ng_jagged_t *(*jagged_from_padded)(const ng_tensor_t *padded,
                                       const ng_tensor_t *mask); /**< ng_jagged_from_padded() */
    ng_jagged_t *(*jagged_slice)(ng_jagged_t *j, int64_t start,
                                 int64_t stop); /**< ng_jagged_slice() */
    ng_jagged_t *(*jagged_at)(ng_jagged_t *j, const int64_t *prefix,
                              int32_t n); /**< ng_jagged_at() */

    /* graph.h */
    ng_graph_t *(*graph_create)(void);                             /**< ng_graph_create() */
    void (*graph_destroy)(ng_graph_t *g);                          /**< ng_graph_destroy() */
    ng_status_t (*graph_status)(const ng_graph_t *g);              /**< ng_graph_status() */
    const char *(*graph_error)(const ng_graph_t *g);               /**< ng_graph_error() */
    int32_t (*graph_num_ops)(const ng_graph_t *g);                 /**< ng_graph_num_ops() */
    ng_op_t *(*graph_op)(const ng_graph_t *g, int32_t i);          /**< ng_graph_op() */
    ng_op_t *(*graph_find)(const ng_graph_t *g, const char *name); /**< ng_graph_find() */
    int32_t (*graph_select)(const ng_graph_t *g, const char *key, const char *value, ng_op_t **out,
                            int32_t cap); /**< ng_graph_select() */
    ng_status_t (*graph_dot)(const ng_graph_t *g, ng_op_t *const *roots, int32_t n, char *buf,
                             size_t cap, size_t *needed); /**< ng_graph_dot() */
    ng_status_t (*graph_write_dot)(const ng_graph_t *g, ng_op_t *const *roots, int32_t n,
                                   const char *path); /**< ng_graph_write_dot() */
    const ng_axis_t *(*axis)(ng_graph_t *g, const char *name, int64_t length); /**< ng_axis() */
    const char *(*axis_name)(const ng_axis_t *a);       /**< ng_axis_name() */
    int64_t (*axis_length)(const ng_axis_t *a);         /**< ng_axis_length() */
    int32_t (*axis_num_components)(const ng_axis_t *a); /**< ng_axis_num_components() */
    const ng_axis_t *(*axis_component)(const ng_axis_t *a, int32_t i); /**< ng_axis_component() */
    uint32_t (*op_flags)(const ng_op_t *op);                           /**< ng_op_flags() */
    const char *(*op_name)(const ng_op_t *op);                         /**< ng_op_name() */
    ng_status_t (*op_set_name)(ng_op_t *op, const char *name);         /**< ng_op_set_name() */
    const char *(*op_type)(const ng_op_t *op);                         /**< ng_op_type() */
    ng_dtype_t (*op_dtype)(const ng_op_t *op);                         /**< ng_op_dtype() */
    int32_t (*op_rank)(const ng_op_t *op);                             /**< ng_op_rank() */
    const ng_axis_t *(*op_axis)(const ng_op_t *op, int32_t i);         /**< ng_op_axis() */
    int32_t (*op_num_args)(const ng_op_t *op);                         /**< ng_op_num_args() */
    ng_op_t *(*op_arg)(const ng_op_t *op, int32_t i);                  /**< ng_op_arg() */
    int32_t (*op_num_control_deps)(const ng_op_t *op);            /**< ng_op_num_control_deps() */
    ng_op_t *(*op_control_dep)(const ng_op_t *op, int32_t i);     /**< ng_op_control_dep() */
    ng_status_t (*op_add_control_dep)(ng_op_t *op, ng_op_t *dep); /**< ng_op_add_control_dep() */
    ng_op_t *(*op_initial_value)(const ng_op_t *op);              /**< ng_op_initial_value() */
    ng_graph_t *(*op_graph)(const ng_op_t *op);                   /**< ng_op_graph() */
    ng_status_t (*op_set_metadata)(ng_op_t *op, const char *key,
                                   const char *value);              /**< ng_op_set_metadata() */
    const char *(*op_metadata)(const ng_op_t *op, const char *key); /**< ng_op_metadata() */
    int32_t (*placeholders)(const ng_op_t *op, ng_op_t **out,
                            int32_t cap); /**< ng_placeholders() */

    /* ops.h */
    ng_op_t *(*constant)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t rank,
                         const void *data);                            /**< ng_constant() */
    ng_op_t *(*scalar)(ng_graph_t *g, double value);                   /**< ng_scalar() */
    ng_op_t *(*scalar_of)(ng_graph_t *g, ng_dtype_t dt, double value); /**< ng_scalar_of() */
    ng_op_t *(*placeholder)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, ng_op_t *initial_value); /**< ng_placeholder() */
    ng_op_t *(*persistent_tensor)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                  int32_t rank,
                                  ng_op_t *initial_value); /**< ng_persistent_tensor() */
    ng_op_t *(*variable)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t rank,
                         ng_op_t *initial_value); /**< ng_variable() */
    ng_op_t *(*assignable_tensor)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                  int32_t rank, uint32_t flags,
                                  ng_op_t *initial_value);            /**< ng_assignable_tensor() */
    ng_op_t *(*negative)(ng_graph_t *g, ng_op_t *x);                  /**< ng_negative() */
    ng_op_t *(*absolute)(ng_graph_t *g, ng_op_t *x);                  /**< ng_absolute() */
    ng_op_t *(*sign)(ng_graph_t *g, ng_op_t *x);                      /**< ng_sign() */
    ng_op_t *(*exp)(ng_graph_t *g, ng_op_t *x);                       /**< ng_exp() */
    ng_op_t *(*log)(ng_graph_t *g, ng_op_t *x);                       /**< ng_log() */
    ng_op_t *(*sqrt)(ng_graph_t *g, ng_op_t *x);                      /**< ng_sqrt() */
    ng_op_t *(*square)(ng_graph_t *g, ng_op_t *x);                    /**< ng_square() */
    ng_op_t *(*reciprocal)(ng_graph_t *g, ng_op_t *x);                /**< ng_reciprocal() */
    ng_op_t *(*sigmoid)(ng_graph_t *g, ng_op_t *x);                   /**< ng_sigmoid() */
    ng_op_t *(*relu)(ng_graph_t *g, ng_op_t *x);                      /**< ng_relu() */
    ng_op_t *(*sin)(ng_graph_t *g, ng_op_t *x);                       /**< ng_sin() */
    ng_op_t *(*cos)(ng_graph_t *g, ng_op_t *x);                       /**< ng_cos() */
    ng_op_t *(*tanh)(ng_graph_t *g, ng_op_t *x);                      /**< ng_tanh() */
    ng_op_t *(*stop_gradient)(ng_graph_t *g, ng_op_t *x);             /**< ng_stop_gradient() */
    ng_op_t *(*cast)(ng_graph_t *g, ng_op_t *x, ng_dtype_t dt);       /**< ng_cast() */
    ng_op_t *(*add)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);           /**< ng_add() */
    ng_op_t *(*subtract)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);      /**< ng_subtract() */
    ng_op_t *(*multiply)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);      /**< ng_multiply() */
    ng_op_t *(*divide)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);        /**< ng_divide() */
    ng_op_t *(*power)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);         /**< ng_power() */
    ng_op_t *(*maximum)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);       /**< ng_maximum() */
    ng_op_t *(*minimum)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);       /**< ng_minimum() */
    ng_op_t *(*equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);         /**< ng_equal() */
    ng_op_t *(*not_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);     /**< ng_not_equal() */
    ng_op_t *(*less)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);          /**< ng_less() */
    ng_op_t *(*less_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);    /**< ng_less_equal() */
    ng_op_t *(*greater)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);       /**< ng_greater() */
    ng_op_t *(*greater_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b); /**< ng_greater_equal() */
    ng_op_t *(*select)(ng_graph_t *g, ng_op_t *condition, ng_op_t *a,
                       ng_op_t *b); /**< ng_select() */
    ng_op_t *(*sum)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                    int32_t n); /**< ng_sum() */
    ng_op_t *(*max)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                    int32_t n); /**< ng_max() */
    ng_op_t *(*min)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                    int32_t n); /**< ng_min() */
    ng_op_t *(*mean)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                     int32_t n); /**< ng_mean() */
    ng_op_t *(*prod)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                     int32_t n); /**< ng_prod() */
    ng_op_t *(*variance)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                         int32_t n); /**< ng_variance() */
    ng_op_t *(*squared_l2)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                           int32_t n); /**< ng_squared_l2() */
    ng_op_t *(*l2_norm)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                        int32_t n); /**< ng_l2_norm() */
    ng_op_t *(*l1_norm)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                        int32_t n);                                       /**< ng_l1_norm() */
    ng_op_t *(*argmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis); /**< ng_argmax() */
    ng_op_t *(*argmin)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis); /**< ng_argmin() */
    ng_op_t *(*dot)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);               /**< ng_dot() */
    ng_op_t *(*softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                        int32_t n); /**< ng_softmax() */
    ng_op_t *(*log_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                            int32_t n); /**< ng_log_softmax() */
    ng_op_t *(*cross_entropy_multi)(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                    const ng_axis_t *const *axes,
                                    int32_t n); /**< ng_cross_entropy_multi() */
    ng_op_t *(*cross_entropy_binary)(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                     const ng_axis_t *const *axes,
                                     int32_t n); /**< ng_cross_entropy_binary() */
    ng_op_t *(*broadcast)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                          int32_t n); /**< ng_broadcast() */
    ng_op_t *(*axes_with_order)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                                int32_t n); /**< ng_axes_with_order() */
    ng_op_t *(*cast_axes)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                          int32_t n); /**< ng_cast_axes() */
    ng_op_t *(*expand_dims)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis,
                            int32_t position); /**< ng_expand_dims() */
    ng_op_t *(*slice)(ng_graph_t *g, ng_op_t *x, const ng_slice_t *specs,
                      int32_t n); /**< ng_slice() */
    ng_op_t *(*pad)(ng_graph_t *g, ng_op_t *x, const int64_t *before, const int64_t *after,
                    int32_t n); /**< ng_pad() */
    ng_op_t *(*flatten)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n,
                        const char *name);            /**< ng_flatten() */
    ng_op_t *(*unflatten)(ng_graph_t *g, ng_op_t *x); /**< ng_unflatten() */
    ng_op_t *(*reshape)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes,
                        int32_t n); /**< ng_reshape() */
    ng_op_t *(*concat)(ng_graph_t *g, ng_op_t *const *ops, int32_t n,
                       const char *axis_name); /**< ng_concat() */
    ng_op_t *(*stack)(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const ng_axis_t *axis,
                      int32_t position); /**< ng_stack() */
    ng_op_t *(*one_hot)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis,
                        ng_dtype_t dt);                                    /**< ng_one_hot() */
    ng_op_t *(*assign)(ng_graph_t *g, ng_op_t *lhs, ng_op_t *rhs);         /**< ng_assign() */
    ng_op_t *(*sequential)(ng_graph_t *g, ng_op_t *const *ops, int32_t n); /**< ng_sequential() */
    ng_op_t *(*assign_slice)(ng_graph_t *g, ng_op_t *lhs, const ng_slice_t *specs, int32_t n,
                             ng_op_t *rhs);                             /**< ng_assign_slice() */
    ng_op_t *(*fill)(ng_graph_t *g, ng_op_t *persistent, double value); /**< ng_fill() */
    ng_op_t *(*value_of)(ng_graph_t *g, ng_op_t *persistent);           /**< ng_value_of() */

    /* segment.h */
    ng_op_t *(*segment_sum)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments); /**< ng_segment_sum() */
    ng_op_t *(*segment_mean)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                             const ng_axis_t *segments); /**< ng_segment_mean() */
    ng_op_t *(*segment_max)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments); /**< ng_segment_max() */
    ng_op_t *(*segment_min)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments); /**< ng_segment_min() */
    ng_op_t *(*segment_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                                const ng_axis_t *segments); /**< ng_segment_softmax() */
    ng_op_t *(*segment_log_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                    ng_op_t *splits,
                                    const ng_axis_t *segments); /**< ng_segment_log_softmax() */
    ng_op_t *(*segment_gather)(ng_graph_t *g, ng_op_t *y, const ng_axis_t *segments,
                               ng_op_t *splits, const ng_axis_t *along); /**< ng_segment_gather() */

    /* autodiff.h */
    ng_op_t *(*deriv)(ng_graph_t *g, ng_op_t *cost, ng_op_t *wrt);            /**< ng_deriv() */
    ng_op_t *(*vjp)(ng_graph_t *g, ng_op_t *y, ng_op_t *error, ng_op_t *wrt); /**< ng_vjp() */
    int32_t (*variables)(const ng_op_t *op, ng_op_t **out, int32_t cap);      /**< ng_variables() */

    /* exec.h */
    ng_transformer_t *(*transformer_create)(const char *backend); /**< ng_transformer_create() */
    void (*transformer_destroy)(ng_transformer_t *t);             /**< ng_transformer_destroy() */
    ng_status_t (*transformer_set_num_threads)(
        ng_transformer_t *t, int32_t threads); /**< ng_transformer_set_num_threads() */
    int32_t (*transformer_num_threads)(
        const ng_transformer_t *t); /**< ng_transformer_num_threads() */
    ng_computation_t *(*computation_create)(ng_transformer_t *t, ng_op_t *const *results,
                                            int32_t nresults, ng_op_t *const *params,
                                            int32_t nparams); /**< ng_computation_create() */
    void (*computation_destroy)(ng_computation_t *c);         /**< ng_computation_destroy() */
    int32_t (*computation_num_params)(
        const ng_computation_t *c); /**< ng_computation_num_params() */
    int32_t (*computation_num_results)(
        const ng_computation_t *c); /**< ng_computation_num_results() */
    const char *(*computation_param_name)(const ng_computation_t *c,
                                          int32_t i); /**< ng_computation_param_name() */
    ng_dtype_t (*computation_param_dtype)(const ng_computation_t *c,
                                          int32_t i); /**< ng_computation_param_dtype() */
    int32_t (*computation_param_rank)(const ng_computation_t *c,
                                      int32_t i); /**< ng_computation_param_rank() */
    const char *(*computation_param_axis_name)(
        const ng_computation_t *c, int32_t i,
        int32_t axis); /**< ng_computation_param_axis_name() */
    int64_t (*computation_param_axis_length)(
        const ng_computation_t *c, int32_t i,
        int32_t axis); /**< ng_computation_param_axis_length() */
    const char *(*computation_result_name)(const ng_computation_t *c,
                                           int32_t i); /**< ng_computation_result_name() */
    ng_dtype_t (*computation_result_dtype)(const ng_computation_t *c,
                                           int32_t i); /**< ng_computation_result_dtype() */
    int32_t (*computation_result_rank)(const ng_computation_t *c,
                                       int32_t i); /**< ng_computation_result_rank() */
    const char *(*computation_result_axis_name)(
        const ng_computation_t *c, int32_t i,
        int32_t axis); /**< ng_computation_result_axis_name() */
    int64_t (*computation_result_axis_length)(
        const ng_computation_t *c, int32_t i,
        int32_t axis); /**< ng_computation_result_axis_length() */
    ng_status_t (*computation_run)(ng_computation_t *c, ng_tensor_t *const *inputs,
                                   int32_t num_inputs, ng_tensor_t **outputs,
                                   int32_t num_outputs); /**< ng_computation_run() */
    ng_status_t (*computation_stats)(const ng_computation_t *c,
                                     ng_computation_stats_t *out); /**< ng_computation_stats() */
    ng_status_t (*transformer_get_value)(ng_transformer_t *t, const ng_op_t *persistent,
                                         ng_tensor_t **out); /**< ng_transformer_get_value() */
    ng_status_t (*transformer_set_value)(
        ng_transformer_t *t, const ng_op_t *persistent,
        const ng_tensor_t *value); /**< ng_transformer_set_value() */

    /* train.h */
    ng_status_t (*sgd_options_init)(ng_sgd_options_t *options,
                                    size_t struct_size); /**< ng_sgd_options_init() */
    ng_op_t *(*sgd)(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                    const ng_sgd_options_t *options); /**< ng_sgd() */
    ng_status_t (*adam_options_init)(ng_adam_options_t *options,
                                     size_t struct_size); /**< ng_adam_options_init() */
    ng_op_t *(*adam)(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                     const ng_adam_options_t *options); /**< ng_adam() */
    ng_op_t *(*initializer_uniform)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                    int32_t rank, double low, double high,
                                    uint64_t seed); /**< ng_initializer_uniform() */
    ng_op_t *(*initializer_normal)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                   int32_t rank, double mean, double stddev,
                                   uint64_t seed); /**< ng_initializer_normal() */
    ng_op_t *(*initializer_glorot_uniform)(ng_graph_t *g, ng_dtype_t dt,
                                           const ng_axis_t *const *axes, int32_t rank,
                                           const ng_axis_t *const *fan_in_axes, int32_t fan_in_rank,
                                           uint64_t seed); /**< ng_initializer_glorot_uniform() */
    ng_op_t *(*initializer_he_normal)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                      int32_t rank, const ng_axis_t *const *fan_in_axes,
                                      int32_t fan_in_rank,
                                      uint64_t seed); /**< ng_initializer_he_normal() */

    /* onnx.h */
    void (*free)(void *p); /**< ng_free() */
    ng_status_t (*onnx_export_file)(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                    ng_op_t *const *params, int32_t num_params,
                                    const char *path); /**< ng_onnx_export_file() */
    ng_status_t (*onnx_export_bytes)(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                     ng_op_t *const *params, int32_t num_params, void **bytes,
                                     size_t *size); /**< ng_onnx_export_bytes() */
    ng_status_t (*onnx_export_trained_file)(ng_transformer_t *t, ng_graph_t *g,
                                            ng_op_t *const *results, int32_t num_results,
                                            ng_op_t *const *params, int32_t num_params,
                                            const char *path); /**< ng_onnx_export_trained_file() */
    ng_graph_t *(*onnx_import_file)(const char *path, const char *const *dim_names,
                                    const int64_t *dim_lengths,
                                    int32_t num_dims); /**< ng_onnx_import_file() */
    ng_graph_t *(*onnx_import_bytes)(const void *bytes, size_t size, const char *const *dim_names,
                                     const int64_t *dim_lengths, int32_t num_dims,
                                     uint32_t options); /**< ng_onnx_import_bytes() */
    ng_graph_t *(*onnx_import_file_with)(const char *path, const char *const *dim_names,
                                         const int64_t *dim_lengths, int32_t num_dims,
                                         uint32_t options); /**< ng_onnx_import_file_with() */
    /* Version 2: TensorProto serialization, random ops, checkpoints, the per-transformer
     * allocator. */
    ng_status_t (*tensor_serialize)(const ng_tensor_t *t, void **bytes,
                                    size_t *size); /**< ng_tensor_serialize() */
    ng_tensor_t *(*tensor_deserialize)(const void *bytes,
                                       size_t size); /**< ng_tensor_deserialize() */
    ng_op_t *(*uniform)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                        double low, double high); /**< ng_uniform() */
    ng_op_t *(*normal)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t n,
                       double mean, double stddev); /**< ng_normal() */
    ng_status_t (*transformer_set_seed)(ng_transformer_t *t,
                                        uint64_t seed); /**< ng_transformer_set_seed() */
    ng_status_t (*transformer_save)(ng_transformer_t *t,
                                    const char *path); /**< ng_transformer_save() */
    ng_status_t (*transformer_load)(ng_transformer_t *t,
                                    const char *path); /**< ng_transformer_load() */
    ng_status_t (*transformer_set_allocator)(
        ng_transformer_t *t,
        const ng_allocator_t *allocator); /**< ng_transformer_set_allocator() */
    /* Version 3: gather. */
    ng_op_t *(*gather)(ng_graph_t *g, ng_op_t *params, ng_op_t *indices,
                       const ng_axis_t *axis); /**< ng_gather() */
} ng_api_t;

/**
 * @brief The function table for a version of this API.
 * @param version The version the caller was built against: ::NG_API_VERSION.
 * @return A table owned by the library, valid until it is unloaded; NULL with
 *         ::NG_ERR_UNSUPPORTED for a version newer than the library's, ::NG_ERR_INVALID_ARGUMENT
 *         for 0.
 */
NG_API const ng_api_t *ng_get_api(uint32_t version);

#ifdef __cplusplus
}
#endif

#endif
