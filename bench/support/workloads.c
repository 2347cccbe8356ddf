#include "workloads.h"

#include <float.h>
#include <math.h>
#include <string.h>

void bench_sizes_init(bench_sizes_t *s, int quick) {
    if (quick) {
        *s = (bench_sizes_t){.elementwise = 1 << 16,
                             .softmax_rows = 64,
                             .softmax_cols = 128,
                             .matmul = 64,
                             .reduce_side = 256,
                             .tiny_calls = 10000,
                             .reps = 3,
                             .tiny_reps = 2};
    } else {
        *s = (bench_sizes_t){.elementwise = 1 << 24,
                             .softmax_rows = 4096,
                             .softmax_cols = 1024,
                             .matmul = 1024,
                             .reduce_side = 4096,
                             .tiny_calls = 1000000,
                             .reps = 10,
                             .tiny_reps = 3};
    }
}

void bench_fill_uniform(float *data, int64_t n, uint64_t seed) {
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < n; ++i) {
        /* xorshift64*: plenty for benchmark data, and the same on every platform */
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        uint64_t bits = (state * 0x2545F4914F6CDD1Dull) >> 40; /* 24 random bits */
        data[i] = (float)bits * (2.0f / 16777216.0f) - 1.0f;
    }
}

static void set_input(bench_input_t *in, const char *name0, int64_t dim0, const char *name1,
                      int64_t dim1) {
    in->axis_names[0] = name0;
    in->dims[0] = dim0;
    in->axis_names[1] = name1;
    in->dims[1] = dim1;
    in->rank = name1 ? 2 : 1;
}

/* |got - ref| in units of tol; NaN and infinities in `got` count as infinitely wrong. */
static double error_units(double got, double ref, double tol) {
    if (!isfinite(got)) return INFINITY;
    double diff = fabs(got - ref);
    if (diff == 0) return 0;
    return tol > 0 ? diff / tol : INFINITY;
}

static double worse(double a, double b) {
    return (isnan(b) || b > a) ? b : a;
}

/* ---- l2_diff: sum((x - y)^2), one scalar from two long vectors ------------------------------- */

static void l2_diff_inputs(const bench_sizes_t *s, bench_input_t *in) {
    set_input(&in[0], "N", s->elementwise, NULL, 0);
    set_input(&in[1], "N", s->elementwise, NULL, 0);
}

static ng_op_t *l2_diff_build(ng_graph_t *g, ng_op_t *const *p) {
    return ng_sum(g, ng_square(g, ng_subtract(g, p[0], p[1])), NULL, 0);
}

static double l2_diff_check(const bench_input_t *shapes, const float *const *in,
                            const float *result) {
    double ref = 0;
    for (int64_t i = 0; i < shapes[0].dims[0]; ++i) {
        double d = (double)in[0][i] - (double)in[1][i];
        ref += d * d;
    }
    /* The worst-case bound of a float sum of 2^24 terms (n * eps) says nothing useful, so this is
     * an accuracy requirement instead: 1e-4 relative tolerates per-lane float accumulators and
     * still fails a sum that drifts (a single running float sum is off by far more). */
    return error_units(result[0], ref, 1e-4 * ref);
}

/* ---- tanh_fma: tanh(a*b + c)*0.5 + a, a long elementwise chain ------------------------------- */

static void tanh_fma_inputs(const bench_sizes_t *s, bench_input_t *in) {
    for (int i = 0; i < 3; ++i) set_input(&in[i], "N", s->elementwise, NULL, 0);
}

static ng_op_t *tanh_fma_build(ng_graph_t *g, ng_op_t *const *p) {
    ng_op_t *inner = ng_add(g, ng_multiply(g, p[0], p[1]), p[2]);
    return ng_add(g, ng_multiply(g, ng_tanh(g, inner), ng_scalar(g, 0.5)), p[0]);
}

static double tanh_fma_check(const bench_input_t *shapes, const float *const *in,
                             const float *result) {
    double worst = 0;
    for (int64_t i = 0; i < shapes[0].dims[0]; ++i) {
        double a = in[0][i], b = in[1][i], c = in[2][i];
        double ref = tanh(a * b + c) * 0.5 + a;
        /* a few float roundings plus a SIMD tanh's few ulp stay far below 1e-5 */
        worst = worse(worst, error_units(result[i], ref, 1e-5 * (1 + fabs(ref))));
    }
    return worst;
}

/* ---- softmax over the columns of each row ---------------------------------------------------- */

static void softmax_inputs(const bench_sizes_t *s, bench_input_t *in) {
    set_input(&in[0], "N", s->softmax_rows, "C", s->softmax_cols);
}

static ng_op_t *softmax_build(ng_graph_t *g, ng_op_t *const *p) {
    const ng_axis_t *columns = ng_op_axis(p[0], 1);
    return ng_softmax(g, p[0], &columns, 1);
}

static double softmax_check(const bench_input_t *shapes, const float *const *in,
                            const float *result) {
    int64_t rows = shapes[0].dims[0], cols = shapes[0].dims[1];
    double worst = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const float *x = in[0] + r * cols;
        double max = x[0], total = 0;
        for (int64_t j = 1; j < cols; ++j) max = fmax(max, x[j]);
        for (int64_t j = 0; j < cols; ++j) total += exp(x[j] - max);
        for (int64_t j = 0; j < cols; ++j) {
            double ref = exp(x[j] - max) / total;
            /* the float sum of `cols` exponentials bounds the relative error */
            worst = worse(worst,
                          error_units(result[r * cols + j], ref, (cols + 4) * FLT_EPSILON * ref));
        }
    }
    return worst;
}

