/* A frozen copy of version 1 of nanograph's function table and the types it uses, as the
 * public headers declared them when version 1 was published. DO NOT EDIT: this file stands for a
 * host compiled back then. tests/abi/test_abi_v1.c, built against this file alone, checks that
 * every later library still serves it (new entries are appended after these, never in between).
 */
#ifndef NANOGRAPH_ABI_V1_H
#define NANOGRAPH_ABI_V1_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- from nanograph/base.h ---- */
#if defined(NG_STATIC)
#define NG_API
#elif defined(_WIN32)
#if defined(NG_BUILDING_LIBRARY)
#define NG_API __declspec(dllexport)
#else
#define NG_API __declspec(dllimport)
#endif
#else

#define NG_API __attribute__((visibility("default")))
#endif

#define NG_VERSION_MAJOR 0
#define NG_VERSION_MINOR 1
#define NG_VERSION_PATCH 0
#define NG_VERSION_STRING "0.1.0"

typedef int32_t ng_status_t;

enum ng_status_code {
    NG_OK = 0,
    NG_ERR_INVALID_ARGUMENT = 1,
    NG_ERR_AXES = 2,
    NG_ERR_DTYPE = 3,
    NG_ERR_OUT_OF_MEMORY = 4,
    NG_ERR_NOT_FOUND = 5,
    NG_ERR_UNSUPPORTED = 6,
    NG_ERR_STATE = 7,
    NG_ERR_IO = 8,
    NG_ERR_FORMAT = 9,
    NG_ERR_INTERNAL = 10,

    NG_STATUS_SIGNED_ = -2147483647 - 1
};

typedef int32_t ng_dtype_t;

enum ng_dtype_code {
    NG_BOOL = 1,
    NG_INT32 = 2,
    NG_INT64 = 3,
    NG_UINT8 = 4,
    NG_FLOAT32 = 5,
    NG_FLOAT64 = 6,

    NG_DTYPE_SIGNED_ = -2147483647 - 1
};

typedef struct ng_allocator {
    size_t struct_size;

    void *(*allocate)(size_t bytes, size_t alignment, void *ctx);

    void (*deallocate)(void *p, size_t bytes, size_t alignment, void *ctx);
    void *ctx;
} ng_allocator_t;

typedef struct ng_graph ng_graph_t;

typedef struct ng_axis ng_axis_t;

typedef struct ng_op ng_op_t;

typedef struct ng_tensor ng_tensor_t;

typedef struct ng_transformer ng_transformer_t;

typedef struct ng_computation ng_computation_t;

/* ---- from nanograph/tensor.h ---- */
struct DLManagedTensor;

/* ---- from nanograph/shape.h ---- */
typedef struct ng_shape ng_shape_t;

typedef struct ng_shape_iter ng_shape_iter_t;

enum ng_shape_kind_code {
    NG_SHAPE_SMOOTH = 0,
    NG_SHAPE_JAGGED = 1,
    NG_SHAPE_NESTED = 2,

    NG_SHAPE_KIND_SIGNED_ = -2147483647 - 1
};

enum ng_index_mode_code {
    NG_INDEX_RELATIVE = 0,
    NG_INDEX_ABSOLUTE = 1,

    NG_INDEX_MODE_SIGNED_ = -2147483647 - 1
};

/* ---- from nanograph/jagged.h ---- */
typedef struct ng_jagged ng_jagged_t;

/* ---- from nanograph/graph.h ---- */
enum ng_op_flag {
    NG_FLAG_CONSTANT = 1,
    NG_FLAG_PERSISTENT = 2,
    NG_FLAG_TRAINABLE = 4,
    NG_FLAG_INPUT = 8
};

/* ---- from nanograph/ops.h ---- */
typedef struct ng_slice {
    int64_t start;
    int64_t stop;
    int64_t step;
    int32_t index_only;
} ng_slice_t;

/* ---- from nanograph/segment.h ---- */

