/**
 * @file tensor.h
 * @brief Host tensors: reference-counted strided views of memory, and DLPack exchange.
 *
 * A tensor is a dtype, a shape, strides (in elements, any sign, 0 for a broadcast dimension) and
 * a storage it shares with its views. Handles are reference-counted: every function that returns
 * a tensor returns a new handle holding one reference, which the caller drops with
 * ng_tensor_release(). A view (reshape, permute, transpose, slice, broadcast) is a new handle
 * over the same storage: writes through one are seen through the others, and the storage lives
 * until the last handle (or DLPack export) that uses it is released. Retaining and releasing are
 * thread-safe; reading and writing one tensor from several threads at once is the caller's to
 * synchronise.
 *
 * A shape is valid when every dimension is >= 0 and the product of the dimensions, counting a 0
 * as 1, fits in int64_t: so an empty tensor such as {0, 4, 5} is valid everywhere, while
 * {0, 4, INT64_MAX} is refused everywhere (create, wrap, broadcast, reshape, DLPack import) with
 * ::NG_ERR_INVALID_ARGUMENT. Every tensor a function returns has a valid shape, so its element
 * count, copy and read never fail for its shape.
 *
 * Accessors that cannot return a status return a documented failure value (-1, 0, NULL,
 * INT64_MIN) and set ng_last_status() / ng_last_error(); on success they clear the error.
 */
#ifndef NANOGRAPH_TENSOR_H
#define NANOGRAPH_TENSOR_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

struct DLManagedTensor;

/**
 * @brief Creates a zero-filled, dense row-major tensor.
 * @param dt The element type (NG_BOOL ... NG_FLOAT64).
 * @param shape rank dimensions, each >= 0; may be NULL when rank is 0 (a scalar).
 * @param rank The number of dimensions, >= 0.
 * @return A new tensor (the caller releases it), or NULL with ::NG_ERR_DTYPE for an unknown dtype,
 *         ::NG_ERR_INVALID_ARGUMENT for a negative rank or dimension, a NULL shape or a shape whose
 *         byte size overflows, ::NG_ERR_OUT_OF_MEMORY when the allocation fails.
 */
NG_API ng_tensor_t *ng_tensor_create(ng_dtype_t dt, const int64_t *shape, int32_t rank);

/**
 * @brief Creates a dense row-major tensor holding a copy of caller data.
 * @param dt The element type.
 * @param shape rank dimensions, each >= 0; may be NULL when rank is 0.
 * @param rank The number of dimensions, >= 0.
 * @param data The elements, dense row-major; may be NULL only when the tensor has no elements.
 *             Copied: the caller keeps ownership.
 * @return A new tensor, or NULL with the errors of ng_tensor_create() (and
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL data).
 */
NG_API ng_tensor_t *ng_tensor_from_data(ng_dtype_t dt, const int64_t *shape, int32_t rank,
                                        const void *data);

/**
 * @brief Wraps caller memory as a tensor, without copying.
 * @param dt The element type.
 * @param shape rank dimensions, each >= 0; may be NULL when rank is 0.
 * @param strides rank strides in elements (negative and 0 allowed), or NULL for dense row-major.
 *                INT64_MIN is refused.
 * @param rank The number of dimensions, >= 0.
 * @param data The address of element (0, ..., 0), aligned to the element size; may be NULL only
 *             when the tensor has no elements. Every element the strides reach must be valid
 *             memory for as long as the tensor (or any view of it) lives.
 * @param deleter Called as deleter(data, ctx) exactly once, on whichever thread drops the last
 *                reference to the memory (views and DLPack exports hold it too); NULL borrows
 *                the memory, which the caller then keeps alive.
 * @param ctx Passed to the deleter.
 * @return A new tensor, or NULL with ::NG_ERR_DTYPE or ::NG_ERR_INVALID_ARGUMENT (bad rank,
 *         shape or strides, a NULL or misaligned data, strides reaching outside the address
 *         space). Ownership passes only when the call succeeds: on failure the deleter is not
 *         called and the caller still owns data.
 */
NG_API ng_tensor_t *ng_tensor_wrap(ng_dtype_t dt, const int64_t *shape, const int64_t *strides,
                                   int32_t rank, void *data, void (*deleter)(void *data, void *ctx),
                                   void *ctx);

/**
 * @brief Adds a reference to a tensor. Thread-safe.
 * @param t A tensor, or NULL (ignored).
 */
NG_API void ng_tensor_retain(ng_tensor_t *t);

/**
 * @brief Drops a reference; the last one frees the handle (and the storage, once no view uses it).
 *        Thread-safe.
 * @param t A tensor, or NULL (ignored).
 */
