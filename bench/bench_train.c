/* bench_train: times nanograph's training of multilayer perceptrons.
 *
 * Two workloads, each in a child process of its own (so one's memory cannot hide the other's
 * peak), each printing one JSON line that bench/run_train.py joins with the same workloads run
 * by PyTorch and NumPy (bench/peers_train.py):
 * - sgd_step: one training step (forward, backward, plain SGD update) of a 784-512-256-10 ReLU
 *   MLP with softmax cross-entropy, batch 128, on random inputs and labels from a fixed seed:
 *   the median milliseconds of a step after warm-up.
 * - adam_epoch: one epoch of the main job, examples/train_mlp's defaults: 784-256-128-10, Adam
 *   with learning rate 0.002, shuffled batches of 128 over the Fashion-MNIST training set (the
 *   last partial batch skipped): seconds for the epoch (batch copies included, compilation not).
 * - mlp_infer_b128, mlp_infer_b1: inference (forward only, the logits) of the sgd_step network
 *   at batch 128 and at batch 1: the median milliseconds of a run returning a new result tensor.
 *   The network is exported as an ONNX model with its weights (ng_onnx_export_trained_file) to
 *   --onnx-dir, beside its input and nanograph's logits as raw float32 files, so that the peers
 *   run the same model on the same input and run_train.py can check nanograph's result.
 * All record the peak resident memory above the inputs (the data set for adam_epoch).
 *
 * Exit status: 0 when every workload ran and its losses were finite, 1 when a loss was not
 * finite, 2 when nanograph failed or the data set could not be read, 64 for bad options. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datasets.h"
#include "nanograph/nanograph.h"
#include "support/measure.h"
#include "support/workloads.h"

enum { EXIT_WRONG = 1, EXIT_NANOGRAPH = 2, EXIT_USAGE = 64 };
enum { MAX_TIMED_STEPS = 1000 };

#define FASHION_DIR "/usr/share/datasets/fashion-mnist"
#define SGD_LEARNING_RATE 0.01
#define ADAM_LEARNING_RATE 0.002 /* train_mlp's first-epoch rate */
#define DATA_SEED 1

typedef struct options {
    int32_t threads;
    int quick;
    const char *only;
    const char *data_dir;
    const char *onnx_dir;
} options_t;

/* The sizes of a run; --quick shrinks them to a smoke test. */
typedef struct sizes {
    int64_t step_units[4];  /* sgd_step's layer widths, input first */
    int64_t epoch_units[4]; /* adam_epoch's layer widths (the input width comes from the data) */
    int64_t batch;
    int32_t warmup_steps, timed_steps;
    int32_t infer_runs;         /* timed inference runs */
    int64_t epoch_examples_cap; /* adam_epoch uses at most this many training examples; 0: all */
} sizes_t;

static sizes_t sizes_for(int quick) {
    if (quick) return (sizes_t){{784, 32, 16, 10}, {784, 32, 16, 10}, 16, 1, 3, 3, 512};
    return (sizes_t){{784, 512, 256, 10}, {784, 256, 128, 10}, 128, 5, 50, 200, 0};
}

/* "784-512-256-10 b128": the label bench/peers_train.py prints for the same network and batch. */
static void shape_label(const int64_t units[4], int64_t batch, char *buf, size_t cap) {
    snprintf(buf, cap, "%lld-%lld-%lld-%lld b%lld", (long long)units[0], (long long)units[1],
             (long long)units[2], (long long)units[3], (long long)batch);
}

static int nanograph_failed(const char *doing) {
    fprintf(stderr, "bench_train: %s failed: %s (%s)\n", doing, ng_last_error(),
            ng_status_string(ng_last_status()));
    return EXIT_NANOGRAPH;
}

/* ---- the network and its training step ------------------------------------------------------ */

typedef enum optimizer { OPT_SGD, OPT_ADAM } optimizer_t;

/* A compiled training step: one run reads a batch (x, one-hot labels) and writes the loss
 * before the update. */
typedef struct trainer {
    ng_graph_t *graph;
    ng_transformer_t *transformer;
    ng_computation_t *step;
    ng_tensor_t *x, *labels, *loss;
} trainer_t;

