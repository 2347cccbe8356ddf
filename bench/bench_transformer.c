/* bench_transformer: times nanograph's CPU transformer on the workloads of docs/benchmarks.md.
 *
 * Each workload runs in a child process of its own (so one workload's memory cannot hide
 * another's peak): it creates its inputs, takes a memory baseline, builds and compiles its graph,
 * runs it (warm-up, then timed repetitions), checks the last result against a scalar double
 * computation and prints one JSON line. bench/run_all.py joins these lines with the same
 * workloads run by NumPy and PyTorch (bench/peers.py).
 *
 * Exit status: 0 when every workload ran and was right, 1 when a result was wrong, 2 when
 * nanograph failed (the message is on stderr), 64 for bad options. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nanograph/nanograph.h"
#include "support/measure.h"
#include "support/workloads.h"

enum { EXIT_WRONG = 1, EXIT_NANOGRAPH = 2, EXIT_USAGE = 64 };

/* Warm-up runs before timing: the first run also runs initializers and faults in the arena. */
enum { WARMUP_RUNS = 2, TINY_WARMUP_CALLS = 1000 };

typedef struct options {
    int32_t threads;
    int quick;
    const char *only;
} options_t;

/* The compiled workload and the tensors of one run. */
typedef struct session {
    const bench_workload_t *workload;
    bench_input_t shapes[BENCH_MAX_INPUTS];
    ng_tensor_t *inputs[BENCH_MAX_INPUTS];
    ng_graph_t *graph;
    ng_transformer_t *transformer;
    ng_computation_t *computation;
    ng_op_t *result_op;
    ng_tensor_t *result; /* the last run's result (tiny: the preallocated output) */
} session_t;

static int nanograph_failed(const char *doing) {
    fprintf(stderr, "bench_transformer: %s failed: %s (%s)\n", doing, ng_last_error(),
            ng_status_string(ng_last_status()));
    return EXIT_NANOGRAPH;
}

static int create_inputs(session_t *s) {
    for (int32_t i = 0; i < s->workload->num_inputs; ++i) {
        const bench_input_t *in = &s->shapes[i];
        s->inputs[i] = ng_tensor_create(NG_FLOAT32, in->dims, in->rank);
        if (!s->inputs[i]) return nanograph_failed("ng_tensor_create");
        bench_fill_uniform(ng_tensor_data(s->inputs[i]), ng_tensor_numel(s->inputs[i]),
                           (uint64_t)i + 1);
    }
    return 0;
}

static int compile(session_t *s, int32_t threads) {
    ng_op_t *params[BENCH_MAX_INPUTS] = {NULL};
    s->graph = ng_graph_create();
    if (!s->graph) return nanograph_failed("ng_graph_create");
    for (int32_t i = 0; i < s->workload->num_inputs; ++i) {
        const bench_input_t *in = &s->shapes[i];
        const ng_axis_t *axes[BENCH_MAX_RANK] = {NULL};
        for (int32_t d = 0; d < in->rank; ++d)
            axes[d] = ng_axis(s->graph, in->axis_names[d], in->dims[d]);
        params[i] = ng_placeholder(s->graph, NG_FLOAT32, axes, in->rank, NULL);
    }
    s->result_op = s->workload->build(s->graph, params);
    if (ng_graph_status(s->graph) != NG_OK) {
        fprintf(stderr, "bench_transformer: building %s failed: %s\n", s->workload->name,
                ng_graph_error(s->graph));
        return EXIT_NANOGRAPH;
    }
    s->transformer = ng_transformer_create("cpu");
    if (!s->transformer) return nanograph_failed("ng_transformer_create");
    if (ng_transformer_set_num_threads(s->transformer, threads) != NG_OK)
        return nanograph_failed("ng_transformer_set_num_threads");
    s->computation =
        ng_computation_create(s->transformer, &s->result_op, 1, params, s->workload->num_inputs);
    if (!s->computation) return nanograph_failed("ng_computation_create");
    if (s->workload->is_tiny) {
        int64_t dims[BENCH_MAX_RANK] = {0};
        int32_t rank = ng_op_rank(s->result_op);
        for (int32_t d = 0; d < rank && d < BENCH_MAX_RANK; ++d)
            dims[d] = ng_axis_length(ng_op_axis(s->result_op, d));
        s->result = ng_tensor_create(NG_FLOAT32, dims, rank);
        if (!s->result) return nanograph_failed("ng_tensor_create");
    }
    return 0;
}

