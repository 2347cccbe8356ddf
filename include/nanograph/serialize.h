/**
 * @file serialize.h
 * @brief Tensors in TensorFlow's TensorProto wire format.
 *
 * docs/serialization.md has the dtype mapping and what untrusted bytes can and cannot do.
 */
#ifndef NANOGRAPH_SERIALIZE_H
#define NANOGRAPH_SERIALIZE_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Serializes a tensor as a TensorFlow `TensorProto`: its dtype, its shape and its elements
 * in `tensor_content` (dense, row-major, little-endian), whatever the tensor's strides.
 * @param t The tensor (any strides: a view serializes the elements it shows).
 * @param bytes Receives the message, allocated by the library; free it with ng_free().
 * @param size Receives the message's length in bytes.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments; ::NG_ERR_UNSUPPORTED for a
 *         tensor of more than 2 GiB (protobuf's limit); ::NG_ERR_OUT_OF_MEMORY. On failure
 *         *bytes is NULL and *size 0.
 *
 * dtypes map to TensorFlow's DataType: bool DT_BOOL, int32 DT_INT32, int64 DT_INT64, uint8
 * DT_UINT8, float32 DT_FLOAT, float64 DT_DOUBLE.
 */
NG_API ng_status_t ng_tensor_serialize(const ng_tensor_t *t, void **bytes, size_t *size);

/**
 * @brief Reads a tensor from a TensorFlow `TensorProto` message.
 * @param bytes The message (not retained; may be NULL when size is 0).
 * @param size Its length in bytes.
 * @return A new dense row-major tensor (release it with ng_tensor_release()), or NULL:
 *         ::NG_ERR_FORMAT for bytes that are not a valid TensorProto (truncated or damaged, a
 *         `tensor_content` whose size is not the elements', a negative or unknown dimension,
 *         dimensions whose product overflows, more typed values than elements, values of another
 *         dtype's field, a value outside its dtype's range, an invalid DataType);
 *         ::NG_ERR_UNSUPPORTED for a valid DataType nanograph has no dtype for (strings, complex,
 *         half, ...); ::NG_ERR_INVALID_ARGUMENT for NULL bytes with a non-zero size.
 *
 * The elements come from `tensor_content` when it is not empty, otherwise from the typed field
 * of the dtype (`float_val`, `double_val`, `int_val` for int32 and uint8, `int64_val`,
 * `bool_val`), as TensorFlow reads them: no values means zeros, and fewer values than elements
 * are completed by repeating the last one, so a single value fills the whole shape. A tensor
 * filled from typed values may take at most 256 MiB (a message of a few bytes cannot ask for
 * more); `tensor_content` has no such limit. Every size is checked before anything is allocated:
 * untrusted bytes never crash the library.
 */
NG_API ng_tensor_t *ng_tensor_deserialize(const void *bytes, size_t size);

#ifdef __cplusplus
}
#endif

#endif