/* The logits of a ReLU MLP of widths units[0..3] (He-initialized hidden layers, a Glorot output
 * layer, zero biases, as examples/train_mlp). Builder errors are recorded by the graph. */
static ng_op_t *mlp_logits(ng_graph_t *g, ng_op_t *x, const ng_axis_t *const layer_axes[4]) {
    ng_op_t *h = x;
    for (int i = 0; i < 3; ++i) {
        const ng_axis_t *in = layer_axes[i], *out = layer_axes[i + 1];
        const ng_axis_t *w_axes[2] = {in, out};
        ng_op_t *init =
            i < 2
                ? ng_initializer_he_normal(g, NG_FLOAT32, w_axes, 2, &in, 1, (uint64_t)i + 1)
                : ng_initializer_glorot_uniform(g, NG_FLOAT32, w_axes, 2, &in, 1, (uint64_t)i + 1);
        ng_op_t *w = ng_variable(g, NG_FLOAT32, w_axes, 2, init);
        ng_op_t *b = ng_variable(g, NG_FLOAT32, &out, 1, NULL);
        ng_op_t *z = ng_add(g, ng_dot(g, h, w), b);
        h = i < 2 ? ng_relu(g, z) : z;
    }
    return h;
}

static int trainer_create(trainer_t *t, const int64_t units[4], int64_t batch,
                          optimizer_t optimizer, double learning_rate, int32_t threads) {
    memset(t, 0, sizeof *t);
    ng_graph_t *g = t->graph = ng_graph_create();
    if (!g) return nanograph_failed("ng_graph_create");
    static const char *const names[4] = {"F", "H1", "H2", "C"};
    const ng_axis_t *layer_axes[4];
    for (int i = 0; i < 4; ++i) layer_axes[i] = ng_axis(g, names[i], units[i]);
    const ng_axis_t *batch_axis = ng_axis(g, "N", batch);
    const ng_axis_t *x_axes[2] = {batch_axis, layer_axes[0]},
                    *label_axes[2] = {batch_axis, layer_axes[3]};
    ng_op_t *params[2] = {ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL),
                          ng_placeholder(g, NG_FLOAT32, label_axes, 2, NULL)};
    ng_op_t *probabilities = ng_softmax(g, mlp_logits(g, params[0], layer_axes), &layer_axes[3], 1);
    ng_op_t *loss =
        ng_mean(g, ng_cross_entropy_multi(g, probabilities, params[1], &layer_axes[3], 1), NULL, 0);
    ng_op_t *rate = ng_scalar(g, learning_rate);
    ng_op_t *step =
        optimizer == OPT_SGD ? ng_sgd(g, loss, rate, NULL) : ng_adam(g, loss, rate, NULL);
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "bench_train: building the network failed: %s\n", ng_graph_error(g));
        return EXIT_NANOGRAPH;
    }
    if (!(t->transformer = ng_transformer_create("cpu")))
        return nanograph_failed("ng_transformer_create");
    if (ng_transformer_set_num_threads(t->transformer, threads) != NG_OK)
        return nanograph_failed("ng_transformer_set_num_threads");
    if (!(t->step = ng_computation_create(t->transformer, &step, 1, params, 2)))
        return nanograph_failed("compiling the training step");
    int64_t x_shape[2] = {batch, units[0]}, label_shape[2] = {batch, units[3]};
    t->x = ng_tensor_create(NG_FLOAT32, x_shape, 2);
    t->labels = ng_tensor_create(NG_FLOAT32, label_shape, 2);
    t->loss = ng_tensor_create(NG_FLOAT32, NULL, 0);
    if (!t->x || !t->labels || !t->loss) return nanograph_failed("ng_tensor_create");
    return 0;
}

static void trainer_destroy(trainer_t *t) {
    ng_computation_destroy(t->step);
    ng_transformer_destroy(t->transformer);
    ng_graph_destroy(t->graph);
    ng_tensor_release(t->x);
    ng_tensor_release(t->labels);
    ng_tensor_release(t->loss);
}

/* One step on the batch in t->x and t->labels; *loss is the loss before the update. */
static int trainer_step(trainer_t *t, double *loss) {
    ng_tensor_t *inputs[2] = {t->x, t->labels};
    if (ng_computation_run(t->step, inputs, 2, &t->loss, 1) != NG_OK)
        return nanograph_failed("a training step");
    *loss = *(const float *)ng_tensor_data(t->loss);
    return 0;
}

