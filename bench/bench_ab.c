/* Two or more builds of the library compared in one process, on the same inputs, run in turn:
 * each rep runs the workload's bound once, a plain loop over the same arrays (bench_limits'
 * figure for the workload: a read of the inputs, for tanh_fma d = a * b + c into the output, for
 * softmax a copy of the input into the output), then every build once. Builds compared in
 * separate processes differ by as much as the host changes between processes (a workload's time
 * can double from one process to the next on a shared machine); in one process, alternating,
 * they meet the same spells.
 *
 * Each build is loaded with dlopen() and used through its function table (ng_get_api), so the
 * builds' symbols never meet. The workloads are bench_transformer's (bench/support/workloads.c:
 * the same inputs, shapes and check), built through each build's table. Every build wraps the
 * same arrays (ng_tensor_wrap, borrowed); where the result has the inputs' size (tanh_fma,
 * softmax) it goes into a wrapped output array.
 *
 *     bench_ab [--threads N] [--reps N] [--runs N] [--only WORKLOAD] [--offset BYTES]
 *              [--shape ROWS,COLS] [--quick] LIBRARY...
 *
 * WORKLOAD: l2_diff (sum((x - y)^2) over 2^24 floats), sum_axis0 or sum_axis1 (a 4096 x 4096
 * float matrix summed over one axis), tanh_fma (tanh(a * b + c) * 0.5 + a over 2^24 floats into
 * d), softmax (along each row of a 4096 x 1024 float matrix, into a second one); default
 * sum_axis1. BYTES (a multiple of 4 below 64, default 0): every array starts that many bytes past a
 * 64-byte boundary, as a NumPy array's data, 16 bytes into its allocation, commonly does. --quick
 * takes bench_transformer --quick's small sizes: a smoke test, not a measurement. --shape gives
 * the matrix of softmax, sum_axis0 and sum_axis1 another shape (a network's logits, 128,10, say),
 * and --runs N (default 1) times N runs of each build, and N of the bound, as one rep, for
 * workloads too short to time one run at a time (the figures are per run). Prints
 * one JSON line for the bound ("read", "fma3" or "copy") and one per build:
 * median and best milliseconds per run, the median over the reps of the bound's time over the
 * build's (percent_of_bound), and its last rep's result checked against a scalar double
 * computation (bench_transformer's check: "check" is the worst error in units of the tolerance;
 * above 1 the program fails). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nanograph/api.h"
#include "support/measure.h"
#include "support/stream.h"
#include "support/workloads.h"

enum { MAX_BUILDS = 8, MAX_REPS = 10000 };

typedef struct build {
    const char *path;
    void *library;
    const ng_api_t *api;
    ng_graph_t *graph;
    ng_transformer_t *transformer;
    ng_computation_t *computation;
    ng_tensor_t *inputs[3], *output; /* output: NULL where the build makes a new result */
    int32_t num_inputs;
    double ms[MAX_REPS], ratio[MAX_REPS];
    double check; /* the last rep's worst error in units of the tolerance (<= 1 passes) */
} build_t;

typedef struct options {
    int32_t threads, reps, offset; /* offset: bytes past a 64-byte boundary of every array */
    int32_t runs;                  /* runs of each build (and of the bound) per rep */
    int64_t rows, cols;            /* --shape: the 2-D workloads' matrix, 0 for their own */
    const char *workload;
    int quick; /* bench_transformer --quick's sizes */
} options_t;

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "bench_ab: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 2;
}

/* The workloads bench_ab runs: whether the result, of the inputs' size, goes to an output array,
 * and the plain loop that bounds them. Their inputs, shapes and check are bench_transformer's. */
typedef enum bound { BOUND_READ, BOUND_FMA3, BOUND_COPY } bound_t;

typedef struct workload {
    const char *name;
    int32_t output;
    bound_t bound;
} workload_t;

static const workload_t workloads[] = {
    {"l2_diff", 0, BOUND_READ},  {"sum_axis0", 0, BOUND_READ}, {"sum_axis1", 0, BOUND_READ},
    {"tanh_fma", 1, BOUND_FMA3}, {"softmax", 1, BOUND_COPY},
};

static const char *const bound_names[] = {"read", "fma3", "copy"};

static const workload_t *find_workload(const char *name) {
    for (size_t i = 0; i < sizeof workloads / sizeof workloads[0]; ++i)
        if (strcmp(workloads[i].name, name) == 0) return &workloads[i];
    return NULL;
}

/* A workload as bench_transformer runs it at full size: its inputs' shapes and its check. */
typedef struct job {
    const workload_t *w;
    const bench_workload_t *reference;
    bench_input_t shapes[BENCH_MAX_INPUTS];
} job_t;

/* The workload's graph through one build's table, compiled over that build's wraps of the arrays
 * (arrays[0..inputs) the inputs, arrays[inputs] the output where the workload has one). Every
 * input has input 0's shape. */
