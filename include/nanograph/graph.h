/**
 * @file graph.h
 * @brief Graphs, named axes, op attributes and graph queries.
 *
 * A graph owns its ops and axes: their handles stay valid until ng_graph_destroy(). An op's value
 * is a tensor described by a dtype and an ordered list of named axes (see docs/axes.md for the
 * alignment rules). Ops are built with the functions of ops.h.
 *
 * A graph remembers its first construction error (ng_graph_status(), ng_graph_error()): every op
 * builder that fails, including one given a NULL argument, returns NULL and records its error in
 * the graph, so a program may build a whole graph and check once.
 */
#ifndef NANOGRAPH_GRAPH_H
#define NANOGRAPH_GRAPH_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Graphs */
/**@{*/

/**
 * @brief Creates an empty graph.
 * @return A new graph (destroy with ng_graph_destroy()), or NULL with ::NG_ERR_OUT_OF_MEMORY.
 */
NG_API ng_graph_t *ng_graph_create(void);

/**
 * @brief Destroys a graph with all its ops and axes; their handles become invalid.
 * @param g The graph, or NULL. Computations compiled from it stay usable (they hold their own
 * copy).
 */
NG_API void ng_graph_destroy(ng_graph_t *g);

/**
 * @brief The graph's first construction error.
 * @param g The graph.
 * @return ::NG_OK when every op builder call on the graph succeeded so far, otherwise the status of
 *         the first one that failed; ::NG_ERR_INVALID_ARGUMENT when g is NULL or not a graph.
 */
NG_API ng_status_t ng_graph_status(const ng_graph_t *g);

/**
 * @brief The message of the graph's first construction error ("ng_add: axes C(4) and C(3) share a
 *        name but not a length").
 * @param g The graph.
 * @return A string owned by the graph, "" when there was no error; NULL with
 *         ::NG_ERR_INVALID_ARGUMENT when g is NULL or not a graph.
 */
NG_API const char *ng_graph_error(const ng_graph_t *g);

/**
 * @brief The number of ops in the graph.
 * @param g The graph.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT when g is NULL or not a graph.
 */
NG_API int32_t ng_graph_num_ops(const ng_graph_t *g);

/**
 * @brief The i-th op of the graph, in creation order.
 * @param g The graph.
 * @param i 0 <= i < ng_graph_num_ops(g).
 * @return The op (owned by the graph), or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad graph or
 * index.
 */
NG_API ng_op_t *ng_graph_op(const ng_graph_t *g, int32_t i);

/**
 * @brief Finds an op by its name.
 * @param g The graph.
 * @param name The name (see ng_op_name()).
 * @return The op, or NULL: ::NG_ERR_NOT_FOUND when no op has that name, ::NG_ERR_INVALID_ARGUMENT
 *         for NULL arguments.
 */
NG_API ng_op_t *ng_graph_find(const ng_graph_t *g, const char *name);

/**
 * @brief Selects ops by metadata (e.g. stochastic=dropout).
 * @param g The graph.
 * @param key The metadata key.
 * @param value The value to match, or NULL to select every op that has the key.
 * @param out Receives up to cap ops, in creation order; may be NULL when cap is 0.
 * @param cap Capacity of out.
 * @return The number of matching ops (which may exceed cap), or -1 with ::NG_ERR_INVALID_ARGUMENT
 *         for NULL arguments or a negative cap.
 */
NG_API int32_t ng_graph_select(const ng_graph_t *g, const char *key, const char *value,
                               ng_op_t **out, int32_t cap);