static int loss_status(const char *workload, double loss) {
    if (isfinite(loss)) return 0;
    fprintf(stderr, "bench_train: %s: the loss is not finite\n", workload);
    return EXIT_WRONG;
}

static const char *peak_method(const bench_peak_tracker_t *peak) {
    return peak->hwm_was_reset ? "vmhwm" : "ru_maxrss";
}

/* ---- sgd_step
 * ------------------------------------------------------------------------------------ */

/* Uniform inputs in [-1, 1) and uniformly drawn one-hot labels, from fixed seeds. */
static void fill_random_batch(float *x, float *labels, int64_t batch, int64_t features,
                              int64_t classes) {
    bench_fill_uniform(x, batch * features, DATA_SEED);
    float *draws =
        labels; /* the draws fit in the label buffer, which is then overwritten row by row */
    bench_fill_uniform(draws, batch, DATA_SEED + 1);
    for (int64_t i = batch - 1; i >= 0; --i) {
        int64_t label = (int64_t)((draws[i] + 1.0f) * 0.5f * (float)classes);
        if (label >= classes) label = classes - 1;
        memset(labels + i * classes, 0, (size_t)classes * sizeof *labels);
        labels[i * classes + label] = 1.0f;
    }
}

static int run_sgd_step(const options_t *opt) {
    sizes_t sz = sizes_for(opt->quick);
    bench_peak_tracker_t peak;
    bench_peak_start(&peak);
    trainer_t t;
    int status =
        trainer_create(&t, sz.step_units, sz.batch, OPT_SGD, SGD_LEARNING_RATE, opt->threads);
    if (!status)
        fill_random_batch(ng_tensor_data(t.x), ng_tensor_data(t.labels), sz.batch, sz.step_units[0],
                          sz.step_units[3]);
    double first_loss = NAN, loss = NAN, times_ms[MAX_TIMED_STEPS];
    int32_t steps = sz.timed_steps < MAX_TIMED_STEPS ? sz.timed_steps : MAX_TIMED_STEPS;
    for (int32_t i = 0; i < sz.warmup_steps && !status; ++i) {
        status = trainer_step(&t, &loss);
        if (i == 0) first_loss = loss;
    }
    for (int32_t i = 0; i < steps && !status; ++i) {
        int64_t start = bench_now_ns();
        status = trainer_step(&t, &loss);
        times_ms[i] = (double)(bench_now_ns() - start) / 1e6;
    }
    int64_t peak_kib = bench_peak_delta_kib(&peak);
    if (!status) status = loss_status("sgd_step", loss);
    if (!status) {
        double min_ms = times_ms[0];
        for (int32_t i = 1; i < steps; ++i) min_ms = fmin(min_ms, times_ms[i]);
        char shape[64];
        shape_label(sz.step_units, sz.batch, shape, sizeof shape);
        printf(
            "{\"impl\": \"nanograph\", \"workload\": \"sgd_step\", \"shape\": \"%s\", \"threads\": "
            "%d, "
            "\"steps\": %d, \"ms\": %.4f, \"ms_min\": %.4f, \"peak_mib\": %.2f, \"peak_method\": "
            "\"%s\", "
            "\"first_loss\": %.5f, \"last_loss\": %.5f, \"version\": \"%s\"}\n",
            shape, opt->threads, steps, bench_median(times_ms, (size_t)steps), min_ms,
            (double)peak_kib / 1024.0, peak_method(&peak), first_loss, loss, ng_version_string());
        fflush(stdout);
    }
    trainer_destroy(&t);
    return status;
}

/* ---- adam_epoch
 * ------------------------------------------------------------------------------------ */

/* Copies the examples order[first .. first+batch) and their one-hot labels into the trainer. */
static void fill_data_batch(trainer_t *t, const dataset_t *d, const int64_t *order, int64_t first,
                            int64_t batch) {
    float *x = ng_tensor_data(t->x), *labels = ng_tensor_data(t->labels);
    memset(labels, 0, (size_t)(batch * d->classes) * sizeof *labels);
    for (int64_t i = 0; i < batch; ++i) {
        int64_t e = order[first + i];
        memcpy(x + i * d->features, d->pixels + e * d->features, (size_t)d->features * sizeof *x);
        labels[i * d->classes + d->labels[e]] = 1.0f;
    }
}

