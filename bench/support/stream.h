/* The plain loops that bound the memory-bound workloads: bench_limits measures the machine with
 * them, and bench_ab runs them beside the library on the library's own arrays. */
#ifndef NG_BENCH_STREAM_H
#define NG_BENCH_STREAM_H

#include <stdint.h>

/* The float sum of x[0..n), with 32 independent accumulators so that the adds are not one
 * dependency chain; compiled for AVX2 where the CPU has it and for the baseline otherwise. */
float bench_read_sum(const float *x, int64_t n);

/* b[i] = a[i] for i < n, the pass that bounds softmax; compiled like bench_read_sum. */
void bench_copy(float *restrict b, const float *restrict a, int64_t n);

/* d[i] = a[i] * b[i] + c[i] for i < n (three arrays read, one written with ordinary stores), the
 * pass that bounds tanh_fma; compiled like bench_read_sum. */
void bench_fma3(float *restrict d, const float *restrict a, const float *restrict b,
                const float *restrict c, int64_t n);

/* n floats on a 2 MiB boundary, advised for transparent huge pages, as the library places its
 * large tensors (and NumPy its arrays), filled with uniform values in [-1, 1) from `seed`
 * (bench_fill_uniform); NULL when out of memory.
 * malloc's own mapping starts 16 bytes into a page, which splits every other 32-byte load across
 * two cache lines and cost a quarter of the read rate on an AVX-512 Zen 4 core. free() it. */
float *bench_huge_floats(int64_t n, uint64_t seed);

#endif