NG_API void ng_tensor_release(ng_tensor_t *t);

/**
 * @brief The element type of a tensor.
 * @param t A tensor.
 * @return The dtype, or 0 (not a dtype) with ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid
 * handle.
 */
NG_API ng_dtype_t ng_tensor_dtype(const ng_tensor_t *t);

/**
 * @brief The number of dimensions of a tensor.
 * @param t A tensor.
 * @return The rank, or -1 with ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid handle.
 */
NG_API int32_t ng_tensor_rank(const ng_tensor_t *t);

/**
 * @brief The length of one dimension.
 * @param t A tensor.
 * @param i A dimension, 0 <= i < rank.
 * @return The length, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle or i out of range.
 */
NG_API int64_t ng_tensor_dim(const ng_tensor_t *t, int32_t i);

/**
 * @brief The stride of one dimension, in elements.
 * @param t A tensor.
 * @param i A dimension, 0 <= i < rank.
 * @return The stride (any sign; 0 for a broadcast dimension), or INT64_MIN (never a valid stride)
 *         with ::NG_ERR_INVALID_ARGUMENT for a bad handle or i out of range.
 */
NG_API int64_t ng_tensor_stride(const ng_tensor_t *t, int32_t i);

/**
 * @brief The number of elements (the product of the dimensions; 1 for a scalar).
 * @param t A tensor.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int64_t ng_tensor_numel(const ng_tensor_t *t);

/**
 * @brief The address of element (0, ..., 0); element (i0, i1, ...) is at
 *        data + (i0*stride0 + i1*stride1 + ...) * ng_dtype_size(dtype).
 * @param t A tensor.
 * @return The address, valid while t (or a view of its storage) lives; NULL for a tensor without
 *         elements that wraps NULL, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API void *ng_tensor_data(ng_tensor_t *t);

/**
 * @brief Copies the elements out, dense row-major, whatever the tensor's strides.
 * @param t A tensor.
 * @param dst Receives numel * ng_dtype_size(dtype) bytes; may be NULL when that is 0.
 * @param dst_bytes The size of dst in bytes: must equal numel * ng_dtype_size(dtype).
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for a bad handle, a NULL dst or a dst_bytes that
 *         does not match.
 */
NG_API ng_status_t ng_tensor_read(const ng_tensor_t *t, void *dst, size_t dst_bytes);

/**
 * @brief Copies elements in from a dense row-major buffer, whatever the tensor's strides.
 * @param t A tensor (or view); its storage, shared with its views, is written.
 * @param src numel * ng_dtype_size(dtype) bytes; may be NULL when that is 0.
 * @param src_bytes The size of src in bytes: must equal numel * ng_dtype_size(dtype).
 * @return ::NG_OK, ::NG_ERR_INVALID_ARGUMENT for a bad handle, a NULL src or a src_bytes that does
 *         not match, ::NG_ERR_UNSUPPORTED for a broadcast view (a stride 0 on a dimension longer
 *         than 1 maps several indices to one element).
 */
NG_API ng_status_t ng_tensor_write(ng_tensor_t *t, const void *src, size_t src_bytes);

/**
 * @brief Whether the tensor is dense row-major (dimensions of length 1 and tensors without
 *        elements count as dense), so that ng_tensor_data() points at numel packed elements.
 * @param t A tensor.
 * @return 1 if dense row-major, 0 if not, -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_tensor_is_contiguous(const ng_tensor_t *t);

/**
 * @brief A new dense row-major tensor with the same dtype, shape and values (a deep copy).
 * @param t A tensor.
 * @return A new tensor, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle or
 *         ::NG_ERR_OUT_OF_MEMORY.
 */
NG_API ng_tensor_t *ng_tensor_copy(const ng_tensor_t *t);

/**
 * @brief A view with another shape of the same elements in the same row-major order, without
 *        copying.
 * @param t A tensor.
 * @param shape rank new dimensions, each >= 0, with the same product as t's; may be NULL when
 *              rank is 0.
 * @param rank The new number of dimensions, >= 0.
 * @return A new tensor sharing t's storage, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handle,
 *         negative rank or dimension, NULL shape), ::NG_ERR_AXES (a different element count) or
 *         ::NG_ERR_UNSUPPORTED when t's strides do not allow the view (for example a transpose
 *         flattened): copy it with ng_tensor_copy() first.
 */
NG_API ng_tensor_t *ng_tensor_reshape(ng_tensor_t *t, const int64_t *shape, int32_t rank);