/* One shuffled pass; *mean_loss is the mean of the steps' losses. */
static int train_epoch(trainer_t *t, const dataset_t *d, int64_t batch, double *seconds,
                       double *mean_loss) {
    int64_t *order = malloc((size_t)d->count * sizeof *order);
    if (!order) {
        fprintf(stderr, "bench_train: out of memory\n");
        return EXIT_NANOGRAPH;
    }
    int64_t start = bench_now_ns();
    for (int64_t i = 0; i < d->count; ++i) order[i] = i;
    uint64_t rng = DATA_SEED;
    dataset_shuffle(order, d->count, &rng);
    int64_t steps = d->count / batch;
    double loss_sum = 0, loss = 0;
    int status = 0;
    for (int64_t s = 0; s < steps && !status; ++s) {
        fill_data_batch(t, d, order, s * batch, batch);
        status = trainer_step(t, &loss);
        loss_sum += loss;
    }
    *seconds = (double)(bench_now_ns() - start) / 1e9;
    *mean_loss = steps > 0 ? loss_sum / (double)steps : NAN;
    free(order);
    return status;
}

static int run_adam_epoch(const options_t *opt) {
    sizes_t sz = sizes_for(opt->quick);
    dataset_t train = {0};
    if (!dataset_idx_present(opt->data_dir, "train")) {
        fprintf(stderr,
                "bench_train: adam_epoch needs Fashion-MNIST in %s (apt-get install "
                "dataset-fashion-mnist)\n",
                opt->data_dir);
        return EXIT_NANOGRAPH;
    }
    if (dataset_load_idx(opt->data_dir, "train", &train) != 0) return EXIT_NANOGRAPH;
    if (sz.epoch_examples_cap > 0 && train.count > sz.epoch_examples_cap)
        train.count = sz.epoch_examples_cap;
    sz.epoch_units[0] = train.features;
    sz.epoch_units[3] = train.classes;

    bench_peak_tracker_t peak;
    bench_peak_start(&peak);
    int64_t compile_start = bench_now_ns();
    trainer_t t;
    int status =
        trainer_create(&t, sz.epoch_units, sz.batch, OPT_ADAM, ADAM_LEARNING_RATE, opt->threads);
    double compile_ms = (double)(bench_now_ns() - compile_start) / 1e6;
    double seconds = 0, mean_loss = NAN;
    if (!status) status = train_epoch(&t, &train, sz.batch, &seconds, &mean_loss);
    int64_t peak_kib = bench_peak_delta_kib(&peak);
    if (!status) status = loss_status("adam_epoch", mean_loss);
    if (!status) {
        char shape[64];
        shape_label(sz.epoch_units, sz.batch, shape, sizeof shape);
        int64_t examples = train.count / sz.batch * sz.batch;
        printf(
            "{\"impl\": \"nanograph\", \"workload\": \"adam_epoch\", \"shape\": \"%s\", "
            "\"threads\": %d, "
            "\"examples\": %lld, \"seconds\": %.4f, \"examples_per_s\": %.1f, \"compile_ms\": "
            "%.2f, "
            "\"peak_mib\": %.2f, \"peak_method\": \"%s\", \"mean_loss\": %.5f, \"version\": "
            "\"%s\"}\n",
            shape, opt->threads, (long long)examples, seconds,
            (double)examples / (seconds > 0 ? seconds : 1e-9), compile_ms,
            (double)peak_kib / 1024.0, peak_method(&peak), mean_loss, ng_version_string());
        fflush(stdout);
    }
    trainer_destroy(&t);
    dataset_free(&train);
    return status;
}

/* ---- mlp_infer_b128, mlp_infer_b1
 * ---------------------------------------------------------------- */

static int write_floats(const char *dir, const char *name, const char *suffix, const float *data,
                        int64_t n) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s.f32", dir, name, suffix);
    FILE *f = fopen(path, "wb");
    size_t written = f ? fwrite(data, sizeof *data, (size_t)n, f) : 0;
    if (!f || fclose(f) != 0 || written != (size_t)n) {
        fprintf(stderr, "bench_train: cannot write %s\n", path);
        return EXIT_NANOGRAPH;
    }
    return 0;
}