/* `calls` runs. The tiny graph writes into its preallocated output; the others return a new
 * tensor per run, as an array expression in NumPy does, and release the previous result first
 * so that the peak holds one result, as in bench/peers.py. */
static int run_calls(session_t *s, int64_t calls) {
    for (int64_t i = 0; i < calls; ++i) {
        if (!s->workload->is_tiny) {
            ng_tensor_release(s->result);
            s->result = NULL;
        }
        ng_tensor_t *slot = s->result;
        if (ng_computation_run(s->computation, s->inputs, s->workload->num_inputs, &slot, 1) !=
            NG_OK)
            return nanograph_failed("ng_computation_run");
        s->result = slot;
    }
    return 0;
}

/* The worst error of the last result, in units of the workload's tolerance. */
static int check_result(session_t *s, double *error_units) {
    int64_t n = ng_tensor_numel(s->result);
    float *values = malloc((size_t)(n > 0 ? n : 1) * sizeof *values);
    if (!values) {
        fprintf(stderr, "bench_transformer: out of memory reading the result of %s\n",
                s->workload->name);
        return EXIT_NANOGRAPH;
    }
    if (ng_tensor_read(s->result, values, (size_t)n * sizeof *values) != NG_OK) {
        free(values);
        return nanograph_failed("ng_tensor_read");
    }
    const float *inputs[BENCH_MAX_INPUTS] = {NULL};
    for (int32_t i = 0; i < s->workload->num_inputs; ++i) inputs[i] = ng_tensor_data(s->inputs[i]);
    *error_units = s->workload->check(s->shapes, inputs, values);
    free(values);
    return 0;
}

static void close_session(session_t *s) {
    ng_tensor_release(s->result);
    ng_computation_destroy(s->computation);
    ng_transformer_destroy(s->transformer);
    ng_graph_destroy(s->graph);
    for (int32_t i = 0; i < BENCH_MAX_INPUTS; ++i) ng_tensor_release(s->inputs[i]);
}

/* "4096x1024": the first input's dims, the label bench/peers.py prints for the same workload. */
static void shape_label(const bench_input_t *in, char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t d = 0; d < in->rank && used < cap; ++d)
        used +=
            (size_t)snprintf(buf + used, cap - used, d ? "x%lld" : "%lld", (long long)in->dims[d]);
}

static void print_json(const session_t *s, const options_t *opt, int32_t reps, int64_t calls,
                       double median_ms, double min_ms, int64_t peak_kib, const char *peak_method,
                       double error_units) {
    char shape[64];
    shape_label(&s->shapes[0], shape, sizeof shape);
    char error_text[32] = "null"; /* JSON has no inf or NaN */
    if (isfinite(error_units)) snprintf(error_text, sizeof error_text, "%.3g", error_units);
    ng_computation_stats_t st = {.struct_size = sizeof st}; /* the other fields start at 0 */
    ng_computation_stats(s->computation, &st);
    printf(
        "{\"impl\": \"nanograph\", \"workload\": \"%s\", \"shape\": \"%s\", \"threads\": %d, "
        "\"reps\": %d, "
        "\"calls_per_rep\": %lld, \"ms\": %.4f, \"ms_min\": %.4f, \"peak_mib\": %.2f, "
        "\"peak_method\": \"%s\", "
        "\"check\": \"%s\", \"check_error\": %s, \"arena_bytes\": %zu, \"buffer_bytes\": %zu, "
        "\"num_buffers\": %d, "
        "\"num_kernels\": %d, \"num_nodes\": %d, \"num_source_ops\": %d, \"version\": \"%s\"}\n",
        s->workload->name, shape, opt->threads, reps, (long long)calls, median_ms, min_ms,
        (double)peak_kib / 1024.0, peak_method, error_units <= 1 ? "ok" : "wrong", error_text,
        st.arena_bytes, st.buffer_bytes, st.num_buffers, st.num_kernels, st.num_nodes,
        st.num_source_ops, ng_version_string());
    fflush(stdout);
}

