#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise */
#include "stream.h"

#include "workloads.h"

#include <stdlib.h>
#include <sys/mman.h>

__attribute__((target_clones("avx2", "default"))) float bench_read_sum(const float *x, int64_t n) {
    float acc[32] = {0};
    int64_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int j = 0; j < 32; ++j) acc[j] += x[i + j];
    float total = 0;
    for (int j = 0; j < 32; ++j) total += acc[j];
    for (; i < n; ++i) total += x[i];
    return total;
}

__attribute__((target_clones("avx2", "default"))) void bench_copy(float *restrict b,
                                                                  const float *restrict a,
                                                                  int64_t n) {
    for (int64_t i = 0; i < n; ++i) b[i] = a[i];
}

__attribute__((target_clones("avx2", "default"))) void bench_fma3(float *restrict d,
                                                                  const float *restrict a,
                                                                  const float *restrict b,
                                                                  const float *restrict c,
                                                                  int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = a[i] * b[i] + c[i];
}

float *bench_huge_floats(int64_t n, uint64_t seed) {
    float *p = NULL;
    if (posix_memalign((void **)&p, (size_t)2 << 20, (size_t)n * sizeof *p) != 0) return NULL;
    (void)madvise(p, (size_t)n * sizeof *p, MADV_HUGEPAGE);
    bench_fill_uniform(p, n, seed);
    return p;
}