/* The forward pass of the sgd_step network at batch `batch`: compiled, timed, exported. */
static int run_infer(const options_t *opt, const char *name, int64_t batch) {
    sizes_t sz = sizes_for(opt->quick);
    const int64_t *units = sz.step_units;
    bench_peak_tracker_t peak;
    bench_peak_start(&peak);
    ng_graph_t *g = ng_graph_create();
    ng_transformer_t *t = ng_transformer_create("cpu");
    ng_computation_t *c = NULL;
    ng_tensor_t *x = NULL, *logits = NULL;
    if (!g || !t) return nanograph_failed("creating the graph and transformer");
    static const char *const names[4] = {"F", "H1", "H2", "C"};
    const ng_axis_t *layer_axes[4];
    for (int i = 0; i < 4; ++i) layer_axes[i] = ng_axis(g, names[i], units[i]);
    const ng_axis_t *x_axes[2] = {ng_axis(g, "N", batch), layer_axes[0]};
    ng_op_t *param = ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL);
    ng_op_t *result = mlp_logits(g, param, layer_axes);
    int status = 0;
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "bench_train: building the network failed: %s\n", ng_graph_error(g));
        status = EXIT_NANOGRAPH;
    }
    int64_t x_shape[2] = {batch, units[0]};
    if (!status && ng_transformer_set_num_threads(t, opt->threads) != NG_OK)
        status = nanograph_failed("ng_transformer_set_num_threads");
    if (!status && !(c = ng_computation_create(t, &result, 1, &param, 1)))
        status = nanograph_failed("compiling the forward pass");
    if (!status && !(x = ng_tensor_create(NG_FLOAT32, x_shape, 2)))
        status = nanograph_failed("ng_tensor_create");
    if (!status) bench_fill_uniform(ng_tensor_data(x), batch * units[0], DATA_SEED);
    double times_ms[MAX_TIMED_STEPS];
    int32_t runs = sz.infer_runs < MAX_TIMED_STEPS ? sz.infer_runs : MAX_TIMED_STEPS;
    for (int32_t i = -5; i < runs && !status; ++i) { /* 5 warm-up runs */
        ng_tensor_release(logits);
        logits = NULL; /* a NULL slot: each run returns a new tensor, as the peers' runs do */
        int64_t start = bench_now_ns();
        if (ng_computation_run(c, &x, 1, &logits, 1) != NG_OK)
            status = nanograph_failed("an inference run");
        if (i >= 0) times_ms[i] = (double)(bench_now_ns() - start) / 1e6;
    }
    int64_t peak_kib = bench_peak_delta_kib(&peak);
    char path[1024] = "";
    if (opt->onnx_dir) {
        snprintf(path, sizeof path, "%s/%s.onnx", opt->onnx_dir, name);
        if (!status && ng_onnx_export_trained_file(t, g, &result, 1, &param, 1, path) != NG_OK)
            status = nanograph_failed("exporting the network as ONNX");
        if (!status)
            status = write_floats(opt->onnx_dir, name, "x", ng_tensor_data(x), batch * units[0]);
        if (!status)
            status = write_floats(opt->onnx_dir, name, "nanograph", ng_tensor_data(logits),
                                  batch * units[3]);
    }
    if (!status) {
        double min_ms = times_ms[0];
        for (int32_t i = 1; i < runs; ++i) min_ms = fmin(min_ms, times_ms[i]);
        char shape[64];
        shape_label(units, batch, shape, sizeof shape);
        printf(
            "{\"impl\": \"nanograph\", \"workload\": \"%s\", \"shape\": \"%s\", "
            "\"threads\": %d, \"steps\": %d, \"ms\": %.4f, \"ms_min\": %.4f, "
            "\"peak_mib\": %.2f, \"peak_method\": \"%s\", \"model\": \"%s\", "
            "\"version\": \"%s\"}\n",
            name, shape, opt->threads, runs, bench_median(times_ms, (size_t)runs), min_ms,
            (double)peak_kib / 1024.0, peak_method(&peak), path, ng_version_string());
        fflush(stdout);
    }
    ng_tensor_release(logits);
    ng_tensor_release(x);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    return status;
}