static int compile(build_t *b, const options_t *opt, const job_t *job, float *const *arrays) {
    const ng_api_t *api = b->api;
    const workload_t *w = job->w;
    const bench_input_t *shape = &job->shapes[0];
    const int32_t rank = shape->rank;
    ng_graph_t *g = b->graph = api->graph_create();
    if (!g) return fail("graph_create failed in", b->path);
    const ng_axis_t *axes[BENCH_MAX_RANK];
    for (int32_t d = 0; d < rank; ++d) axes[d] = api->axis(g, shape->axis_names[d], shape->dims[d]);
    ng_op_t *params[BENCH_MAX_INPUTS];
    for (int32_t i = 0; i < job->reference->num_inputs; ++i)
        params[i] = api->placeholder(g, NG_FLOAT32, axes, rank, NULL);
    ng_op_t *result;
    if (strcmp(w->name, "l2_diff") == 0) {
        result = api->sum(g, api->square(g, api->subtract(g, params[0], params[1])), NULL, 0);
    } else if (strcmp(w->name, "softmax") == 0) {
        result = api->softmax(g, params[0], &axes[1], 1);
    } else if (strcmp(w->name, "tanh_fma") == 0) {
        ng_op_t *t = api->tanh(g, api->add(g, api->multiply(g, params[0], params[1]), params[2]));
        result = api->add(g, api->multiply(g, t, api->scalar(g, 0.5)), params[0]);
    } else {
        const ng_axis_t *reduced[1] = {axes[strcmp(w->name, "sum_axis0") == 0 ? 0 : 1]};
        result = api->sum(g, params[0], reduced, 1);
    }
    if (api->graph_status(g) != NG_OK)
        return fail("building the graph failed", api->graph_error(g));
    ng_transformer_t *t = b->transformer = api->transformer_create("cpu");
    if (!t || api->transformer_set_num_threads(t, opt->threads) != NG_OK)
        return fail("transformer_create failed in", b->path);
    b->num_inputs = job->reference->num_inputs;
    b->computation = api->computation_create(t, &result, 1, params, b->num_inputs);
    if (!b->computation) return fail("computation_create failed", api->last_error());
    for (int32_t i = 0; i < b->num_inputs + w->output; ++i) {
        ng_tensor_t *wrap =
            api->tensor_wrap(NG_FLOAT32, shape->dims, NULL, rank, arrays[i], NULL, NULL);
        if (!wrap) return fail("tensor_wrap failed", api->last_error());
        if (i < b->num_inputs)
            b->inputs[i] = wrap;
        else
            b->output = wrap;
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
        b->api->tensor_release(b->output);
        b->api->computation_destroy(b->computation);
        b->api->transformer_destroy(b->transformer);
        b->api->graph_destroy(b->graph);
    }
    dlclose(b->library);
}

static void print_line(const char *impl, const options_t *opt, double *ms, double *ratio,
                       double check) {
    double best = ms[0];
    for (int32_t r = 1; r < opt->reps; ++r)
        if (ms[r] < best) best = ms[r];
    printf(
        "{\"impl\": \"%s\", \"workload\": \"%s\", \"threads\": %d, \"reps\": %d, "
        "\"runs\": %d, \"offset\": %d, \"median_ms\": %.6f, \"best_ms\": %.6f",
        impl, opt->workload, opt->threads, opt->reps, opt->runs, opt->offset,
        bench_median(ms, (size_t)opt->reps), best);
    if (opt->rows) printf(", \"shape\": [%lld, %lld]", (long long)opt->rows, (long long)opt->cols);
    if (ratio) {
        printf(", \"percent_of_bound\": %.1f", 100 * bench_median(ratio, (size_t)opt->reps));
        printf(", \"check\": %.3g", check);
    }
    printf("}\n");
}

static int parse(int argc, char **argv, options_t *opt, int *first_library) {
    *opt = (options_t){.threads = 1, .reps = 100, .runs = 1, .offset = 0, .workload = "sum_axis1"};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; ++i) {
        const char *name = argv[i];
        if (strcmp(name, "--quick") == 0) {
            opt->quick = 1;
            continue;
        }
        if (i + 1 >= argc) return fail("missing value after", name);
        const char *value = argv[++i];
        if (strcmp(name, "--threads") == 0)
            opt->threads = atoi(value);
        else if (strcmp(name, "--reps") == 0)
            opt->reps = atoi(value);
        else if (strcmp(name, "--only") == 0)
            opt->workload = value;
        else if (strcmp(name, "--offset") == 0)
            opt->offset = atoi(value);
        else if (strcmp(name, "--runs") == 0)
            opt->runs = atoi(value);
        else if (strcmp(name, "--shape") == 0) {
            char *end;
            opt->rows = strtoll(value, &end, 10);
            opt->cols = *end == ',' ? strtoll(end + 1, &end, 10) : 0;
            if (*end != '\0' || opt->rows < 1 || opt->cols < 1)
                return fail("--shape takes two positive lengths, ROWS,COLS, not", value);
        } else
            return fail("unknown option", name);
    }
    if (opt->threads < 1 || opt->reps < 1 || opt->reps > MAX_REPS || opt->runs < 1)
        return fail("--threads, --reps and --runs must be positive (reps at most 10000)", NULL);
    if (opt->offset < 0 || opt->offset >= 64 || opt->offset % 4 != 0)
        return fail("--offset takes a multiple of 4 from 0 to 60", NULL);
    if (!find_workload(opt->workload))
        return fail("--only takes l2_diff, sum_axis0, sum_axis1, tanh_fma or softmax, not",
                    opt->workload);
    if (opt->rows &&
        (strcmp(opt->workload, "l2_diff") == 0 || strcmp(opt->workload, "tanh_fma") == 0))
        return fail("--shape is for softmax, sum_axis0 and sum_axis1, not", opt->workload);
    if (i >= argc || argc - i > MAX_BUILDS)
        return fail(
            "usage: bench_ab [--threads N] [--reps N] [--runs N] [--only WORKLOAD] "
            "[--offset BYTES] [--shape ROWS,COLS] [--quick] LIBRARY... "
            "(one to eight libraries)",
            NULL);
    *first_library = i;
    return 0;
}

