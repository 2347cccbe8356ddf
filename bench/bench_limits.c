/* bench_limits: the machine's limits that bound the benchmark's workloads, measured in the same
 * run as the workloads so that a busy or slow machine lowers the bounds as well.
 *
 * - read: the bandwidth of summing one array much larger than the last-level cache.
 * - copy (b = a) and triad (a = b + s * c): STREAM's kernels, counted as STREAM counts them
 *   (bytes read plus bytes written, without the cache's read of a written line).
 * - sgemm: OpenBLAS's rate at every GEMM shape a workload uses, and for the MLP workloads the sum
 *   of the times of the GEMMs one step or one inference runs (their bound at OpenBLAS's rate).
 *
 * Each figure is the best of several repetitions: a limit is what the machine can do. The sgemm
 * lines also give the median of the same repetitions ("ms_median"), so that a workload that is one
 * GEMM (matmul) can be compared with raw OpenBLAS statistic for statistic. Every
 * bandwidth runs on `--threads` threads, each over its own slice; OpenBLAS gets the same count.
 * `--only WORKLOAD` measures only the figures that bound that workload ("stream": STREAM's three),
 * so that a benchmark can measure a workload's bound seconds before the workload itself; a
 * workload that no figure bounds (tiny_add) prints nothing.
 * Prints one JSON line per figure.
 *
 *     bench_limits [--threads N] [--quick] [--only WORKLOAD] */
#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/measure.h"
#include "support/stream.h"

enum { MAX_THREADS = 64 };

typedef enum kernel { K_READ, K_COPY, K_TRIAD, K_FMA3 } kernel_t;

typedef struct slice {
    kernel_t kernel;
    float *a, *b, *c, *d;
    int64_t begin, end;
    double sum; /* the read kernel's result, kept so that the loop is not optimised away */
} slice_t;

__attribute__((target_clones("avx2", "default"))) static void triad(float *restrict a,
                                                                    const float *restrict b,
                                                                    const float *restrict c,
                                                                    int64_t n) {
    for (int64_t i = 0; i < n; ++i) a[i] = b[i] + 3.0f * c[i];
}

static void *run_slice(void *arg) {
    slice_t *s = arg;
    int64_t n = s->end - s->begin;
    switch (s->kernel) {
    case K_READ: s->sum = bench_read_sum(s->a + s->begin, n); break;
    case K_COPY: bench_copy(s->b + s->begin, s->a + s->begin, n); break;
    case K_TRIAD: triad(s->a + s->begin, s->b + s->begin, s->c + s->begin, n); break;
    case K_FMA3:
        bench_fma3(s->d + s->begin, s->a + s->begin, s->b + s->begin, s->c + s->begin, n);
        break;
    }
    return NULL;
}

/* Seconds of one pass of `kernel` over n elements, split over `threads` threads. */
static double timed_pass(kernel_t kernel, float *const *arrays, int64_t n, int threads) {
    slice_t slices[MAX_THREADS];
    pthread_t ids[MAX_THREADS];
    for (int t = 0; t < threads; ++t)
        slices[t] = (slice_t){kernel,
                              arrays[0],
                              arrays[1],
                              arrays[2],
                              arrays[3],
                              n * t / threads,
                              n * (t + 1) / threads,
                              0};
    int64_t start = bench_now_ns();
    for (int t = 1; t < threads; ++t) pthread_create(&ids[t], NULL, run_slice, &slices[t]);
    run_slice(&slices[0]);
    for (int t = 1; t < threads; ++t) pthread_join(ids[t], NULL);
    double seconds = (double)(bench_now_ns() - start) / 1e9;
    if (kernel == K_READ && slices[0].sum == 12345.678) printf("#\n"); /* keeps the sum live */
    return seconds;
}

/* Whether `only` (NULL: every figure) is one of the comma-separated workloads in `list`. */
static int chosen(const char *only, const char *list) {
    if (!only) return 1;
    size_t length = strlen(only);
    for (const char *at = list; at; at = strchr(at, ',')) {
        if (*at == ',') ++at;
        if (strncmp(at, only, length) == 0 && (at[length] == ',' || at[length] == '\0')) return 1;
    }
    return 0;
}

