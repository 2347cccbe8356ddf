// The level-1 primitives for the x86-64 baseline (SSE2): what every x86-64 CPU runs.
#include "kernels/vector_ops_impl.hpp"

namespace ng::kernels {
const VectorTable vector_table_sse2 = Primitives<xsimd::sse2>::table("sse2");
}
