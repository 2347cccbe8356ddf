/* bench_graph_size: how the time to build, derive and compile a graph grows with its number of
 * ops. Run by bench/run_graph_size.py, one child per measurement.
 *
 *     bench_graph_size WORKLOAD OPS
 *     WORKLOAD: chain | wide_sum | tree | chain_deriv
 *
 * The workloads, over a float64 vector x of 4 elements (a placeholder, the computation's
 * parameter), each of about OPS ops:
 *   chain        y = x + x + ... + x: OPS adds, each reading the one before (depth OPS);
 *   wide_sum     the sum of OPS / 3 products c_i * x with a constant c_i = i + 1 each, as a
 *                chain of adds (a constant, a multiply and an add per term);
 *   tree         a balanced binary tree of adds over OPS / 3 leaves, leaf i = x * c_i (depth
 *                log2 OPS);
 *   chain_deriv  the chain of OPS / 2 adds and its derivative by x (ng_deriv of the sum of its
 *                elements), both compiled as one computation.
 * Prints one JSON line: seconds to build the graph, to derive (chain_deriv), to compile
 * (ng_computation_create) and to run once, the ops in the graph, and the peak resident memory
 * above the process at start; checks the computed values against their closed forms (exit 1 on
 * a mismatch). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"
#include "support/measure.h"

enum { kLength = 4 };

static double seconds_since(int64_t start_ns) {
    return (double)(bench_now_ns() - start_ns) * 1e-9;
}

static ng_op_t *times_constant(ng_graph_t *g, ng_op_t *x, int64_t i) {
    return ng_multiply(g, x, ng_scalar_of(g, NG_FLOAT64, (double)(i + 1)));
}

/* The sum of x * c_i over leaves [lo, hi) as a balanced tree of adds. Iterative bottom-up: the
 * level of the leaves, then each level of sums of pairs. */
static ng_op_t *tree_of_adds(ng_graph_t *g, ng_op_t *x, int64_t leaves) {
    ng_op_t **level = malloc((size_t)leaves * sizeof *level);
    if (!level) return NULL;
    for (int64_t i = 0; i < leaves; ++i) level[i] = times_constant(g, x, i);
    for (int64_t n = leaves; n > 1; n = (n + 1) / 2)
        for (int64_t i = 0; i < n; i += 2)
            level[i / 2] = i + 1 < n ? ng_add(g, level[i], level[i + 1]) : level[i];
    ng_op_t *root = level[0];
    free(level);
    return root;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s chain|wide_sum|tree|chain_deriv OPS\n", argv[0]);
        return 2;
    }
    const char *workload = argv[1];
    const int64_t ops = atoll(argv[2]);
    if (ops < 3) {
        fprintf(stderr, "bench_graph_size: OPS must be 3 or more, not %s\n", argv[2]);
        return 2;
    }
    bench_peak_tracker_t peak;
    bench_peak_start(&peak);

    int64_t start = bench_now_ns();
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *n = ng_axis(g, "N", kLength);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, &n, 1, NULL);
    ng_op_t *y = NULL;
    double want = 0, want_grad = 0; /* per element, for x = 1 */
    if (strcmp(workload, "chain") == 0 || strcmp(workload, "chain_deriv") == 0) {
        const int64_t adds = strcmp(workload, "chain") == 0 ? ops : ops / 2;
        y = x;
        for (int64_t i = 0; i < adds; ++i) y = ng_add(g, y, x);
        want = (double)(adds + 1);
        want_grad = want;
    } else if (strcmp(workload, "wide_sum") == 0) {
        const int64_t terms = ops / 3;
        y = times_constant(g, x, 0);
        for (int64_t i = 1; i < terms; ++i) y = ng_add(g, y, times_constant(g, x, i));
        want = (double)terms * (double)(terms + 1) / 2;
    } else if (strcmp(workload, "tree") == 0) {
        const int64_t leaves = ops / 3;
        y = tree_of_adds(g, x, leaves);
        want = (double)leaves * (double)(leaves + 1) / 2;
    } else {
        fprintf(stderr, "bench_graph_size: unknown workload %s\n", workload);
        return 2;
    }
    const double build_s = seconds_since(start);

    ng_op_t *results[2] = {y, NULL};
    int32_t num_results = 1;
    start = bench_now_ns();
    if (strcmp(workload, "chain_deriv") == 0) {
        results[1] = ng_deriv(g, ng_sum(g, y, &n, 1), x);
        num_results = 2;
    }
    const double deriv_s = seconds_since(start);
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "bench_graph_size: building failed: %s\n", ng_graph_error(g));
        return 1;
    }
    const int32_t graph_ops = ng_graph_num_ops(g);

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_transformer_set_num_threads(t, 1);
    start = bench_now_ns();
    ng_computation_t *c = ng_computation_create(t, results, num_results, &x, 1);
    const double compile_s = seconds_since(start);
    if (!c) {
        fprintf(stderr, "bench_graph_size: compile failed: %s\n", ng_last_error());
        return 1;
    }

    const double ones[kLength] = {1, 1, 1, 1};
    const int64_t shape[1] = {kLength};
    ng_tensor_t *in = ng_tensor_from_data(NG_FLOAT64, shape, 1, ones);
    ng_tensor_t *out[2] = {NULL, NULL};
    start = bench_now_ns();
    if (ng_computation_run(c, &in, 1, out, num_results) != NG_OK) {
        fprintf(stderr, "bench_graph_size: run failed: %s\n", ng_last_error());
        return 1;
    }
    const double run_s = seconds_since(start);
    const int64_t peak_kib = bench_peak_delta_kib(&peak);

    /* Sums of integers below 2^53: exact in float64. */
    int ok = 1;
    for (int32_t r = 0; r < num_results; ++r) {
        double got[kLength];
        ng_tensor_read(out[r], got, sizeof got);
        const double expected = r == 0 ? want : want_grad;
        for (int i = 0; i < kLength; ++i) ok = ok && got[i] == expected;
        ng_tensor_release(out[r]);
    }
    printf(
        "{\"impl\": \"nanograph\", \"workload\": \"graph_%s\", \"ops\": %lld, "
        "\"graph_ops\": %d, \"build_s\": %.6f, \"deriv_s\": %.6f, \"compile_s\": %.6f, "
        "\"run_s\": %.6f, \"peak_mib\": %.2f, \"threads\": 1, \"check\": \"%s\"}\n",
        workload, (long long)ops, graph_ops, build_s, deriv_s, compile_s, run_s,
        (double)peak_kib / 1024.0, ok ? "ok" : "WRONG");
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    return ok ? 0 : 1;
}
