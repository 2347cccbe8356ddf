/* bench_segment: segment sum and segment softmax over jagged values in nanograph, unpadded (a
 * flat axis and row splits, ng_segment_sum / ng_segment_softmax) and padded with a mask (the
 * formulation without jagged support: a (segments, 1000) tensor, sum of x * mask, softmax of
 * x + (mask - 1) * 1e9 times mask). Run by bench/run_segment.py, one child per measurement.
 *
 *     bench_segment WORKLOAD FORM [--quick] [--reps N]
 *     WORKLOAD: segment_sum | segment_softmax     FORM: jagged | padded
 *
 * The data: 10^6 real elements (10^4 with --quick) in segments whose lengths are log-uniform in
 * 1 .. 1000 (the same generator as bench/peers_segment.py). Prints one JSON line: the median
 * milliseconds of the repetitions and the peak resident memory above the inputs, and checks
 * the result against a scalar loop (exit 1 on a mismatch). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"
#include "support/measure.h"

#define MAX_LENGTH 1000

static uint64_t rng = 12345;
static double next_uniform(void) { /* splitmix64, as bench/peers_segment.py */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* Segment lengths log-uniform in 1 .. MAX_LENGTH until `total` elements (the last one cut). */
static int64_t make_splits(int64_t total, int64_t **splits) {
    int64_t cap = total + 1, n = 0;
    *splits = malloc((size_t)cap * sizeof(int64_t));
    (*splits)[0] = 0;
    while ((*splits)[n] < total) {
        int64_t len = (int64_t)exp(next_uniform() * log((double)MAX_LENGTH + 1));
        if (len < 1) len = 1;
        if (len > MAX_LENGTH) len = MAX_LENGTH;
        if ((*splits)[n] + len > total) len = total - (*splits)[n];
        (*splits)[n + 1] = (*splits)[n] + len;
        ++n;
    }
    return n;
}

static float value(int64_t i) {
    return (float)sin(0.001 * (double)i) * 4;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s segment_sum|segment_softmax jagged|padded [--quick] [--reps N]\n",
                argv[0]);
        return 2;
    }
    const int softmax = strcmp(argv[1], "segment_softmax") == 0;
    const int padded = strcmp(argv[2], "padded") == 0;
    int quick = 0, reps = 7;
    for (int i = 3; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    }
    if (reps < 1 || reps > 1000) reps = 7;
    const int64_t total = quick ? 10000 : 1000000;
    int64_t *splits;
    const int64_t nseg = make_splits(total, &splits);

    /* Inputs, made before the memory baseline. */
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *J = ng_axis(g, "J", total), *S = ng_axis(g, "S", nseg);
    const ng_axis_t *R = ng_axis(g, "R", nseg + 1), *L = ng_axis(g, "L", MAX_LENGTH);
    ng_tensor_t *inputs[2];
    ng_op_t *params[2], *result;
    if (!padded) {
        ng_tensor_t *x = ng_tensor_create(NG_FLOAT32, &total, 1);
        float *xv = ng_tensor_data(x);
        for (int64_t i = 0; i < total; ++i) xv[i] = value(i);
        const int64_t r = nseg + 1;
        inputs[0] = x;
        inputs[1] = ng_tensor_from_data(NG_INT64, &r, 1, splits);
        params[0] = ng_placeholder(g, NG_FLOAT32, &J, 1, NULL);
        params[1] = ng_placeholder(g, NG_INT64, &R, 1, NULL);
        result = softmax ? ng_segment_softmax(g, params[0], J, params[1], S)
                         : ng_segment_sum(g, params[0], J, params[1], S);
    } else {
        const int64_t shape[] = {nseg, MAX_LENGTH};
        ng_tensor_t *x = ng_tensor_create(NG_FLOAT32, shape, 2);
        ng_tensor_t *mask = ng_tensor_create(NG_FLOAT32, shape, 2);
        float *xv = ng_tensor_data(x), *mv = ng_tensor_data(mask);
        for (int64_t s = 0; s < nseg; ++s)
            for (int64_t j = splits[s]; j < splits[s + 1]; ++j) {
                xv[s * MAX_LENGTH + (j - splits[s])] = value(j);
                mv[s * MAX_LENGTH + (j - splits[s])] = 1;
            }
        inputs[0] = x;
        inputs[1] = mask;
        const ng_axis_t *sl[] = {S, L};
        params[0] = ng_placeholder(g, NG_FLOAT32, sl, 2, NULL);
        params[1] = ng_placeholder(g, NG_FLOAT32, sl, 2, NULL);
        if (softmax) {
            ng_op_t *shift =
                ng_multiply(g, ng_subtract(g, params[1], ng_scalar(g, 1)), ng_scalar(g, 1e9));
            result = ng_multiply(g, ng_softmax(g, ng_add(g, params[0], shift), &L, 1), params[1]);
        } else {
            result = ng_sum(g, ng_multiply(g, params[0], params[1]), &L, 1);
        }
    }
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "bench_segment: %s\n", ng_graph_error(g));
        return 1;
    }

    bench_peak_tracker_t peak;
    bench_peak_start(&peak);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &result, 1, params, 2);
    if (c == NULL) {
        fprintf(stderr, "bench_segment: %s\n", ng_last_error());
        return 1;
    }
    ng_tensor_t *out = NULL;
    double *ms = malloc((size_t)reps * sizeof *ms);
    for (int i = 0; i < 2 + reps; ++i) { /* two warm-up runs, then the timed ones */
        int64_t start = bench_now_ns();
        if (ng_computation_run(c, inputs, 2, &out, 1) != NG_OK) {
            fprintf(stderr, "bench_segment: %s\n", ng_last_error());
            return 1;
        }
        if (i >= 2) ms[i - 2] = (double)(bench_now_ns() - start) / 1e6;
    }
    const int64_t peak_kib = bench_peak_delta_kib(&peak);

    /* Check segment sums (of the softmax: 1 each) against a scalar loop. */
    const float *y = ng_tensor_data(out);
    int ok = 1;
    for (int64_t s = 0; s < nseg && ok; ++s) {
        double want = 0, got = 0;
        for (int64_t j = splits[s]; j < splits[s + 1]; ++j) {
            if (softmax)
                got += padded ? y[s * MAX_LENGTH + (j - splits[s])] : y[j];
            else
                want += value(j);
        }
        if (softmax)
            want = 1;
        else
            got = y[s];
        ok = fabs(got - want) <= 1e-3 * (1 + fabs(want));
    }
    printf(
        "{\"lib\": \"nanograph\", \"workload\": \"%s\", \"form\": \"%s\", \"elements\": %lld, "
        "\"segments\": %lld, \"ms\": %.4f, \"peak_kib\": %lld, \"ok\": %s}\n",
        argv[1], argv[2], (long long)total, (long long)nseg, bench_median(ms, (size_t)reps),
        (long long)peak_kib, ok ? "true" : "false");
    ng_tensor_release(out);
    ng_tensor_release(inputs[0]);
    ng_tensor_release(inputs[1]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    free(ms);
    free(splits);
    return ok ? 0 : 1;
}
