#include "stream.h"

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
