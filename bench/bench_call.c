/* bench_call: the fixed cost of one run of a tiny computation (a + b of four floats) called
 * from C, in microseconds per run: the baseline the language bindings are compared with
 * (bench/bindings.sh). Each run takes the two input tensors and returns a new result tensor,
 * which is released, as a binding's idiomatic call does.
 *
 *   bench_call [RUNS]      (default 200000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nanograph/nanograph.h"

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    long runs = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    if (runs <= 0) {
        fprintf(stderr, "usage: %s [RUNS > 0]\n", argv[0]);
        return 2;
    }
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", 4);
    ng_op_t *a = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *b = ng_placeholder(g, NG_FLOAT32, &n, 1, NULL);
    ng_op_t *sum = ng_add(g, a, b);
    ng_op_t *params[] = {a, b};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &sum, 1, params, 2);
    const float av[] = {1, 2, 3, 4}, bv[] = {10, 20, 30, 40};
    const int64_t shape[] = {4};
    ng_tensor_t *in[] = {ng_tensor_from_data(NG_FLOAT32, shape, 1, av),
                         ng_tensor_from_data(NG_FLOAT32, shape, 1, bv)};
    if (!c || !in[0] || !in[1]) {
        fprintf(stderr, "bench_call: %s\n", ng_last_error());
        return 1;
    }
    for (int warm = 0; warm < 1000; ++warm) {
        ng_tensor_t *out = NULL;
        ng_computation_run(c, in, 2, &out, 1);
        ng_tensor_release(out);
    }
    double start = now_seconds();
    for (long i = 0; i < runs; ++i) {
        ng_tensor_t *out = NULL;
        if (ng_computation_run(c, in, 2, &out, 1) != NG_OK) {
            fprintf(stderr, "bench_call: %s\n", ng_last_error());
            return 1;
        }
        ng_tensor_release(out);
    }
    double us = (now_seconds() - start) * 1e6 / (double)runs;
    printf("C       %8.2f us/run  (%ld runs)\n", us, runs);
    ng_tensor_release(in[0]);
    ng_tensor_release(in[1]);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    return 0;
}
