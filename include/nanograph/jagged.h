/**
 * @file jagged.h
 * @brief Jagged host tensors: values over a smooth or jagged shape, never padded.
 *
 * A jagged tensor is a dtype, a shape (see shape.h; never nested) and one value per index of the
 * shape, stored in the shape's row-major order as a rank-1 tensor of ng_shape_numel() elements:
 * the values of row i come right after those of row i-1, with nothing in between. Handles are
 * reference-counted like tensors; a slice is a view that shares the values.
 *
 * DLPack has no jagged form. A jagged tensor crosses as two (or more) ordinary tensors: its
 * values (ng_jagged_values(), rank 1, exportable with ng_tensor_to_dlpack()) and the row splits
 * of each jagged mode (ng_jagged_row_splits(), int64). In the other direction, import the values
 * with ng_tensor_from_dlpack(), make the shape with ng_shape_jagged() from the splits, and join
 * them with ng_jagged_from_values().
 */
#ifndef NANOGRAPH_JAGGED_H
#define NANOGRAPH_JAGGED_H

#include "nanograph/base.h"
#include "nanograph/shape.h"
#include "nanograph/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A jagged host tensor: a shape and its values; reference-counted. */
typedef struct ng_jagged ng_jagged_t;

/**
 * @brief Makes a zero-filled jagged tensor.
 * @param dt The element type.
 * @param shape A smooth or jagged shape (not nested); the tensor keeps a reference.
 * @return A new jagged tensor (release it with ng_jagged_release()), or NULL with
 *         ::NG_ERR_INVALID_ARGUMENT (bad handle), ::NG_ERR_DTYPE, ::NG_ERR_UNSUPPORTED (a nested
 *         shape) or ::NG_ERR_OUT_OF_MEMORY.
 */
NG_API ng_jagged_t *ng_jagged_create(ng_dtype_t dt, const ng_shape_t *shape);

/**
 * @brief Makes a jagged tensor holding a copy of caller values.
 * @param dt The element type.
 * @param shape A smooth or jagged shape (not nested).
 * @param values ng_shape_numel(shape) elements in row-major order; may be NULL when there are
 *               none. Copied.
 * @return A new jagged tensor, or NULL with the errors of ng_jagged_create() (and
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL values).
 */
NG_API ng_jagged_t *ng_jagged_from_data(ng_dtype_t dt, const ng_shape_t *shape, const void *values);

/**
 * @brief Wraps caller memory holding the values, without copying.
 * @param dt The element type.
 * @param shape A smooth or jagged shape (not nested). Its row splits are part of the shape (the
 *              shape holds its own copy).
 * @param values ng_shape_numel(shape) packed elements in row-major order, aligned to the element
 *               size; may be NULL when there are none. Must stay valid while the tensor, its
 *               views or exports of its values live.
 * @param deleter Called as deleter(values, ctx) exactly once, when the last reference to the
 *                memory goes; NULL borrows the memory.
 * @param ctx Passed to the deleter.
 * @return A new jagged tensor, or NULL with the errors of ng_jagged_create() (and
 *         ::NG_ERR_INVALID_ARGUMENT for NULL or misaligned values). Ownership passes only on
 *         success: on failure the deleter is not called.
 */
NG_API ng_jagged_t *ng_jagged_wrap(ng_dtype_t dt, const ng_shape_t *shape, void *values,
                                   void (*deleter)(void *values, void *ctx), void *ctx);

/**
 * @brief Makes a jagged tensor over the values of an ordinary tensor, without copying (writes
 *        through either are seen through both).
 * @param shape A smooth or jagged shape (not nested).
 * @param values A rank-1 tensor of ng_shape_numel(shape) elements (any stride).
 * @return A new jagged tensor, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handles),
 *         ::NG_ERR_AXES (values that are not rank 1 or not of that length) or
 *         ::NG_ERR_UNSUPPORTED (a nested shape).
 */
NG_API ng_jagged_t *ng_jagged_from_values(const ng_shape_t *shape, ng_tensor_t *values);

/**
 * @brief Adds a reference. Thread-safe.
 * @param j A jagged tensor, or NULL (ignored).
 */
NG_API void ng_jagged_retain(ng_jagged_t *j);

/**
 * @brief Drops a reference; the last one frees the handle (the values once no view uses them).
 * @param j A jagged tensor, or NULL (ignored).
 */
NG_API void ng_jagged_release(ng_jagged_t *j);

/**
 * @brief The element type.
 * @param j A jagged tensor.
 * @return The dtype, or 0 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_dtype_t ng_jagged_dtype(const ng_jagged_t *j);

/**
 * @brief The shape (a slice's shape carries its origin in the tensor it was cut from).
 * @param j A jagged tensor.
 * @return A new reference to the shape (release it), or NULL with ::NG_ERR_INVALID_ARGUMENT for a
 *         bad handle.
 */