/* Each figure runs over the same number of bytes as the workload it bounds (so that the last-level
 * cache keeps as much of it between repetitions as it keeps of the workload's data), and the
 * "stream" figures over 256 MiB arrays, far beyond any cache. */
static void bandwidths(int threads, int quick, const char *only) {
    const int64_t mi = quick ? 1024 : (int64_t)1 << 20; /* floats per "MiB" of the workloads */
    static const struct {
        const char *name, *bounds; /* the workloads this figure bounds */
        kernel_t kernel;
        int arrays;       /* arrays touched: bytes counted = arrays * n * 4 */
        int64_t mib_each; /* MiB of each array at full size */
    } figures[] = {
        {"read", "stream", K_READ, 1, 256},
        {"copy", "stream", K_COPY, 2, 256},
        {"triad", "stream", K_TRIAD, 3, 256},
        {"read", "l2_diff", K_READ, 1, 128},
        {"read", "sum_axis0,sum_axis1", K_READ, 1, 64},
        {"copy", "softmax", K_COPY, 2, 16},
        {"fma3", "tanh_fma", K_FMA3, 4, 64},
    };
    int reps = quick ? 2 : 9;
    /* Floats of the largest figure chosen: its arrays lie one after the other. Allocating no
     * more than that keeps a one-workload run from touching memory it does not measure. */
    int64_t most = 0;
    for (size_t f = 0; f < sizeof figures / sizeof figures[0]; ++f)
        if (chosen(only, figures[f].bounds)) {
            int64_t floats = figures[f].arrays * figures[f].mib_each * mi / 4;
            if (floats > most) most = floats;
        }
    if (most == 0) return;
    float *memory = bench_huge_floats(most, 1);
    if (!memory) {
        fprintf(stderr, "bench_limits: out of memory\n");
        exit(2);
    }
    for (size_t f = 0; f < sizeof figures / sizeof figures[0]; ++f) {
        if (!chosen(only, figures[f].bounds)) continue;
        int64_t n = figures[f].mib_each * mi / 4; /* floats per array */
        float *arrays[4];
        for (int i = 0; i < 4; ++i) arrays[i] = i < figures[f].arrays ? memory + i * n : NULL;
        double best = 1e30;
        timed_pass(figures[f].kernel, arrays, n, threads); /* warm-up */
        for (int r = 0; r < reps; ++r) {
            double s = timed_pass(figures[f].kernel, arrays, n, threads);
            if (s < best) best = s;
        }
        double bytes = (double)figures[f].arrays * (double)n * sizeof(float);
        printf(
            "{\"impl\": \"limits\", \"limit\": \"%s\", \"bounds\": \"%s\", \"threads\": %d, "
            "\"bytes\": %.0f, \"ms\": %.4f, \"gb_per_s\": %.2f}\n",
            figures[f].name, figures[f].bounds, threads, bytes, best * 1e3, bytes / best / 1e9);
    }
    free(memory);
}

/* ---- sgemm -------------------------------------------------------------------------------- */

typedef struct gemm_shape {
    int trans_a, trans_b;
    int m, n, k;
} gemm_shape_t;

typedef struct gemm_times {
    double best, median; /* seconds */
} gemm_times_t;

enum { MAX_GEMM_REPS = 32 };

