// The level-1 primitives for AVX-512. The file is compiled with the F, CD, DQ and BW flags, so
// dispatch.cpp picks it only when the CPU and the OS support all four. The vector code uses
// xsimd::avx512f: xsimd 8.1's avx512bw select does not compile for the integer masks that its
// float math uses.
#include "kernels/vector_ops_impl.hpp"

namespace ng::kernels {
const VectorTable vector_table_avx512 = Primitives<xsimd::avx512f>::table("avx512");
}
