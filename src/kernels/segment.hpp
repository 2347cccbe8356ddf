// Segment kernels for jagged values: a flat array of rows (every real element of a jagged axis,
// each row `inner` contiguous elements) cut into segments by row splits. Work is proportional to
// the rows, never to a padded extent.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"

namespace ng::kernels {

// Throws NG_ERR_INVALID_ARGUMENT unless splits (nseg + 1 entries) starts at 0, never decreases
// and ends at rows.
void check_segment_splits(const int64_t *splits, int64_t nseg, int64_t rows);

// out[s, :] = sum (or max) of x[j, :] for j in [splits[s], splits[s+1]); x is rows x inner and
// out nseg x inner, both row-major. An empty segment gives 0 (sum) or the dtype's lowest value
// (max: -inf for floats). Checks the splits first.
void segment_reduce(DType dt, bool max, const void *x, int64_t rows, int64_t inner,
                    const int64_t *splits, int64_t nseg, void *out);

// out[j, :] = y[s, :] for every j of segment s; y is nseg x inner, out rows x inner. Checks the
// splits first.
void segment_gather(DType dt, const void *y, int64_t rows, int64_t inner, const int64_t *splits,
                    int64_t nseg, void *out);

}  // namespace ng::kernels
