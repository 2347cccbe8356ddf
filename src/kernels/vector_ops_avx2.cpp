// The level-1 primitives for AVX2 with FMA (compiled with -mavx2 -mfma, reached only through
// dispatch.cpp when the CPU has both).
#include "kernels/vector_ops_impl.hpp"

namespace ng::kernels {
const VectorTable vector_table_avx2 = Primitives<xsimd::fma3<xsimd::avx2>>::table("avx2+fma");
}
