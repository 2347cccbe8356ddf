// Element copies between two strided layouts of one shape: the loop behind Tensor::read,
// write and copy_from. The core cannot use the runtime's kernels (layers only look upward), and
// a copy needs none of their machinery: it coalesces, then walks the rest with memcpy-sized
// moves.
#pragma once

#include <cstddef>

#include "core/tensor.hpp"

namespace ng {

// Copies every element of `shape` from src (strides in elements) to dst. The two must not
// overlap unless they are the same layout.
void copy_strided_elements(size_t element_size, const Dims &shape, const void *src,
                           Dims src_strides, void *dst, Dims dst_strides);

}  // namespace ng