/* ---- matmul: (M, K) x (K, N) ----------------------------------------------------------------- */

static void matmul_inputs(const bench_sizes_t *s, bench_input_t *in) {
    set_input(&in[0], "M", s->matmul, "K", s->matmul);
    set_input(&in[1], "K", s->matmul, "N", s->matmul);
}

static ng_op_t *matmul_build(ng_graph_t *g, ng_op_t *const *p) {
    return ng_dot(g, p[0], p[1]);
}

static double matmul_check(const bench_input_t *shapes, const float *const *in,
                           const float *result) {
    int64_t m = shapes[0].dims[0], k = shapes[0].dims[1], n = shapes[1].dims[1];
    double worst = 0;
    /* nine rows spread over the matrix, every column: a full double GEMM would take seconds */
    for (int64_t step = 0; step <= 8; ++step) {
        int64_t i = step * (m - 1) / 8;
        for (int64_t j = 0; j < n; ++j) {
            double ref = 0, magnitude = 0;
            for (int64_t l = 0; l < k; ++l) {
                double term = (double)in[0][i * k + l] * in[1][l * n + j];
                ref += term;
                magnitude += fabs(term);
            }
            /* the classic bound of a float dot product of length k: k * eps * sum |a b| */
            worst = worse(
                worst, error_units(result[i * n + j], ref, k * FLT_EPSILON * magnitude + FLT_MIN));
        }
    }
    return worst;
}

/* ---- sums over each axis of a square matrix ----------------------------------------------------
 */

static void square_input(const bench_sizes_t *s, bench_input_t *in) {
    set_input(&in[0], "R", s->reduce_side, "C", s->reduce_side);
}

static ng_op_t *sum_over_axis(ng_graph_t *g, ng_op_t *x, int32_t axis) {
    const ng_axis_t *reduced = ng_op_axis(x, axis);
    return ng_sum(g, x, &reduced, 1);
}

static ng_op_t *sum_axis0_build(ng_graph_t *g, ng_op_t *const *p) {
    return sum_over_axis(g, p[0], 0);
}
static ng_op_t *sum_axis1_build(ng_graph_t *g, ng_op_t *const *p) {
    return sum_over_axis(g, p[0], 1);
}

/* Every sum of a rows x cols matrix over one axis, checked against double sums; `axis` is the
 * summed one. The float bound n * eps * sum |x| holds for any summation order. */
static double sums_check(const bench_input_t *shapes, const float *x, const float *result,
                         int axis) {
    int64_t rows = shapes[0].dims[0], cols = shapes[0].dims[1];
    int64_t outer = axis == 0 ? cols : rows, inner = axis == 0 ? rows : cols;
    double worst = 0;
    for (int64_t o = 0; o < outer; ++o) {
        double ref = 0, magnitude = 0;
        for (int64_t i = 0; i < inner; ++i) {
            double v = axis == 0 ? x[i * cols + o] : x[o * cols + i];
            ref += v;
            magnitude += fabs(v);
        }
        worst =
            worse(worst, error_units(result[o], ref, inner * FLT_EPSILON * magnitude + FLT_MIN));
    }
    return worst;
}

static double sum_axis0_check(const bench_input_t *shapes, const float *const *in,
                              const float *result) {
    return sums_check(shapes, in[0], result, 0);
}

static double sum_axis1_check(const bench_input_t *shapes, const float *const *in,
                              const float *result) {
    return sums_check(shapes, in[0], result, 1);
}

/* ---- tiny: a + b of 4 floats, the per-run overhead ------------------------------------------- */

static void tiny_add_inputs(const bench_sizes_t *s, bench_input_t *in) {
    (void)s;
    set_input(&in[0], "I", 4, NULL, 0);
    set_input(&in[1], "I", 4, NULL, 0);
}

static ng_op_t *tiny_add_build(ng_graph_t *g, ng_op_t *const *p) {
    return ng_add(g, p[0], p[1]);
}

static double tiny_add_check(const bench_input_t *shapes, const float *const *in,
                             const float *result) {
    double worst = 0;
    for (int64_t i = 0; i < shapes[0].dims[0]; ++i) {
        float ref = in[0][i] + in[1][i]; /* one correctly rounded float add: must match exactly */
        worst = worse(worst, result[i] == ref ? 0 : INFINITY);
    }
    return worst;
}

const bench_workload_t bench_workloads[] = {
    {"l2_diff", 2, 0, l2_diff_inputs, l2_diff_build, l2_diff_check},
    {"tanh_fma", 3, 0, tanh_fma_inputs, tanh_fma_build, tanh_fma_check},
    {"softmax", 1, 0, softmax_inputs, softmax_build, softmax_check},
    {"matmul", 2, 0, matmul_inputs, matmul_build, matmul_check},
    {"sum_axis0", 1, 0, square_input, sum_axis0_build, sum_axis0_check},
    {"sum_axis1", 1, 0, square_input, sum_axis1_build, sum_axis1_check},
    {"tiny_add", 2, 1, tiny_add_inputs, tiny_add_build, tiny_add_check},
};
const size_t bench_num_workloads = sizeof bench_workloads / sizeof bench_workloads[0];

const bench_workload_t *bench_find_workload(const char *name) {
    for (size_t i = 0; i < bench_num_workloads; ++i)
        if (strcmp(bench_workloads[i].name, name) == 0) return &bench_workloads[i];
    return NULL;
}