NG_API ng_shape_t *ng_jagged_shape(const ng_jagged_t *j);

/**
 * @brief The values as a rank-1 tensor view, in row-major order (for DLPack, arithmetic, or
 *        ng_tensor_data()).
 * @param j A jagged tensor.
 * @return A new tensor sharing the values' memory, or NULL with ::NG_ERR_INVALID_ARGUMENT for a
 *         bad handle.
 */
NG_API ng_tensor_t *ng_jagged_values(ng_jagged_t *j);

/**
 * @brief The row splits of one mode as a new int64 tensor (implicit splits for a uniform mode).
 * @param j A jagged tensor.
 * @param mode 1 <= mode < rank.
 * @return A new rank-1 tensor (positions of mode-1, plus one, entries), or NULL with
 *         ::NG_ERR_INVALID_ARGUMENT for a bad handle or a mode out of range.
 */
NG_API ng_tensor_t *ng_jagged_row_splits(const ng_jagged_t *j, int32_t mode);

/**
 * @brief The position of an index among the values (what ng_jagged_values() indexes).
 * @param j A jagged tensor.
 * @param index rank indices, relative to the tensor (not its origin).
 * @param n The number of indices: must equal the rank.
 * @return The position, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle, a NULL index, a
 *         count that is not the rank, or an index outside the shape.
 */
NG_API int64_t ng_jagged_position(const ng_jagged_t *j, const int64_t *index, int32_t n);

/**
 * @brief Copies the values out, packed in row-major order.
 * @param j A jagged tensor.
 * @param dst Receives numel * element size bytes; may be NULL when that is 0.
 * @param dst_bytes Must equal numel * element size.
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for a bad handle, NULL dst or wrong size.
 */
NG_API ng_status_t ng_jagged_read(const ng_jagged_t *j, void *dst, size_t dst_bytes);

/**
 * @brief Copies values in, packed in row-major order (seen by every view of them).
 * @param j A jagged tensor.
 * @param src numel * element size bytes; may be NULL when that is 0.
 * @param src_bytes Must equal numel * element size.
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for a bad handle, NULL src or wrong size.
 */
NG_API ng_status_t ng_jagged_write(ng_jagged_t *j, const void *src, size_t src_bytes);

/**
 * @brief Converts to a padded dense tensor and a mask.
 *
 * The padded extents are each mode's largest extent; padded[i] is the value at index i where
 * the shape has it and 0 elsewhere; mask[i] (NG_BOOL) says which.
 * @param j A jagged tensor.
 * @param padded Receives a new dense tensor (the caller releases it); NULL on failure.
 * @param mask Receives a new NG_BOOL tensor of the same shape; NULL on failure.
 * @return ::NG_OK, ::NG_ERR_INVALID_ARGUMENT (bad handle, NULL out-parameter) or
 *         ::NG_ERR_OUT_OF_MEMORY.
 */
NG_API ng_status_t ng_jagged_to_padded(const ng_jagged_t *j, ng_tensor_t **padded,
                                       ng_tensor_t **mask);

/**
 * @brief Converts a padded dense tensor and its mask to a jagged tensor (copies the values).
 *
 * The shape is read off the mask: mode 0 keeps its padded extent, and every later row ends after
 * its last true entry (so trailing empty rows are kept and trailing padding dropped). The mask
 * must then be true exactly on the indices of that shape.
 * @param padded Values of rank >= 1.
 * @param mask An NG_BOOL tensor of the same shape.
 * @return A new jagged tensor, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handles, rank 0, a
 *         mask with a false entry inside a row), ::NG_ERR_DTYPE (a mask that is not bool) or
 *         ::NG_ERR_AXES (shapes that differ).
 */
NG_API ng_jagged_t *ng_jagged_from_padded(const ng_tensor_t *padded, const ng_tensor_t *mask);

/**
 * @brief A view of positions [start, stop) of mode 0 (its shape's origin is start).
 * @param j A jagged tensor of rank >= 1.
 * @param start The first position, 0 <= start <= stop.
 * @param stop One past the last, <= the extent of mode 0.
 * @return A new jagged tensor sharing the values, or NULL with ::NG_ERR_INVALID_ARGUMENT.
 */
NG_API ng_jagged_t *ng_jagged_slice(ng_jagged_t *j, int64_t start, int64_t stop);

/**
 * @brief A view of the slice at an index prefix: the first n indices fixed (its shape's origin
 *        is the prefix).
 * @param j A jagged tensor.
 * @param prefix n indices inside the shape; may be NULL when n is 0.
 * @param n 0 <= n <= rank.
 * @return A new jagged tensor sharing the values, or NULL with ::NG_ERR_INVALID_ARGUMENT.
 */
NG_API ng_jagged_t *ng_jagged_at(ng_jagged_t *j, const int64_t *prefix, int32_t n);

#ifdef __cplusplus
}
#endif

#endif
