// Tensors as TensorFlow's TensorProto (src/io/tensor.proto): the dtype mapping and the two
// directions of the conversion. Writing always uses tensor_content (dense, row-major, whatever
// the tensor's strides); reading also takes the typed *_val fields, with TensorFlow's rule that
// fewer values than elements are completed by repeating the last one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/tensor.hpp"
#include "io/tensor.pb.h"

namespace ng::io {

// The most bytes a tensor decoded from the typed *_val fields may take. Those fields can describe
// a tensor far larger than the message (one value broadcast to any shape), so an untrusted message
// of a few bytes could otherwise ask for any amount of memory. tensor_content needs no such limit:
// its size must equal the tensor's.
constexpr size_t kMaxExpandedBytes = size_t{256} << 20;

// TensorFlow's DataType number for a nanograph dtype; NG_ERR_UNSUPPORTED for one TensorFlow lacks.
int32_t tf_dtype_of(DType dt);
// The nanograph dtype of a TensorFlow DataType number: NG_ERR_UNSUPPORTED for a TensorFlow type
// nanograph lacks, NG_ERR_FORMAT for a number that is no DataType at all.
DType dtype_of_tf(int32_t tf_dtype);
// TensorFlow's name of a DataType number ("DT_FLOAT"), or "an unknown DataType".
const char *tf_dtype_name(int32_t tf_dtype);

// Fills `out` with t's dtype, shape and dense row-major content.
void to_tensor_proto(const Tensor &t, tf::TensorProto &out);
// A new dense tensor from a parsed message. Every size, count and dtype is checked before
// anything is allocated: a damaged message is NG_ERR_FORMAT, a valid one with a type nanograph
// lacks is NG_ERR_UNSUPPORTED. `what` names the message in error messages ("the message",
// "entry W1").
Tensor from_tensor_proto(const tf::TensorProto &proto, const std::string &what);

// The serialized TensorProto of t.
std::string serialize_tensor(const Tensor &t);
// Parses and converts `size` bytes (NG_ERR_FORMAT when they are no TensorProto).
Tensor deserialize_tensor(const void *bytes, size_t size);

}  // namespace ng::io
