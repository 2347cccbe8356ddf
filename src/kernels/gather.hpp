// Gather: rows of a row-major array picked by integer indices.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"

namespace ng::kernels {

// x is outer x rows x inner and out outer x count x inner, both row-major in dtype dt:
// out[o, j, :] = x[o, indices[j], :] for the `count` indices (of integer dtype index_dtype).
// Throws NG_ERR_INVALID_ARGUMENT, naming the index and its position, for an index outside
// 0..rows-1, before writing anything.
void gather_rows(DType dt, const void *x, int64_t outer, int64_t rows, int64_t inner,
                 DType index_dtype, const void *indices, int64_t count, void *out);

}  // namespace ng::kernels