static int run_infer_b128(const options_t *opt) {
    return run_infer(opt, "mlp_infer_b128", sizes_for(opt->quick).batch);
}

static int run_infer_b1(const options_t *opt) {
    return run_infer(opt, "mlp_infer_b1", 1);
}

/* ---- driver
 * ------------------------------------------------------------------------------------------ */

typedef struct workload {
    const char *name;
    int (*run)(const options_t *opt);
} workload_t;

static const workload_t workloads[] = {{"sgd_step", run_sgd_step},
                                       {"adam_epoch", run_adam_epoch},
                                       {"mlp_infer_b128", run_infer_b128},
                                       {"mlp_infer_b1", run_infer_b1}};
enum { NUM_WORKLOADS = sizeof workloads / sizeof workloads[0] };

/* Runs the workload in a fresh child process, so its peak memory is its own. */
static int run_in_child(const workload_t *w, const options_t *opt) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "bench_train: fork: %s\n", strerror(errno));
        return EXIT_NANOGRAPH;
    }
    if (pid == 0) /* exit, not _exit: it runs LeakSanitizer in sanitizer builds */
        exit(w->run(opt));
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) return EXIT_NANOGRAPH;
    }
    if (WIFEXITED(wstatus)) return WEXITSTATUS(wstatus);
    fprintf(stderr, "bench_train: %s: the child died of signal %d\n", w->name, WTERMSIG(wstatus));
    return EXIT_NANOGRAPH;
}

static int usage(FILE *to, int status) {
    fprintf(
        to,
        "usage: bench_train [--threads N] [--quick] [--only NAME] [--data-dir DIR] [--onnx-dir "
        "DIR]\n"
        "  --threads N    threads of the transformer (default 2); OpenBLAS takes its own count\n"
        "                 from OPENBLAS_NUM_THREADS, which bench/run.sh sets to N\n"
        "  --quick        tiny networks and few steps: a smoke test, not a measurement\n"
        "  --only NAME    run one workload: sgd_step, adam_epoch, mlp_infer_b128, mlp_infer_b1\n"
        "  --data-dir DIR where the Fashion-MNIST *-ubyte.gz files are (default " FASHION_DIR
        ")\n"
        "  --onnx-dir DIR where the inference workloads write their ONNX models, inputs and\n"
        "                 results for the peers (default: nothing is written)\n"
        "Prints one JSON line per workload.\n");
    return status;
}

static int parse_options(int argc, char **argv, options_t *opt) {
    *opt = (options_t){
        .threads = 2, .quick = 0, .only = NULL, .data_dir = FASHION_DIR, .onnx_dir = NULL};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(arg, "--quick") == 0) {
            opt->quick = 1;
        } else if (strcmp(arg, "--threads") == 0 && has_value) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            if (*end != '\0' || n < 1 || n > 1024) {
                fprintf(stderr, "bench_train: bad thread count '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            opt->threads = (int32_t)n;
        } else if (strcmp(arg, "--only") == 0 && has_value) {
            opt->only = argv[++i];
        } else if (strcmp(arg, "--data-dir") == 0 && has_value) {
            opt->data_dir = argv[++i];
        } else if (strcmp(arg, "--onnx-dir") == 0 && has_value) {
            opt->onnx_dir = argv[++i];
        } else if (strcmp(arg, "--help") == 0) {
            exit(usage(stdout, 0));
        } else {
            fprintf(stderr, "bench_train: bad option '%s'\n", arg);
            return usage(stderr, EXIT_USAGE);
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    options_t opt;
    int status = parse_options(argc, argv, &opt);
    if (status) return status;
    int found = 0;
    for (int i = 0; i < NUM_WORKLOADS; ++i) {
        if (opt.only && strcmp(opt.only, workloads[i].name) != 0) continue;
        found = 1;
        int s = run_in_child(&workloads[i], &opt);
        if (s > status) status = s;
    }
    if (!found) {
        fprintf(stderr, "bench_train: no workload named '%s'\n", opt.only);
        return usage(stderr, EXIT_USAGE);
    }
    return status;
}