/**
 * @brief A view with the dimensions reordered: dimension i of the result is dimension order[i] of
 * t.
 * @param t A tensor.
 * @param order A permutation of 0 .. rank-1; may be NULL when rank is 0.
 * @param rank The number of entries of order: must equal t's rank.
 * @return A new tensor sharing t's storage, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad
 *         handle, a rank that differs from t's, or an order that is not a permutation.
 */
NG_API ng_tensor_t *ng_tensor_permute(ng_tensor_t *t, const int32_t *order, int32_t rank);

/**
 * @brief A view with every dimension reversed (the matrix transpose for rank 2).
 * @param t A tensor.
 * @return A new tensor sharing t's storage, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad
 * handle.
 */
NG_API ng_tensor_t *ng_tensor_transpose(ng_tensor_t *t);

/**
 * @brief A view of the elements start, start+step, ... (before stop) along one dimension,
 *        with Python's slice semantics.
 *
 * A negative start or stop counts from the end (adds the length). Then, for step > 0, both are
 * clamped to [0, length]; for step < 0, to [-1, length-1]. So INT64_MAX and INT64_MIN work as
 * open ends: (INT64_MAX, INT64_MIN, -1) reverses the dimension, like Python's [::-1]. An empty
 * range gives a dimension of length 0.
 * @param t A tensor.
 * @param dim The dimension to slice, 0 <= dim < rank.
 * @param start The first index taken.
 * @param stop The index where taking stops (not taken).
 * @param step The distance between taken indices, negative to walk backwards; not 0.
 * @return A new tensor sharing t's storage, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad
 *         handle, dim out of range or step 0.
 */
NG_API ng_tensor_t *ng_tensor_slice(ng_tensor_t *t, int32_t dim, int64_t start, int64_t stop,
                                    int64_t step);

/**
 * @brief A view repeating t over a larger shape, NumPy style: shapes are aligned at their last
 *        dimension, new leading dimensions and dimensions of length 1 get stride 0.
 * @param t A tensor.
 * @param shape rank dimensions, each >= 0; may be NULL when rank is 0.
 * @param rank The number of dimensions, >= t's rank.
 * @return A new tensor sharing t's storage (read-only in effect: ng_tensor_write() refuses it), or
 *         NULL with ::NG_ERR_INVALID_ARGUMENT (bad handle, negative rank or dimension, NULL shape)
 *         or ::NG_ERR_AXES (a lower rank, or a dimension that is neither 1 nor the target length).
 */
NG_API ng_tensor_t *ng_tensor_broadcast(ng_tensor_t *t, const int64_t *shape, int32_t rank);

/**
 * @brief Exports a tensor through DLPack (0.6, CPU), without copying.
 *
 * The DLManagedTensor holds a reference to the storage: the tensor's memory stays valid until the
 * consumer calls (*out)->deleter(*out), which it must do exactly once, from any thread. Releasing
 * t does not invalidate the export. Strides are always filled in; data is the address of element
 * (0, ..., 0) and byte_offset is 0 (some consumers ignore byte_offset).
 * @param t A tensor. NG_BOOL is refused: DLPack 0.6 has no boolean type.
 * @param out Receives the managed tensor; NULL on failure.
 * @return ::NG_OK, ::NG_ERR_INVALID_ARGUMENT for a bad handle or a NULL out, ::NG_ERR_DTYPE for
 *         NG_BOOL, ::NG_ERR_OUT_OF_MEMORY.
 */
NG_API ng_status_t ng_tensor_to_dlpack(ng_tensor_t *t, struct DLManagedTensor **out);

/**
 * @brief Imports a DLPack tensor without copying.
 *
 * On success the new tensor owns m: m->deleter(m) (if not NULL) runs exactly once, when the last
 * reference to the memory goes (the tensor and all its views and exports), on that thread. On
 * failure nothing is taken: the caller still owns m and must delete it.
 * @param m A CPU tensor (kDLCPU) with lanes 1, of a type nanograph has: int32, int64, uint8,
 *          float32, float64, or bool (type code 6 of later DLPack versions, 8 bits). NULL strides
 *          mean dense row-major; byte_offset is honoured. The element (0, ..., 0) must be aligned
 *          to the element size.
 * @return A new tensor, or NULL with ::NG_ERR_INVALID_ARGUMENT (NULL m, negative ndim, NULL shape,
 *         NULL data, bad shape or strides), ::NG_ERR_UNSUPPORTED (a device other than kDLCPU,
 *         lanes other than 1) or ::NG_ERR_DTYPE (a type nanograph does not have).
 */
NG_API ng_tensor_t *ng_tensor_from_dlpack(struct DLManagedTensor *m);

#ifdef __cplusplus
}
#endif

#endif