/* One workload, start to finish, in the calling process; returns its exit status. */
static int run_workload(const bench_workload_t *w, const options_t *opt) {
    bench_sizes_t sizes;
    bench_sizes_init(&sizes, opt->quick);
    session_t s;
    memset(&s, 0, sizeof s);
    s.workload = w;
    w->describe_inputs(&sizes, s.shapes);

    int status = create_inputs(&s);
    bench_peak_tracker_t peak;
    bench_peak_start(&peak);
    if (!status) status = compile(&s, opt->threads);

    int32_t reps = w->is_tiny ? sizes.tiny_reps : sizes.reps;
    int64_t calls = w->is_tiny ? sizes.tiny_calls : 1;
    double times_ms[BENCH_MAX_REPS];
    if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
    if (!status) status = run_calls(&s, w->is_tiny ? TINY_WARMUP_CALLS : WARMUP_RUNS);
    for (int32_t r = 0; r < reps && !status; ++r) {
        int64_t start = bench_now_ns();
        status = run_calls(&s, calls);
        times_ms[r] = (double)(bench_now_ns() - start) / 1e6;
    }
    int64_t peak_kib = bench_peak_delta_kib(&peak); /* before the check's own copy of the result */
    double error_units = INFINITY;
    if (!status) status = check_result(&s, &error_units);
    if (!status) {
        double min_ms = times_ms[0];
        for (int32_t r = 1; r < reps; ++r) min_ms = fmin(min_ms, times_ms[r]);
        print_json(&s, opt, reps, calls, bench_median(times_ms, (size_t)reps), min_ms, peak_kib,
                   peak.hwm_was_reset ? "vmhwm" : "ru_maxrss", error_units);
        if (!(error_units <= 1)) {
            fprintf(stderr,
                    "bench_transformer: %s: WRONG RESULT, worst error %.3g times the tolerance\n",
                    w->name, error_units);
            status = EXIT_WRONG;
        }
    }
    close_session(&s);
    return status;
}

/* Runs the workload in a fresh child process, so its peak memory is its own. */
static int run_in_child(const bench_workload_t *w, const options_t *opt) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bench_transformer: fork: %s\n", strerror(errno));
        return EXIT_NANOGRAPH;
    }
    if (pid == 0) /* exit, not _exit: the stdio buffers were empty at the fork, and exit runs
                     LeakSanitizer in sanitizer builds */
        exit(run_workload(w, opt));
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) return EXIT_NANOGRAPH;
    }
    if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
    fprintf(stderr, "bench_transformer: %s: the child died of signal %d\n", w->name,
            WTERMSIG(wstatus));
    return EXIT_NANOGRAPH;
}

static int usage(FILE *to, int status) {
    fprintf(to,
            "usage: bench_transformer [--threads N] [--quick] [--only NAME]\n"
            "  --threads N  threads of the transformer (default 2); OpenBLAS takes its own count\n"
            "               from OPENBLAS_NUM_THREADS, which bench/run.sh sets to N\n"
            "  --quick      small sizes and few repetitions: a smoke test, not a measurement\n"
            "  --only NAME  run one workload:");
    for (size_t i = 0; i < bench_num_workloads; ++i) fprintf(to, " %s", bench_workloads[i].name);
    fprintf(to, "\nPrints one JSON line per workload (median ms per repetition, peak memory).\n");
    return status;
}

static int parse_options(int argc, char **argv, options_t *opt) {
    *opt = (options_t){.threads = 2, .quick = 0, .only = NULL};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--quick") == 0) {
            opt->quick = 1;
        } else if (strcmp(arg, "--threads") == 0 && i + 1 < argc) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 1024) {
                fprintf(stderr,
                        "bench_transformer: --threads wants a count from 1 to 1024, not '%s'\n",
                        argv[i]);
                return EXIT_USAGE;
            }
            opt->threads = (int32_t)n;
        } else if (strcmp(arg, "--only") == 0 && i + 1 < argc) {
            opt->only = argv[++i];
            if (!bench_find_workload(opt->only)) {
                fprintf(stderr, "bench_transformer: no workload named '%s'\n", opt->only);
                return usage(stderr, EXIT_USAGE);
            }
        } else if (strcmp(arg, "--help") == 0) {
            return usage(stdout, -1);
        } else {
            fprintf(stderr, "bench_transformer: unknown or incomplete option '%s'\n", arg);
            return usage(stderr, EXIT_USAGE);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    options_t opt;
    int status = parse_options(argc, argv, &opt);
    if (status) return status < 0 ? 0 : status;
    int worst = 0;
    for (size_t i = 0; i < bench_num_workloads; ++i) {
        const bench_workload_t *w = &bench_workloads[i];
        if (opt.only && strcmp(opt.only, w->name) != 0) continue;
        int result = run_in_child(w, &opt);
        /* a nanograph failure outranks a wrong answer in the exit status */
        if (result > worst) worst = result;
    }
    return worst;
}
