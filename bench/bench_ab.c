/* Two or more builds of the library compared in one process, on the same inputs, run in turn:
 * each rep reads the inputs once with a plain loop (bench_read_sum, the read bound of
 * bench_limits), then runs every build once. Builds compared in separate processes differ by as
 * much as the host changes between processes (a workload's time can double from one process to
 * the next on a shared machine); in one process, alternating, they meet the same spells.
 *
 * Each build is loaded with dlopen() and used through its function table (ng_get_api), so the
 * builds' symbols never meet. Every build wraps the same input arrays (ng_tensor_wrap, borrowed).
 *
 *     bench_ab [--threads N] [--reps N] [--only WORKLOAD] LIBRARY...
 *
 * WORKLOAD: l2_diff (sum((x - y)^2) over 2^24 floats), sum_axis0 or sum_axis1 (a 4096 x 4096
 * float matrix summed over one axis); default sum_axis1. Prints one JSON line for the plain read
 * and one per build: median and best milliseconds per run, and the median over the reps of the
 * read's time over the build's (percent_of_read). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/api.h"
#include "support/measure.h"
#include "support/stream.h"

enum { MAX_BUILDS = 8, MAX_REPS = 10000 };

typedef struct build {
    const char *path;
    void *library;
    const ng_api_t *api;
    ng_graph_t *graph;
    ng_transformer_t *transformer;
    ng_computation_t *computation;
    ng_tensor_t *inputs[2];
    int32_t num_inputs;
    double ms[MAX_REPS], ratio[MAX_REPS];
} build_t;

typedef struct options {
    int32_t threads, reps;
    const char *workload;
} options_t;

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "bench_ab: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 2;
}

/* The workload's graph through one build's table, compiled over that build's wraps of x (and y). */
static int compile(build_t *b, const options_t *opt, float *x, float *y) {
    const ng_api_t *api = b->api;
    const int l2 = strcmp(opt->workload, "l2_diff") == 0;
    const int64_t shape[2] = {4096, 4096}, flat[1] = {(int64_t)1 << 24};
    const int32_t rank = l2 ? 1 : 2;
    ng_graph_t *g = b->graph = api->graph_create();
    if (!g) return fail("graph_create failed in", b->path);
    const ng_axis_t *axes[2] = {api->axis(g, "R", l2 ? flat[0] : shape[0]),
                                l2 ? NULL : api->axis(g, "C", shape[1])};
    ng_op_t *params[2] = {api->placeholder(g, NG_FLOAT32, axes, rank, NULL),
                          l2 ? api->placeholder(g, NG_FLOAT32, axes, rank, NULL) : NULL};
    ng_op_t *result;
    if (l2) {
        ng_op_t *d = api->subtract(g, params[0], params[1]);
        result = api->sum(g, api->multiply(g, d, d), axes, 1);
    } else {
        const ng_axis_t *reduced[1] = {axes[strcmp(opt->workload, "sum_axis0") == 0 ? 0 : 1]};
        result = api->sum(g, params[0], reduced, 1);
    }
    if (api->graph_status(g) != NG_OK)
        return fail("building the graph failed", api->graph_error(g));
    ng_transformer_t *t = b->transformer = api->transformer_create("cpu");
    if (!t || api->transformer_set_num_threads(t, opt->threads) != NG_OK)
        return fail("transformer_create failed in", b->path);
    b->num_inputs = l2 ? 2 : 1;
    b->computation = api->computation_create(t, &result, 1, params, b->num_inputs);
    if (!b->computation) return fail("computation_create failed", api->last_error());
    float *data[2] = {x, y};
    for (int32_t i = 0; i < b->num_inputs; ++i) {
        b->inputs[i] =
            api->tensor_wrap(NG_FLOAT32, l2 ? flat : shape, NULL, rank, data[i], NULL, NULL);
        if (!b->inputs[i]) return fail("tensor_wrap failed", api->last_error());
    }
    return 0;
}

static int load(build_t *b, const char *path) {
    b->path = path;
    void *lib = b->library = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!lib) return fail("dlopen failed", dlerror());
    const ng_api_t *(*get_api)(uint32_t) =
        (const ng_api_t *(*)(uint32_t))(uintptr_t)dlsym(lib, "ng_get_api");
    b->api = get_api ? get_api(NG_API_VERSION) : NULL;
    if (!b->api) return fail("no function table of this version in", path);
    return 0;
}

