// Element copies between two strided layouts of one shape: the loop behind Tensor::read,
// write and copy_from. The core cannot use the kernels (a layer uses only the layers below it),
// and a copy needs none of their machinery: it walks the strided space (core/strided_space.hpp)
// row by row with memcpy-sized moves.
#pragma once

#include <cstddef>

#include "core/tensor.hpp"

namespace ng {

// Copies every element of `shape` from src (strides in elements) to dst. The two must not
// overlap unless they are the same layout.
void copy_strided_elements(size_t element_size, const Dims &shape, const void *src,
                           const Dims &src_strides, void *dst, const Dims &dst_strides);

}  // namespace ng
