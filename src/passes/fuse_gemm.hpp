// Plan-level fusions around matrix products, made on the concrete step list after lowering and
// before memory planning (buffers are known, arena memory is not placed yet).
#pragma once

#include "passes/plan.hpp"

namespace ng {

// A weight update w <- w - s * (A B) (plain SGD) is lowered to a GEMM into a buffer, an
// elementwise step computing the new value and a copy into w. When nothing else reads the
// product or the new value, the three become one GEMM that accumulates into w: alpha = -s (read
// from s's buffer at run time), beta = 1.
void fuse_gemm_updates(Plan &plan);

}  // namespace ng