/* ---- from nanograph/autodiff.h ---- */

/* ---- from nanograph/train.h ---- */
typedef struct ng_sgd_options {
    size_t struct_size;
    double momentum;
    int32_t nesterov;
    double weight_decay;
} ng_sgd_options_t;

typedef struct ng_adam_options {
    size_t struct_size;
    double beta1;
    double beta2;
    double epsilon;
    double weight_decay;
} ng_adam_options_t;

/* ---- from nanograph/exec.h ---- */
typedef struct ng_computation_stats {
    size_t struct_size;
    size_t arena_bytes;
    int32_t num_buffers;
    int32_t num_kernels;
    int32_t num_nodes;
    int32_t num_source_ops;
    size_t buffer_bytes;
} ng_computation_stats_t;

/* ---- from nanograph/onnx.h ---- */
#define NG_ONNX_TRAINABLE 1u

/* ---- from nanograph/api.h ---- */
#define NG_API_VERSION 1

typedef struct ng_api {
    int32_t (*version_number)(void);
    const char *(*version_string)(void);
    ng_status_t (*last_status)(void);
    const char *(*last_error)(void);
    const char *(*status_string)(ng_status_t status);
    size_t (*dtype_size)(ng_dtype_t dtype);
    const char *(*dtype_name)(ng_dtype_t dtype);
    ng_status_t (*set_allocator)(const ng_allocator_t *allocator);

    ng_tensor_t *(*tensor_create)(ng_dtype_t dt, const int64_t *shape, int32_t rank);
    ng_tensor_t *(*tensor_from_data)(ng_dtype_t dt, const int64_t *shape, int32_t rank,
                                     const void *data);
    ng_tensor_t *(*tensor_wrap)(ng_dtype_t dt, const int64_t *shape, const int64_t *strides,
                                int32_t rank, void *data, void (*)(void *data, void *ctx),
                                void *ctx);
    void (*tensor_retain)(ng_tensor_t *t);
    void (*tensor_release)(ng_tensor_t *t);
    ng_dtype_t (*tensor_dtype)(const ng_tensor_t *t);
    int32_t (*tensor_rank)(const ng_tensor_t *t);
    int64_t (*tensor_dim)(const ng_tensor_t *t, int32_t i);
    int64_t (*tensor_stride)(const ng_tensor_t *t, int32_t i);
    int64_t (*tensor_numel)(const ng_tensor_t *t);
    void *(*tensor_data)(ng_tensor_t *t);
    ng_status_t (*tensor_read)(const ng_tensor_t *t, void *dst, size_t dst_bytes);
    ng_status_t (*tensor_write)(ng_tensor_t *t, const void *src, size_t src_bytes);
    int32_t (*tensor_is_contiguous)(const ng_tensor_t *t);
    ng_tensor_t *(*tensor_copy)(const ng_tensor_t *t);
    ng_tensor_t *(*tensor_reshape)(ng_tensor_t *t, const int64_t *shape, int32_t rank);
    ng_tensor_t *(*tensor_permute)(ng_tensor_t *t, const int32_t *order, int32_t rank);
    ng_tensor_t *(*tensor_transpose)(ng_tensor_t *t);
    ng_tensor_t *(*tensor_slice)(ng_tensor_t *t, int32_t dim, int64_t start, int64_t stop,
                                 int64_t step);
    ng_tensor_t *(*tensor_broadcast)(ng_tensor_t *t, const int64_t *shape, int32_t rank);
    ng_status_t (*tensor_to_dlpack)(ng_tensor_t *t, struct DLManagedTensor **out);
    ng_tensor_t *(*tensor_from_dlpack)(struct DLManagedTensor *m);

    ng_shape_t *(*shape_smooth)(const int64_t *extents, int32_t rank);
    ng_shape_t *(*shape_jagged)(int64_t outer, int32_t rank, const int64_t *const *splits,
                                const int64_t *num_splits, const int64_t *extents);
    ng_shape_t *(*shape_nested)(const ng_shape_t *outer, const ng_shape_t *const *elements,
                                int64_t num_elements);
    void (*shape_retain)(ng_shape_t *s);
    void (*shape_release)(ng_shape_t *s);
    int32_t (*shape_kind)(const ng_shape_t *s);
    int32_t (*shape_rank)(const ng_shape_t *s);
    int64_t (*shape_numel)(const ng_shape_t *s);
    int64_t (*shape_extent)(const ng_shape_t *s, const int64_t *prefix, int32_t n);
    int32_t (*shape_mode_is_jagged)(const ng_shape_t *s, int32_t mode);
    int32_t (*shape_smooth_rank)(const ng_shape_t *s);
    int64_t (*shape_row_splits)(const ng_shape_t *s, int32_t mode, int64_t *out, int64_t cap);
    int32_t (*shape_equal)(const ng_shape_t *a, const ng_shape_t *b);
    ng_shape_t *(*shape_flatten)(const ng_shape_t *s);
    ng_shape_t *(*shape_outer)(const ng_shape_t *s);
    ng_shape_t *(*shape_element)(const ng_shape_t *s, int64_t i);
    ng_shape_t *(*shape_slice)(const ng_shape_t *s, int64_t start, int64_t stop);
    ng_shape_t *(*shape_at)(const ng_shape_t *s, const int64_t *prefix, int32_t n);
    int32_t (*shape_origin)(const ng_shape_t *s, int64_t *out, int32_t cap);
    ng_shape_t *(*shape_broadcast)(const ng_shape_t *a, const ng_shape_t *b);
    int64_t (*shape_text)(const ng_shape_t *s, char *out, size_t cap);
    ng_shape_iter_t *(*shape_iter_create)(const ng_shape_t *s, int32_t index_mode);
    void (*shape_iter_destroy)(ng_shape_iter_t *it);
    int32_t (*shape_iter_index_length)(const ng_shape_iter_t *it);
    int32_t (*shape_iter_next)(ng_shape_iter_t *it, int64_t *index, int32_t cap);
    ng_status_t (*shape_iter_reset)(ng_shape_iter_t *it);

    ng_jagged_t *(*jagged_create)(ng_dtype_t dt, const ng_shape_t *shape);
    ng_jagged_t *(*jagged_from_data)(ng_dtype_t dt, const ng_shape_t *shape, const void *values);
    ng_jagged_t *(*jagged_wrap)(ng_dtype_t dt, const ng_shape_t *shape, void *values,
                                void (*)(void *values, void *ctx), void *ctx);
    ng_jagged_t *(*jagged_from_values)(const ng_shape_t *shape, ng_tensor_t *values);
    void (*jagged_retain)(ng_jagged_t *j);
    void (*jagged_release)(ng_jagged_t *j);
    ng_dtype_t (*jagged_dtype)(const ng_jagged_t *j);
    ng_shape_t *(*jagged_shape)(const ng_jagged_t *j);
    ng_tensor_t *(*jagged_values)(ng_jagged_t *j);
    ng_tensor_t *(*jagged_row_splits)(const ng_jagged_t *j, int32_t mode);
    int64_t (*jagged_position)(const ng_jagged_t *j, const int64_t *index, int32_t n);
    ng_status_t (*jagged_read)(const ng_jagged_t *j, void *dst, size_t dst_bytes);
    ng_status_t (*jagged_write)(ng_jagged_t *j, const void *src, size_t src_bytes);
    ng_status_t (*jagged_to_padded)(const ng_jagged_t *j, ng_tensor_t **padded, ng_tensor_t **mask);
    ng_jagged_t *(*jagged_from_padded)(const ng_tensor_t *padded, const ng_tensor_t *mask);
    ng_jagged_t *(*jagged_slice)(ng_jagged_t *j, int64_t start, int64_t stop);
    ng_jagged_t *(*jagged_at)(ng_jagged_t *j, const int64_t *prefix, int32_t n);

    ng_graph_t *(*graph_create)(void);
    void (*graph_destroy)(ng_graph_t *g);
    ng_status_t (*graph_status)(const ng_graph_t *g);
    const char *(*graph_error)(const ng_graph_t *g);
    int32_t (*graph_num_ops)(const ng_graph_t *g);
    ng_op_t *(*graph_op)(const ng_graph_t *g, int32_t i);
    ng_op_t *(*graph_find)(const ng_graph_t *g, const char *name);
    int32_t (*graph_select)(const ng_graph_t *g, const char *key, const char *value, ng_op_t **out,
                            int32_t cap);
    ng_status_t (*graph_dot)(const ng_graph_t *g, ng_op_t *const *roots, int32_t n, char *buf,
                             size_t cap, size_t *needed);
    ng_status_t (*graph_write_dot)(const ng_graph_t *g, ng_op_t *const *roots, int32_t n,
                                   const char *path);
    const ng_axis_t *(*axis)(ng_graph_t *g, const char *name, int64_t length);
    const char *(*axis_name)(const ng_axis_t *a);
    int64_t (*axis_length)(const ng_axis_t *a);
    int32_t (*axis_num_components)(const ng_axis_t *a);
    const ng_axis_t *(*axis_component)(const ng_axis_t *a, int32_t i);
    uint32_t (*op_flags)(const ng_op_t *op);
    const char *(*op_name)(const ng_op_t *op);
    ng_status_t (*op_set_name)(ng_op_t *op, const char *name);
    const char *(*op_type)(const ng_op_t *op);
    ng_dtype_t (*op_dtype)(const ng_op_t *op);
    int32_t (*op_rank)(const ng_op_t *op);
    const ng_axis_t *(*op_axis)(const ng_op_t *op, int32_t i);
    int32_t (*op_num_args)(const ng_op_t *op);
    ng_op_t *(*op_arg)(const ng_op_t *op, int32_t i);
    int32_t (*op_num_control_deps)(const ng_op_t *op);
    ng_op_t *(*op_control_dep)(const ng_op_t *op, int32_t i);
    ng_status_t (*op_add_control_dep)(ng_op_t *op, ng_op_t *dep);
    ng_op_t *(*op_initial_value)(const ng_op_t *op);
    ng_graph_t *(*op_graph)(const ng_op_t *op);
    ng_status_t (*op_set_metadata)(ng_op_t *op, const char *key, const char *value);
    const char *(*op_metadata)(const ng_op_t *op, const char *key);
    int32_t (*placeholders)(const ng_op_t *op, ng_op_t **out, int32_t cap);

    ng_op_t *(*constant)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t rank,
                         const void *data);
    ng_op_t *(*scalar)(ng_graph_t *g, double value);
    ng_op_t *(*scalar_of)(ng_graph_t *g, ng_dtype_t dt, double value);
    ng_op_t *(*placeholder)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                            int32_t rank, ng_op_t *initial_value);
    ng_op_t *(*persistent_tensor)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                  int32_t rank, ng_op_t *initial_value);
    ng_op_t *(*variable)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes, int32_t rank,
                         ng_op_t *initial_value);
    ng_op_t *(*assignable_tensor)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                  int32_t rank, uint32_t flags, ng_op_t *initial_value);
    ng_op_t *(*negative)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*absolute)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*sign)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*exp)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*log)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*sqrt)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*square)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*reciprocal)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*sigmoid)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*relu)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*sin)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*cos)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*tanh)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*stop_gradient)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*cast)(ng_graph_t *g, ng_op_t *x, ng_dtype_t dt);
    ng_op_t *(*add)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*subtract)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*multiply)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*divide)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*power)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*maximum)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*minimum)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*not_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*less)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*less_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*greater)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*greater_equal)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*select)(ng_graph_t *g, ng_op_t *condition, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*sum)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*max)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*min)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*mean)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*prod)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*variance)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*squared_l2)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*l2_norm)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*l1_norm)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*argmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis);
    ng_op_t *(*argmin)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis);
    ng_op_t *(*dot)(ng_graph_t *g, ng_op_t *a, ng_op_t *b);
    ng_op_t *(*softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*log_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*cross_entropy_multi)(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                    const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*cross_entropy_binary)(ng_graph_t *g, ng_op_t *y, ng_op_t *t,
                                     const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*broadcast)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*axes_with_order)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*cast_axes)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*expand_dims)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, int32_t position);
    ng_op_t *(*slice)(ng_graph_t *g, ng_op_t *x, const ng_slice_t *specs, int32_t n);
    ng_op_t *(*pad)(ng_graph_t *g, ng_op_t *x, const int64_t *before, const int64_t *after,
                    int32_t n);
    ng_op_t *(*flatten)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n,
                        const char *name);
    ng_op_t *(*unflatten)(ng_graph_t *g, ng_op_t *x);
    ng_op_t *(*reshape)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const *axes, int32_t n);
    ng_op_t *(*concat)(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const char *axis_name);
    ng_op_t *(*stack)(ng_graph_t *g, ng_op_t *const *ops, int32_t n, const ng_axis_t *axis,
                      int32_t position);
    ng_op_t *(*one_hot)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *axis, ng_dtype_t dt);
    ng_op_t *(*assign)(ng_graph_t *g, ng_op_t *lhs, ng_op_t *rhs);
    ng_op_t *(*sequential)(ng_graph_t *g, ng_op_t *const *ops, int32_t n);
    ng_op_t *(*assign_slice)(ng_graph_t *g, ng_op_t *lhs, const ng_slice_t *specs, int32_t n,
                             ng_op_t *rhs);
    ng_op_t *(*fill)(ng_graph_t *g, ng_op_t *persistent, double value);
    ng_op_t *(*value_of)(ng_graph_t *g, ng_op_t *persistent);

    ng_op_t *(*segment_sum)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments);
    ng_op_t *(*segment_mean)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                             const ng_axis_t *segments);
    ng_op_t *(*segment_max)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments);
    ng_op_t *(*segment_min)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                            const ng_axis_t *segments);
    ng_op_t *(*segment_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                                const ng_axis_t *segments);
    ng_op_t *(*segment_log_softmax)(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                    ng_op_t *splits, const ng_axis_t *segments);
    ng_op_t *(*segment_gather)(ng_graph_t *g, ng_op_t *y, const ng_axis_t *segments,
                               ng_op_t *splits, const ng_axis_t *along);

    ng_op_t *(*deriv)(ng_graph_t *g, ng_op_t *cost, ng_op_t *wrt);
    ng_op_t *(*vjp)(ng_graph_t *g, ng_op_t *y, ng_op_t *error, ng_op_t *wrt);
    int32_t (*variables)(const ng_op_t *op, ng_op_t **out, int32_t cap);

    ng_transformer_t *(*transformer_create)(const char *backend);
    void (*transformer_destroy)(ng_transformer_t *t);
    ng_status_t (*transformer_set_num_threads)(ng_transformer_t *t, int32_t threads);
    int32_t (*transformer_num_threads)(const ng_transformer_t *t);
    ng_computation_t *(*computation_create)(ng_transformer_t *t, ng_op_t *const *results,
                                            int32_t nresults, ng_op_t *const *params,
                                            int32_t nparams);
    void (*computation_destroy)(ng_computation_t *c);
    int32_t (*computation_num_params)(const ng_computation_t *c);
    int32_t (*computation_num_results)(const ng_computation_t *c);
    const char *(*computation_param_name)(const ng_computation_t *c, int32_t i);
    ng_dtype_t (*computation_param_dtype)(const ng_computation_t *c, int32_t i);
    int32_t (*computation_param_rank)(const ng_computation_t *c, int32_t i);
    const char *(*computation_param_axis_name)(const ng_computation_t *c, int32_t i, int32_t axis);
    int64_t (*computation_param_axis_length)(const ng_computation_t *c, int32_t i, int32_t axis);
    const char *(*computation_result_name)(const ng_computation_t *c, int32_t i);
    ng_dtype_t (*computation_result_dtype)(const ng_computation_t *c, int32_t i);
    int32_t (*computation_result_rank)(const ng_computation_t *c, int32_t i);
    const char *(*computation_result_axis_name)(const ng_computation_t *c, int32_t i, int32_t axis);
    int64_t (*computation_result_axis_length)(const ng_computation_t *c, int32_t i, int32_t axis);
    ng_status_t (*computation_run)(ng_computation_t *c, ng_tensor_t *const *inputs,
                                   int32_t num_inputs, ng_tensor_t **outputs, int32_t num_outputs);
    ng_status_t (*computation_stats)(const ng_computation_t *c, ng_computation_stats_t *out);
    ng_status_t (*transformer_get_value)(ng_transformer_t *t, const ng_op_t *persistent,
                                         ng_tensor_t **out);
    ng_status_t (*transformer_set_value)(ng_transformer_t *t, const ng_op_t *persistent,
                                         const ng_tensor_t *value);

    ng_status_t (*sgd_options_init)(ng_sgd_options_t *options, size_t struct_size);
    ng_op_t *(*sgd)(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                    const ng_sgd_options_t *options);
    ng_status_t (*adam_options_init)(ng_adam_options_t *options, size_t struct_size);
    ng_op_t *(*adam)(ng_graph_t *g, ng_op_t *cost, ng_op_t *learning_rate,
                     const ng_adam_options_t *options);
    ng_op_t *(*initializer_uniform)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                    int32_t rank, double low, double high, uint64_t seed);
    ng_op_t *(*initializer_normal)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                   int32_t rank, double mean, double stddev, uint64_t seed);
    ng_op_t *(*initializer_glorot_uniform)(ng_graph_t *g, ng_dtype_t dt,
                                           const ng_axis_t *const *axes, int32_t rank,
                                           const ng_axis_t *const *fan_in_axes, int32_t fan_in_rank,
                                           uint64_t seed);
    ng_op_t *(*initializer_he_normal)(ng_graph_t *g, ng_dtype_t dt, const ng_axis_t *const *axes,
                                      int32_t rank, const ng_axis_t *const *fan_in_axes,
                                      int32_t fan_in_rank, uint64_t seed);

    void (*free)(void *p);
    ng_status_t (*onnx_export_file)(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                    ng_op_t *const *params, int32_t num_params, const char *path);
    ng_status_t (*onnx_export_bytes)(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                     ng_op_t *const *params, int32_t num_params, void **bytes,
                                     size_t *size);
    ng_status_t (*onnx_export_trained_file)(ng_transformer_t *t, ng_graph_t *g,
                                            ng_op_t *const *results, int32_t num_results,
                                            ng_op_t *const *params, int32_t num_params,
                                            const char *path);
    ng_graph_t *(*onnx_import_file)(const char *path, const char *const *dim_names,
                                    const int64_t *dim_lengths, int32_t num_dims);
    ng_graph_t *(*onnx_import_bytes)(const void *bytes, size_t size, const char *const *dim_names,
                                     const int64_t *dim_lengths, int32_t num_dims,
                                     uint32_t options);
    ng_graph_t *(*onnx_import_file_with)(const char *path, const char *const *dim_names,
                                         const int64_t *dim_lengths, int32_t num_dims,
                                         uint32_t options);
} ng_api_t;

/* ng_get_api as a host resolves it with dlsym. */
typedef const ng_api_t *(*ng_get_api_fn)(uint32_t version);

#ifdef __cplusplus
}
#endif

#endif