/* Everything a build made, then the build itself. */
static void unload(build_t *b) {
    if (!b->library) return;
    if (b->api) {
        for (int32_t i = 0; i < b->num_inputs; ++i) b->api->tensor_release(b->inputs[i]);
        b->api->computation_destroy(b->computation);
        b->api->transformer_destroy(b->transformer);
        b->api->graph_destroy(b->graph);
    }
    dlclose(b->library);
}

static void print_line(const char *impl, const options_t *opt, double *ms, double *ratio) {
    double best = ms[0];
    for (int32_t r = 1; r < opt->reps; ++r)
        if (ms[r] < best) best = ms[r];
    printf(
        "{\"impl\": \"%s\", \"workload\": \"%s\", \"threads\": %d, \"reps\": %d, "
        "\"median_ms\": %.4f, \"best_ms\": %.4f",
        impl, opt->workload, opt->threads, opt->reps, bench_median(ms, (size_t)opt->reps), best);
    if (ratio) printf(", \"percent_of_read\": %.1f", 100 * bench_median(ratio, (size_t)opt->reps));
    printf("}\n");
}

static int parse(int argc, char **argv, options_t *opt, int *first_library) {
    *opt = (options_t){1, 100, "sum_axis1"};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc) return fail("missing value after", argv[i]);
        if (strcmp(argv[i], "--threads") == 0)
            opt->threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--reps") == 0)
            opt->reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--only") == 0)
            opt->workload = argv[i + 1];
        else
            return fail("unknown option", argv[i]);
    }
    if (opt->threads < 1 || opt->reps < 1 || opt->reps > MAX_REPS)
        return fail("--threads and --reps must be positive (reps at most 10000)", NULL);
    if (strcmp(opt->workload, "l2_diff") != 0 && strcmp(opt->workload, "sum_axis0") != 0 &&
        strcmp(opt->workload, "sum_axis1") != 0)
        return fail("--only takes l2_diff, sum_axis0 or sum_axis1, not", opt->workload);
    if (i >= argc || argc - i > MAX_BUILDS)
        return fail(
            "usage: bench_ab [--threads N] [--reps N] [--only WORKLOAD] LIBRARY... "
            "(one to eight libraries)",
            NULL);
    *first_library = i;
    return 0;
}

int main(int argc, char **argv) {
    options_t opt;
    int first, status = parse(argc, argv, &opt, &first);
    if (status) return status;
    const int builds = argc - first, l2 = strcmp(opt.workload, "l2_diff") == 0;
    const int64_t n = (int64_t)1 << 24; /* floats per input: 2^24, or 4096 x 4096 */
    float *x = bench_huge_floats(n), *y = l2 ? bench_huge_floats(n) : NULL;
    static build_t b[MAX_BUILDS];
    static double read_ms[MAX_REPS];
    if (!x || (l2 && !y)) status = fail("out of memory", NULL);
    for (int k = 0; k < builds && !status; ++k)
        if (!(status = load(&b[k], argv[first + k]))) status = compile(&b[k], &opt, x, y);
    volatile float sink = 0;
    for (int32_t r = 0; r < opt.reps && !status; ++r) {
        int64_t t0 = bench_now_ns();
        sink += bench_read_sum(x, n) + (l2 ? bench_read_sum(y, n) : 0);
        read_ms[r] = (double)(bench_now_ns() - t0) / 1e6;
        for (int k = 0; k < builds && !status; ++k) {
            ng_tensor_t *out = NULL;
            t0 = bench_now_ns();
            if (b[k].api->computation_run(b[k].computation, b[k].inputs, b[k].num_inputs, &out,
                                          1) != NG_OK)
                status = fail("computation_run failed", b[k].api->last_error());
            b[k].ms[r] = (double)(bench_now_ns() - t0) / 1e6;
            b[k].ratio[r] = read_ms[r] / b[k].ms[r];
            b[k].api->tensor_release(out);
        }
    }
    (void)sink;
    if (!status) {
        print_line("read", &opt, read_ms, NULL);
        for (int k = 0; k < builds; ++k) print_line(b[k].path, &opt, b[k].ms, b[k].ratio);
    }
    for (int k = 0; k < builds; ++k) unload(&b[k]);
    free(x);
    free(y);
    return status;
}
