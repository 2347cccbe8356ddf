// Plan-level fusions around matrix products and assignments, made on the concrete step list after
// lowering and before memory planning (buffers are known, arena memory is not placed yet).
#pragma once

#include "passes/plan.hpp"

namespace ng {

// A weight update w <- w - s * (A B) (plain SGD) is lowered to a GEMM into a buffer, an
// elementwise step computing the new value and a copy into w. When nothing else reads the
// product or the new value, the three become one GEMM that accumulates into w: alpha = -s (read
// from s's buffer at run time), beta = 1.
void fuse_gemm_updates(Plan &plan);

// A product read only by one elementwise step computing D + bias or relu(D + bias) (a layer's
// output) becomes one GEMM step: the bias (broadcast as the step read it) is copied over the
// step's output, the product added to it (beta = 1) and the ReLU applied to each row of it
// right after, in cache. The product's own buffer and the separate pass over it go.
void fuse_gemm_epilogues(Plan &plan);

// An assignment is lowered to an elementwise step computing the new value into a buffer and a
// copy of it into the tensor (every new value of an optimizer step is computed before the first
// assignment). When nothing reads the tensor's old value between the two, the step writes the
// tensor itself, its other readers read the tensor instead of the buffer, and the copy goes
// (Adam's three copies per weight, the bias updates of SGD).
void fuse_assignments(Plan &plan);

}  // namespace ng