/* Best and median seconds of C(m, n) = op(A) op(B) at OpenBLAS's current thread count. */
static gemm_times_t gemm_seconds(gemm_shape_t s, int reps) {
    size_t a_size = (size_t)s.m * s.k, b_size = (size_t)s.k * s.n, c_size = (size_t)s.m * s.n;
    float *a = malloc(a_size * sizeof *a), *b = malloc(b_size * sizeof *b),
          *c = malloc(c_size * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "bench_limits: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < a_size; ++i) a[i] = (float)(i % 7) * 0.25f - 0.5f;
    for (size_t i = 0; i < b_size; ++i) b[i] = (float)(i % 5) * 0.25f - 0.5f;
    int lda = s.trans_a ? s.m : s.k, ldb = s.trans_b ? s.k : s.n;
    double seconds[MAX_GEMM_REPS];
    for (int r = 0; r < reps + 2; ++r) { /* two warm-ups */
        int64_t start = bench_now_ns();
        cblas_sgemm(CblasRowMajor, s.trans_a ? CblasTrans : CblasNoTrans,
                    s.trans_b ? CblasTrans : CblasNoTrans, s.m, s.n, s.k, 1.0f, a, lda, b, ldb,
                    0.0f, c, s.n);
        if (r >= 2) seconds[r - 2] = (double)(bench_now_ns() - start) / 1e9;
    }
    free(a);
    free(b);
    free(c);
    gemm_times_t t = {seconds[0], 0};
    for (int r = 1; r < reps; ++r)
        if (seconds[r] < t.best) t.best = seconds[r];
    t.median = bench_median(seconds, (size_t)reps);
    return t;
}

/* The GEMMs of one workload; its bound is the sum of their best times. */
typedef struct gemm_set {
    const char *workload;
    int count;
    gemm_shape_t shapes[8];
} gemm_set_t;

/* A 784-h1-h2-10 MLP at batch b: forward x W1, h1 W2, h2 W3; backward the weight gradients
 * (A^T G) of the three layers and the input gradients (G W^T) of the two upper layers. */
#define MLP_FORWARD(b, h1, h2)               \
    {0, 0, b, h1, 784}, {0, 0, b, h2, h1}, { \
        0, 0, b, 10, h2                      \
    }
#define MLP_BACKWARD(b, h1, h2)                                                    \
    {1, 0, 784, h1, b}, {1, 0, h1, h2, b}, {1, 0, h2, 10, b}, {0, 1, b, h1, h2}, { \
        0, 1, b, h2, 10                                                            \
    }

static void gemm_rates(int quick, const char *only) {
    int reps = quick ? 1 : 20;
    int side = quick ? 64 : 1024;
    gemm_set_t sets[] = {
        {"matmul", 1, {{0, 0, side, side, side}}},
        {"sgd_step", 8, {MLP_FORWARD(128, 512, 256), MLP_BACKWARD(128, 512, 256)}},
        {"adam_epoch_step", 8, {MLP_FORWARD(128, 256, 128), MLP_BACKWARD(128, 256, 128)}},
        {"mlp_infer_b128", 3, {MLP_FORWARD(128, 512, 256)}},
        {"mlp_infer_b1", 3, {MLP_FORWARD(1, 512, 256)}},
    };
    for (size_t w = 0; w < sizeof sets / sizeof sets[0]; ++w) {
        if (!chosen(only, sets[w].workload)) continue;
        double total = 0, total_median = 0, flops = 0;
        printf(
            "{\"impl\": \"limits\", \"limit\": \"sgemm\", \"workload\": \"%s\", \"threads\": %d, "
            "\"gemms\": [",
            sets[w].workload, openblas_get_num_threads());
        for (int i = 0; i < sets[w].count; ++i) {
            gemm_shape_t s = sets[w].shapes[i];
            gemm_times_t t = gemm_seconds(s, reps);
            double seconds = t.best, f = 2.0 * s.m * s.n * s.k;
            total += seconds;
            total_median += t.median;
            flops += f;
            printf(
                "%s{\"m\": %d, \"n\": %d, \"k\": %d, \"trans_a\": %d, \"trans_b\": %d, "
                "\"ms\": %.4f, \"gflops\": %.1f}",
                i ? ", " : "", s.m, s.n, s.k, s.trans_a, s.trans_b, seconds * 1e3,
                f / seconds / 1e9);
        }
        printf("], \"ms\": %.4f, \"ms_median\": %.4f, \"gflops\": %.1f}\n", total * 1e3,
               total_median * 1e3, flops / total / 1e9);
    }
}

int main(int argc, char **argv) {
    int threads = 2, quick = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
            if (threads < 1 || threads > MAX_THREADS) {
                fprintf(stderr, "bench_limits: bad thread count '%s'\n", argv[i]);
                return 64;
            }
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_limits [--threads N] [--quick] [--only WORKLOAD]\n");
            return 64;
        }
    }
    openblas_set_num_threads(threads);
    bandwidths(threads, quick, only);
    gemm_rates(quick, only);
    return 0;
}
