/* The plain read that bounds the memory-bound workloads: bench_limits measures the machine with
 * it, and bench_ab runs it beside the library on the library's own inputs. */
#ifndef NG_BENCH_STREAM_H
#define NG_BENCH_STREAM_H

#include <stdint.h>

/* The float sum of x[0..n), with 32 independent accumulators so that the adds are not one
 * dependency chain; compiled for AVX2 where the CPU has it and for the baseline otherwise. */
float bench_read_sum(const float *x, int64_t n);

#endif