/**
 * @brief Writes a Graphviz DOT description of the graph into a buffer (snprintf style).
 *
 * One node per op labelled with its name, type, dtype and axes (assignable tensors are boxes
 * coloured by kind); data edges are solid (labelled with the argument position when an op has
 * several), control dependencies dashed, initial values dotted. Render with `dot -Tsvg`.
 * @param g The graph.
 * @param roots Ops whose upstream graph (initial values included) is written; NULL with n == 0
 *        writes the whole graph.
 * @param n Number of roots.
 * @param buf Receives the NUL-terminated text, truncated to cap - 1 characters; may be NULL when
 * cap is 0.
 * @param cap Capacity of buf in bytes.
 * @param needed When not NULL, receives the size the whole text needs, terminating NUL included
 *        (0 on failure).
 * @return ::NG_OK (also when the text was truncated: compare *needed with cap);
 *         ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles or a negative n.
 */
NG_API ng_status_t ng_graph_dot(const ng_graph_t *g, ng_op_t *const *roots, int32_t n, char *buf,
                                size_t cap, size_t *needed);

/**
 * @brief Writes the DOT description of ng_graph_dot() to a file.
 * @param g The graph.
 * @param roots As for ng_graph_dot(); NULL with n == 0 writes the whole graph.
 * @param n Number of roots.
 * @param path The file to create or overwrite.
 * @return ::NG_OK; ::NG_ERR_IO when the file cannot be written (the message names it);
 *         ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles.
 */
NG_API ng_status_t ng_graph_write_dot(const ng_graph_t *g, ng_op_t *const *roots, int32_t n,
                                      const char *path);

/**@}*/

/** @name Axes */
/**@{*/

/**
 * @brief The axis of the graph with this name and length.
 * @param g The graph.
 * @param name A non-empty name; axes of ops are matched by name (docs/axes.md).
 * @param length The length, 0 or more.
 * @return The axis, owned by the graph: the same handle for the same (name, length). NULL with
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL graph or name, an empty name or a negative length.
 */
NG_API const ng_axis_t *ng_axis(ng_graph_t *g, const char *name, int64_t length);

/**
 * @brief The name of an axis.
 * @param a The axis.
 * @return A string owned by the graph, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API const char *ng_axis_name(const ng_axis_t *a);

/**
 * @brief The length of an axis.
 * @param a The axis.
 * @return The length, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int64_t ng_axis_length(const ng_axis_t *a);

/**
 * @brief The number of axes a flattened axis was made of (see ng_flatten()).
 * @param a The axis.
 * @return The count (0 for an axis that is not flattened), or -1 with ::NG_ERR_INVALID_ARGUMENT.
 */
NG_API int32_t ng_axis_num_components(const ng_axis_t *a);

/**
 * @brief The i-th axis a flattened axis was made of, in order.
 * @param a The axis.
 * @param i 0 <= i < ng_axis_num_components(a).
 * @return The component axis, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle or index.
 */
NG_API const ng_axis_t *ng_axis_component(const ng_axis_t *a, int32_t i);

/**@}*/

/** @name Op attributes */
/**@{*/

/** @brief Flags of an assignable tensor; ng_op_flags() returns their union (a uint32_t, the
 * type these constants get). */
enum ng_op_flag {
    NG_FLAG_CONSTANT = 1, /**< Immutable, may be inlined (ng_constant()). */
    NG_FLAG_PERSISTENT =
        2, /**< The value is kept by the transformer across runs (every assignable tensor). */
    NG_FLAG_TRAINABLE = 4, /**< Listed by ng_variables() (ng_variable()). */
    NG_FLAG_INPUT = 8      /**< Its value may be passed in at run time (ng_placeholder()). */
};

/**
 * @brief The flags of an op.
 * @param op The op.
 * @return The NG_FLAG_* union for an assignable tensor, 0 for any other op; 0 with
 *         ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API uint32_t ng_op_flags(const ng_op_t *op);

/**
 * @brief The name of an op, unique in its graph ("Add", "Add_1", ... unless set).
 * @param op The op.
 * @return A string owned by the graph, valid until the op is renamed; NULL with
 *         ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API const char *ng_op_name(const ng_op_t *op);

/**
 * @brief Renames an op.
 * @param op The op.
 * @param name A non-empty name no other op of the graph has.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments, an empty name or a name already
 * used.
 */
