/**
 * @file onnx.h
 * @brief Graphs as ONNX models: export computations, import models (docs/onnx.md).
 *
 * ONNX describes tensors by positional dimensions, nanograph by named axes. An exported op's
 * tensor has the op's axes, in order, as its dimensions; where nanograph aligns operands by name,
 * the exporter transposes and unsqueezes them into the result's order first. An imported tensor
 * gets axes named by position ("d0", "d1", ... from the left), and ONNX's NumPy-style
 * broadcasting is carried out by renaming each operand's axes to the result's positions.
 */
#ifndef NANOGRAPH_ONNX_H
#define NANOGRAPH_ONNX_H

#include <stddef.h>

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Writes the computation of `results` from `params` as an ONNX model file (opset 13).
 *
 * The placeholders in `params` become the model's inputs and `results` its outputs, each named as
 * its op (ng_op_name()). Constants become initializers holding their data; variables and
 * persistent tensors become initializers holding their initial values (use
 * ng_onnx_export_trained_file() for the values a transformer holds). The ops of ops.h export,
 * except those that need state an ONNX model does not hold: ng_assign(), ng_fill(),
 * ng_assign_slice() and ng_sequential() (nothing to assign to), ng_uniform() and ng_normal() (no
 * generator to draw from). The segment ops of segment.h do not export either, nor an ng_one_hot()
 * of more than 2^24 classes (its classes would become too large an initializer).
 * @param g The graph of the ops.
 * @param results The ops to compute (1 or more).
 * @param num_results Number of results.
 * @param params The placeholders that become the model's inputs, in order; may be NULL when
 * num_params is 0.
 * @param num_params Number of params.
 * @param path The file to write (replaced when it exists).
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL or foreign handles, a param that is not a
 * placeholder or a placeholder the results need that is not a param; ::NG_ERR_UNSUPPORTED for an
 * op the exporter refuses (above; the message names it); ::NG_ERR_IO when the file cannot be
 * written.
 */
NG_API ng_status_t ng_onnx_export_file(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                       ng_op_t *const *params, int32_t num_params,
                                       const char *path);
/**
 * @brief As ng_onnx_export_file(), into memory.
 * @param g The graph of the ops.
 * @param results The ops to compute (1 or more).
 * @param num_results Number of results.
 * @param params The placeholders that become the model's inputs; may be NULL when num_params is 0.
 * @param num_params Number of params.
 * @param bytes Receives the serialized ModelProto, to be freed with ng_free(); NULL on failure.
 * @param size Receives its size in bytes; 0 on failure.
 * @return As ng_onnx_export_file(), without ::NG_ERR_IO.
 */
NG_API ng_status_t ng_onnx_export_bytes(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                        ng_op_t *const *params, int32_t num_params, void **bytes,
                                        size_t *size);
/**
 * @brief As ng_onnx_export_file(), with the values `t` holds for variables and persistent tensors
 * (a trained network): their initial values where `t` has none yet.
 * @param t The transformer holding the values.
 * @param g The graph of the ops.
 * @param results The ops to compute (1 or more).
 * @param num_results Number of results.
 * @param params The placeholders that become the model's inputs; may be NULL when num_params is 0.
 * @param num_params Number of params.
 * @param path The file to write.
 * @return As ng_onnx_export_file(); ::NG_ERR_INVALID_ARGUMENT also for a NULL or invalid t.
 */
NG_API ng_status_t ng_onnx_export_trained_file(ng_transformer_t *t, ng_graph_t *g,
                                               ng_op_t *const *results, int32_t num_results,
                                               ng_op_t *const *params, int32_t num_params,
                                               const char *path);

/** @brief Import option: float initializers become variables (ng_variable(), initialised to the
 * model's values) instead of constants, so the imported model can be trained further. */
#define NG_ONNX_TRAINABLE 1u

/**
 * @brief Reads an ONNX model file into a new graph.
 *
 * The model's inputs become placeholders and its outputs ops, each named as in the model
 * (ng_graph_find() finds them); initializers become constants. Every imported op has positional
 * axes "d0", "d1", ... (from the left) of its dimensions' lengths, so a placeholder takes a tensor
 * of the model's shape, in the model's order. Where ONNX passes a shape, axes, pads, a count or
 * a depth as an input tensor, its value must be known at import (an initializer or a Constant
 * node). docs/onnx.md lists the supported operators. The file is untrusted input: sizes, counts
 * and offsets are checked before anything is allocated or read.
 * @param path The model file.
 * @param dim_names Names of the model's symbolic dimensions (dim_param) to bind; may be NULL when
 * num_dims is 0.
 * @param dim_lengths Their lengths, in the same order.
 * @param num_dims Number of bound dimensions.
 * @return A new graph (destroy with ng_graph_destroy()), or NULL: ::NG_ERR_IO when the file cannot
 * be read; ::NG_ERR_FORMAT for bytes that are not a consistent model; ::NG_ERR_UNSUPPORTED naming
 * an operator (or an attribute, or a shape input computed at run time) the importer does not
 * support; ::NG_ERR_DTYPE for an element type nanograph lacks; ::NG_ERR_INVALID_ARGUMENT for NULL
 * arguments, a negative length or a symbolic dimension left unbound; ::NG_ERR_AXES for shapes
 * that do not fit together.
 */
NG_API ng_graph_t *ng_onnx_import_file(const char *path, const char *const *dim_names,
                                       const int64_t *dim_lengths, int32_t num_dims);
/**
 * @brief As ng_onnx_import_file(), from memory and with options.
 * @param bytes The serialized ModelProto; may be NULL when size is 0.
 * @param size Its size in bytes.
 * @param dim_names Names of the symbolic dimensions to bind; may be NULL when num_dims is 0.
 * @param dim_lengths Their lengths.
 * @param num_dims Number of bound dimensions.
 * @param options 0 or ::NG_ONNX_TRAINABLE.
 * @return As ng_onnx_import_file() (without ::NG_ERR_IO); ::NG_ERR_INVALID_ARGUMENT also for an
 * unknown option bit.
 */
NG_API ng_graph_t *ng_onnx_import_bytes(const void *bytes, size_t size,
                                        const char *const *dim_names, const int64_t *dim_lengths,
                                        int32_t num_dims, uint32_t options);
/**
 * @brief As ng_onnx_import_file(), with options.
 * @param path The model file.
 * @param dim_names Names of the symbolic dimensions to bind; may be NULL when num_dims is 0.
 * @param dim_lengths Their lengths.
 * @param num_dims Number of bound dimensions.
 * @param options 0 or ::NG_ONNX_TRAINABLE.
 * @return As ng_onnx_import_file(); ::NG_ERR_INVALID_ARGUMENT also for an unknown option bit.
 */
NG_API ng_graph_t *ng_onnx_import_file_with(const char *path, const char *const *dim_names,
                                            const int64_t *dim_lengths, int32_t num_dims,
                                            uint32_t options);

#ifdef __cplusplus
}
#endif

#endif