int main(int argc, char **argv) {
    options_t opt;
    int first, status = parse(argc, argv, &opt, &first);
    if (status) return status;
    const int builds = argc - first;
    job_t job;
    job.w = find_workload(opt.workload);
    job.reference = bench_find_workload(opt.workload);
    bench_sizes_t sizes;
    bench_sizes_init(&sizes, opt.quick);
    job.reference->describe_inputs(&sizes, job.shapes);
    if (opt.rows) {
        job.shapes[0].dims[0] = opt.rows;
        job.shapes[0].dims[1] = opt.cols;
    }
    const workload_t *w = job.w;
    const int32_t inputs = job.reference->num_inputs, count = inputs + w->output;
    int64_t n = 1; /* floats per array */
    for (int32_t d = 0; d < job.shapes[0].rank; ++d) n *= job.shapes[0].dims[d];
    /* Each array's allocation (16 floats longer) and the array, opt.offset bytes into it. */
    float *allocations[BENCH_MAX_INPUTS + 1] = {NULL}, *arrays[BENCH_MAX_INPUTS + 1] = {NULL};
    for (int32_t i = 0; i < count && !status; ++i) { /* inputs that differ: a seed each */
        if (!(allocations[i] = bench_huge_floats(n + 16, (uint64_t)i + 1)))
            status = fail("out of memory", NULL);
        else
            arrays[i] = allocations[i] + opt.offset / 4;
    }
    static build_t b[MAX_BUILDS];
    static double bound_ms[MAX_REPS];
    for (int k = 0; k < builds && !status; ++k)
        if (!(status = load(&b[k], argv[first + k]))) status = compile(&b[k], &opt, &job, arrays);
    volatile float sink = 0;
    for (int32_t r = 0; r < opt.reps && !status; ++r) {
        int64_t t0 = bench_now_ns();
        for (int32_t run = 0; run < opt.runs; ++run)
            if (w->bound == BOUND_FMA3)
                bench_fma3(arrays[inputs], arrays[0], arrays[1], arrays[2], n);
            else if (w->bound == BOUND_COPY)
                bench_copy(arrays[inputs], arrays[0], n);
            else
                for (int32_t i = 0; i < inputs; ++i) sink += bench_read_sum(arrays[i], n);
        bound_ms[r] = (double)(bench_now_ns() - t0) / 1e6 / opt.runs;
        for (int k = 0; k < builds && !status; ++k) {
            ng_tensor_t *out = b[k].output; /* written in place, or NULL for a new result */
            t0 = bench_now_ns();
            for (int32_t run = 0; run < opt.runs && !status; ++run) {
                if (run > 0 && !b[k].output) { /* the run before's new result */
                    b[k].api->tensor_release(out);
                    out = NULL;
                }
                if (b[k].api->computation_run(b[k].computation, b[k].inputs, b[k].num_inputs, &out,
                                              1) != NG_OK)
                    status = fail("computation_run failed", b[k].api->last_error());
            }
            b[k].ms[r] = (double)(bench_now_ns() - t0) / 1e6 / opt.runs;
            b[k].ratio[r] = bound_ms[r] / b[k].ms[r];
            if (!status && r == opt.reps - 1) {
                const float *result = b[k].api->tensor_data(out);
                b[k].check = job.reference->check(job.shapes, (const float *const *)arrays, result);
                if (!(b[k].check <= 1)) status = fail("wrong result from", b[k].path);
            }
            if (!b[k].output) b[k].api->tensor_release(out);
        }
    }
    (void)sink;
    if (!status) {
        print_line(bound_names[w->bound], &opt, bound_ms, NULL, 0);
        for (int k = 0; k < builds; ++k)
            print_line(b[k].path, &opt, b[k].ms, b[k].ratio, b[k].check);
    }
    for (int k = 0; k < builds; ++k) unload(&b[k]);
    for (int32_t i = 0; i < count; ++i) free(allocations[i]);
    return status;
}