NG_API ng_status_t ng_op_set_name(ng_op_t *op, const char *name);

/**
 * @brief The type of an op: "Add", "Dot", "Tanh", ...; assignable tensors are "Constant",
 *        "Placeholder", "Variable" or "PersistentTensor" after their flags.
 * @param op The op.
 * @return A static string, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API const char *ng_op_type(const ng_op_t *op);

/**
 * @brief The dtype of an op's value.
 * @param op The op.
 * @return The dtype, or 0 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_dtype_t ng_op_dtype(const ng_op_t *op);

/**
 * @brief The number of axes of an op's value.
 * @param op The op.
 * @return The rank, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_op_rank(const ng_op_t *op);

/**
 * @brief The i-th axis of an op's value.
 * @param op The op.
 * @param i 0 <= i < ng_op_rank(op).
 * @return The axis, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle or index.
 */
NG_API const ng_axis_t *ng_op_axis(const ng_op_t *op, int32_t i);

/**
 * @brief The number of data arguments of an op.
 * @param op The op.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_op_num_args(const ng_op_t *op);

/**
 * @brief The i-th data argument of an op.
 * @param op The op.
 * @param i 0 <= i < ng_op_num_args(op).
 * @return The argument, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle or index.
 */
NG_API ng_op_t *ng_op_arg(const ng_op_t *op, int32_t i);

/**
 * @brief The number of control dependencies of an op (ops that must run before it).
 * @param op The op.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_op_num_control_deps(const ng_op_t *op);

/**
 * @brief The i-th control dependency of an op.
 * @param op The op.
 * @param i 0 <= i < ng_op_num_control_deps(op).
 * @return The op, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle or index.
 */
NG_API ng_op_t *ng_op_control_dep(const ng_op_t *op, int32_t i);

/**
 * @brief Makes `dep` run before `op` whenever op runs (adding it twice has no further effect).
 * @param op The op.
 * @param dep An op of the same graph that does not depend on op.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles, or when dep is op or
 *         depends on it (the graph would get a cycle).
 */
NG_API ng_status_t ng_op_add_control_dep(ng_op_t *op, ng_op_t *dep);

/**
 * @brief The initial value of an assignable tensor.
 * @param op The op.
 * @return The initial-value op, or NULL: with ::NG_OK when op has none (a constant's value is its
 *         data), with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_op_t *ng_op_initial_value(const ng_op_t *op);

/**
 * @brief The graph an op belongs to.
 * @param op The op.
 * @return The graph, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_graph_t *ng_op_graph(const ng_op_t *op);

/**
 * @brief Sets (or replaces) a metadata entry of an op.
 * @param op The op.
 * @param key A non-empty key.
 * @param value The value; copied.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments or an empty key.
 */
NG_API ng_status_t ng_op_set_metadata(ng_op_t *op, const char *key, const char *value);

/**
 * @brief A metadata value of an op.
 * @param op The op.
 * @param key The key.
 * @return The value, owned by the op and valid until the entry is replaced; NULL with ::NG_OK when
 *         the key is absent, NULL with ::NG_ERR_INVALID_ARGUMENT for NULL arguments.
 */
NG_API const char *ng_op_metadata(const ng_op_t *op, const char *key);

/**
 * @brief The placeholders upstream of an op (through data arguments and control dependencies),
 *        in the order a depth-first walk first reaches them.
 * @param op The op.
 * @param out Receives up to cap placeholders; may be NULL when cap is 0.
 * @param cap Capacity of out.
 * @return The number of placeholders (which may exceed cap), or -1 with
 *         ::NG_ERR_INVALID_ARGUMENT for NULL arguments or a negative cap.
 */
NG_API int32_t ng_placeholders(const ng_op_t *op, ng_op_t **out, int32_t cap);

/**@}*/

#ifdef __cplusplus
}
#endif

#endif
