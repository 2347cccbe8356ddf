/* train_mlp: trains a multilayer perceptron to classify images, with nanograph.
 *
 * The network is 784-256-128-10 on Fashion-MNIST (28x28 grey images of clothes, 10 classes):
 * two ReLU layers and a softmax output, trained with softmax cross-entropy and Adam on shuffled
 * minibatches. Without the data set (apt-get install dataset-fashion-mnist), or with --digits,
 * it trains 64-256-128-10 on the 8x8 digits shipped in examples/data.
 *
 * What it shows: axes are named, so layers are plain dot products (dot contracts the axes its
 * operands share); ng_adam() builds the whole training step (gradients included) as one op, so
 * one computation run is one step; a second computation over a larger batch axis evaluates the
 * same variables; the learning rate is a persistent tensor, lowered after every epoch without
 * recompiling; with --save and --resume, a checkpoint (ng_transformer_save) carries the weights,
 * Adam's state and the loop's own state, so a resumed run continues exactly where it stopped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datasets.h"
#include "nanograph/nanograph.h"

#define FASHION_DIR "/usr/share/datasets/fashion-mnist"
#ifndef NG_EXAMPLES_DATA_DIR
#define NG_EXAMPLES_DATA_DIR "examples/data"
#endif
#define EVAL_BATCH 1000

typedef struct options {
    int epochs;
    int batch_size;
    double learning_rate;
    double lr_decay;
    int threads;
    uint64_t seed;
    int digits;
    const char *data_dir;
    const char *export_onnx; /* NULL, or where to write the trained model as ONNX */
    int data_dir_given;      /* --data-dir: its data is required, no fallback to the digits */
    const char *save;        /* NULL, or where to write a checkpoint after every epoch */
    const char *resume;      /* NULL, or the checkpoint to continue from */
} options_t;

static void usage(FILE *to, const char *program) {
    fprintf(
        to,
        "usage: %s [options]\n"
        "Trains a 784-256-128-10 MLP on Fashion-MNIST (or 64-256-128-10 on the digits data).\n"
        "  --epochs N       passes over the training set (default 5)\n"
        "  --batch-size N   examples per step (default 128)\n"
        "  --lr X           Adam learning rate of the first epoch (default 0.002)\n"
        "  --lr-decay X     factor applied to the learning rate after each epoch (default 0.7)\n"
        "  --threads N      worker threads, 0 = one per core (default 0)\n"
        "  --seed N         seed of the initial weights and the shuffling (default 1)\n"
        "  --digits         train on examples/data/digits.csv.gz instead\n"
        "  --data-dir DIR   where the Fashion-MNIST *-ubyte.gz files are (default " FASHION_DIR
        "; without this option, a missing default falls back to the digits)\n"
        "  --export-onnx PATH  after training, write the model (x: a batch of 1000 examples ->\n"
        "                   logits) with its trained weights as an ONNX file\n"
        "  --save PATH      after every epoch, write a checkpoint (weights, Adam's state, epoch,\n"
        "                   learning-rate schedule, shuffling state) to PATH, atomically\n"
        "  --resume PATH    continue from a checkpoint written by --save up to --epochs in all,\n"
        "                   exactly as the interrupted run would have (pass the same options)\n"
        "  --help           this text\n",
        program);
}

/* ---- command line ------------------------------------------------------------------------- */

static int parse_long(const char *text, long min, long max, long *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < min || v > max) return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *text, double *out) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v) || v <= 0) return -1;
    *out = v;
    return 0;
}

/* Returns 0 to run, 1 when --help was given, 2 on a bad argument (after printing why). */
static int parse_options(int argc, char **argv, options_t *o) {
    *o = (options_t){5, 128, 2e-3, 0.7, 0, 1, 0, FASHION_DIR, NULL, 0, NULL, NULL};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return 1;
        if (strcmp(arg, "--digits") == 0) {
            o->digits = 1;
            continue;
        }
        static const char *const valued[] = {
            "--epochs", "--batch-size", "--lr",          "--lr-decay", "--threads",
            "--seed",   "--data-dir",   "--export-onnx", "--save",     "--resume"};
        int which = -1;
        for (int k = 0; k < 10; ++k)
            if (strcmp(arg, valued[k]) == 0) which = k;
        if (which < 0) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], arg);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: option %s needs a value (try --help)\n", argv[0], arg);
            return 2;
        }
        const char *value = argv[++i];
        long n = 0;
        int bad = 0;
        switch (which) {
        case 0:
            bad = parse_long(value, 1, 100000, &n);
            o->epochs = (int)n;
            break;
        case 1:
            bad = parse_long(value, 1, 1 << 20, &n);
            o->batch_size = (int)n;
            break;
        case 2: bad = parse_double(value, &o->learning_rate); break;
        case 3: bad = parse_double(value, &o->lr_decay) || o->lr_decay > 1; break;
        case 4:
            bad = parse_long(value, 0, 1024, &n);
            o->threads = (int)n;
            break;
        case 5:
            bad = parse_long(value, 0, 0x7fffffffL, &n);
            o->seed = (uint64_t)n;
            break;
        case 6:
            o->data_dir = value;
            o->data_dir_given = 1;
            break;
        case 7: o->export_onnx = value; break;
        case 8: o->save = value; break;
        case 9: o->resume = value; break;
        }
        if (bad) {
            fprintf(stderr, "%s: bad value '%s' for %s (try --help)\n", argv[0], value, arg);
            return 2;
        }
    }
    return 0;
}

/* ---- small helpers -------------------------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Reports a failed nanograph call and returns -1. */
static int fail(const char *what) {
    fprintf(stderr, "train_mlp: %s failed: %s\n", what, ng_last_error());
    return -1;
}

/* ---- the model ------------------------------------------------------------------------------ */

typedef struct layer {
    ng_op_t *weights; /* (in, out) */
    ng_op_t *bias;    /* (out) */
} layer_t;

typedef struct model {
    ng_graph_t *graph;
    const ng_axis_t *features, *hidden1, *hidden2, *classes;
    layer_t layers[3];
    ng_op_t *learning_rate;
    /* The training loop's own state, in persistent tensors that no computation uses, so that a
     * checkpoint carries them with the weights and Adam's state (see train_state_t). */
    ng_op_t *epochs_done, *next_learning_rate, *shuffle_state, *order;
} model_t;

/* Names an op (checkpoints find values by name; a NULL op is the graph's recorded error). */
static ng_op_t *named(ng_op_t *op, const char *name) {
    if (op) ng_op_set_name(op, name);
    return op;
}

/* A dense layer from `in` to `out` units, He-initialized (Glorot for the output layer); its
 * variables are named W<number> and b<number>. */
static layer_t make_layer(ng_graph_t *g, const ng_axis_t *in, const ng_axis_t *out, int he,
                          uint64_t seed, int number) {
    const ng_axis_t *axes[2] = {in, out};
    ng_op_t *init = he ? ng_initializer_he_normal(g, NG_FLOAT32, axes, 2, &in, 1, seed)
                       : ng_initializer_glorot_uniform(g, NG_FLOAT32, axes, 2, &in, 1, seed);
    char name[8];
    layer_t layer;
    snprintf(name, sizeof name, "W%d", number);
    layer.weights = named(ng_variable(g, NG_FLOAT32, axes, 2, init), name);
    snprintf(name, sizeof name, "b%d", number);
    layer.bias = named(ng_variable(g, NG_FLOAT32, &out, 1, NULL), name);
    return layer;
}

/* logits (batch, classes) of the inputs x (batch, features). Builder errors propagate as NULL
 * and are recorded by the graph, which build_model() checks once. */
static ng_op_t *forward(const model_t *m, ng_op_t *x) {
    ng_graph_t *g = m->graph;
    ng_op_t *h = x;
    for (int i = 0; i < 3; ++i) {
        ng_op_t *z = ng_add(g, ng_dot(g, h, m->layers[i].weights), m->layers[i].bias);
        h = i < 2 ? ng_relu(g, z) : z;
    }
    return h;
}

typedef struct programs {
    ng_op_t *x, *labels, *step; /* training: inputs, one-hot labels, the Adam step (value: loss) */
    ng_op_t *eval_x, *eval_logits;
} programs_t;

static int build_model(model_t *m, programs_t *p, int64_t examples, int64_t features,
                       int32_t classes, int batch_size, const options_t *o) {
    ng_graph_t *g = m->graph = ng_graph_create();
    if (!g) return fail("ng_graph_create");
    m->features = ng_axis(g, "F", features);
    m->hidden1 = ng_axis(g, "H1", 256);
    m->hidden2 = ng_axis(g, "H2", 128);
    m->classes = ng_axis(g, "C", classes);
    const ng_axis_t *batch = ng_axis(g, "N", batch_size);
    const ng_axis_t *eval_batch = ng_axis(g, "NE", EVAL_BATCH);

    m->layers[0] = make_layer(g, m->features, m->hidden1, 1, o->seed, 1);
    m->layers[1] = make_layer(g, m->hidden1, m->hidden2, 1, o->seed + 1, 2);
    m->layers[2] = make_layer(g, m->hidden2, m->classes, 0, o->seed + 2, 3);
    m->learning_rate =
        named(ng_persistent_tensor(g, NG_FLOAT32, NULL, 0, ng_scalar(g, o->learning_rate)),
              "learning_rate");
    const ng_axis_t *example_axis = ng_axis(g, "E", examples);
    m->epochs_done = named(ng_persistent_tensor(g, NG_INT64, NULL, 0, NULL), "loop/epochs_done");
    m->next_learning_rate =
        named(ng_persistent_tensor(g, NG_FLOAT64, NULL, 0, NULL), "loop/next_learning_rate");
    m->shuffle_state =
        named(ng_persistent_tensor(g, NG_INT64, NULL, 0, NULL), "loop/shuffle_state");
    m->order = named(ng_persistent_tensor(g, NG_INT64, &example_axis, 1, NULL), "loop/order");

    const ng_axis_t *x_axes[2] = {batch, m->features}, *label_axes[2] = {batch, m->classes};
    p->x = ng_placeholder(g, NG_FLOAT32, x_axes, 2, NULL);
    p->labels = ng_placeholder(g, NG_FLOAT32, label_axes, 2, NULL);
    ng_op_t *probabilities = ng_softmax(g, forward(m, p->x), &m->classes, 1);
    ng_op_t *loss =
        ng_mean(g, ng_cross_entropy_multi(g, probabilities, p->labels, &m->classes, 1), NULL, 0);
    p->step = ng_adam(g, loss, m->learning_rate, NULL);

    const ng_axis_t *eval_axes[2] = {eval_batch, m->features};
    p->eval_x = ng_placeholder(g, NG_FLOAT32, eval_axes, 2, NULL);
    p->eval_logits = forward(m, p->eval_x);
    if (ng_graph_status(g) != NG_OK) {
        fprintf(stderr, "train_mlp: building the model failed: %s\n", ng_graph_error(g));
        return -1;
    }
    return 0;
}

/* ---- training and evaluation ---------------------------------------------------------------- */

/* Copies examples order[first .. first+n) into x (n, features) and, when labels is not NULL,
 * their one-hot labels (n, classes); rows past the data set are zero. */
static void fill_batch(const dataset_t *d, const int64_t *order, int64_t first, int64_t n, float *x,
                       float *labels) {
    memset(x, 0, (size_t)(n * d->features) * sizeof(float));
    if (labels) memset(labels, 0, (size_t)(n * d->classes) * sizeof(float));
    for (int64_t i = 0; i < n && first + i < d->count; ++i) {
        int64_t e = order ? order[first + i] : first + i;
        memcpy(x + i * d->features, d->pixels + e * d->features,
               (size_t)d->features * sizeof(float));
        if (labels) labels[i * d->classes + d->labels[e]] = 1.0f;
    }
}

static void progress(int epoch, int epochs, int64_t done, int64_t total, double loss, double rate) {
    const int width = 30;
    int filled = (int)(width * done / (total ? total : 1));
    fprintf(stderr, "\repoch %d/%d [", epoch, epochs);
    for (int i = 0; i < width; ++i) fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%%  loss %.4f  %.0f examples/s ", (int)(100 * done / (total ? total : 1)),
            loss, rate);
    fflush(stderr);
}

typedef struct session {
    ng_transformer_t *transformer;
    ng_computation_t *train, *eval;
    ng_tensor_t *x, *labels, *loss, *eval_x, *eval_logits;
} session_t;

static int make_session(session_t *s, const programs_t *p, int64_t features, int32_t classes,
                        int batch_size, int threads) {
    memset(s, 0, sizeof *s);
    if (!(s->transformer = ng_transformer_create("cpu"))) return fail("ng_transformer_create");
    if (ng_transformer_set_num_threads(s->transformer, threads) != NG_OK)
        return fail("ng_transformer_set_num_threads");
    ng_op_t *train_params[2] = {p->x, p->labels};
    s->train = ng_computation_create(s->transformer, &p->step, 1, train_params, 2);
    if (!s->train) return fail("compiling the training step");
    s->eval = ng_computation_create(s->transformer, &p->eval_logits, 1, &p->eval_x, 1);
    if (!s->eval) return fail("compiling the evaluation");
    int64_t x_shape[2] = {batch_size, features}, label_shape[2] = {batch_size, classes};
    int64_t eval_x_shape[2] = {EVAL_BATCH, features}, eval_logits_shape[2] = {EVAL_BATCH, classes};
    s->x = ng_tensor_create(NG_FLOAT32, x_shape, 2);
    s->labels = ng_tensor_create(NG_FLOAT32, label_shape, 2);
    s->loss = ng_tensor_create(NG_FLOAT32, NULL, 0);
    s->eval_x = ng_tensor_create(NG_FLOAT32, eval_x_shape, 2);
    s->eval_logits = ng_tensor_create(NG_FLOAT32, eval_logits_shape, 2);
    if (!s->x || !s->labels || !s->loss || !s->eval_x || !s->eval_logits)
        return fail("ng_tensor_create");
    return 0;
}

static void free_session(session_t *s) {
    ng_computation_destroy(s->train);
    ng_computation_destroy(s->eval);
    ng_transformer_destroy(s->transformer);
    ng_tensor_release(s->x);
    ng_tensor_release(s->labels);
    ng_tensor_release(s->loss);
    ng_tensor_release(s->eval_x);
    ng_tensor_release(s->eval_logits);
}

/* The learning rate is a persistent tensor: changing it needs no recompilation. */
static int set_learning_rate(session_t *s, ng_op_t *learning_rate, double value) {
    ng_tensor_t *t = ng_tensor_create(NG_FLOAT32, NULL, 0);
    if (!t) return fail("ng_tensor_create");
    *(float *)ng_tensor_data(t) = (float)value;
    ng_status_t status = ng_transformer_set_value(s->transformer, learning_rate, t);
    ng_tensor_release(t);
    return status == NG_OK ? 0 : fail("setting the learning rate");
}

/* One pass over the shuffled training set (the last partial batch is skipped); 0 on success,
 * with the mean loss of its steps in *mean_loss. */
static int train_epoch(session_t *s, const dataset_t *train, int64_t *order, int batch_size,
                       int epoch, const options_t *o, uint64_t *rng, double *mean_loss) {
    dataset_shuffle(order, train->count, rng);
    const int64_t steps = train->count / batch_size;
    const double started = now_seconds();
    double loss_sum = 0;
    for (int64_t step = 0; step < steps; ++step) {
        fill_batch(train, order, step * batch_size, batch_size, ng_tensor_data(s->x),
                   ng_tensor_data(s->labels));
        ng_tensor_t *inputs[2] = {s->x, s->labels};
        if (ng_computation_run(s->train, inputs, 2, &s->loss, 1) != NG_OK)
            return fail("a training step");
        loss_sum += *(const float *)ng_tensor_data(s->loss);
        if (step % 20 == 19 || step == steps - 1) {
            double elapsed = now_seconds() - started;
            progress(epoch, o->epochs, (step + 1) * batch_size, steps * batch_size,
                     loss_sum / (double)(step + 1),
                     (double)((step + 1) * batch_size) / (elapsed > 0 ? elapsed : 1e-9));
        }
    }
    fputc('\n', stderr);
    *mean_loss = loss_sum / (double)(steps ? steps : 1);
    return 0;
}

/* ---- the training loop's state, in the checkpoint ------------------------------------------ */

/* What the loop needs, beyond the model's variables and Adam's state, to continue where it
 * stopped. It lives in persistent tensors of the graph (model_t), written before every save and
 * read after a load, so one checkpoint holds everything and no side file can fall out of step. */
typedef struct train_state {
    int64_t epochs_done;
    double next_learning_rate; /* the schedule: the rate of the next epoch */
    uint64_t shuffle_state;    /* the shuffling generator (stored as int64 bits) */
    int64_t *order;            /* the current permutation of the training set, shuffled in place */
} train_state_t;

static int put_value(session_t *s, ng_op_t *op, ng_dtype_t dt, const int64_t *shape, int32_t rank,
                     const void *data) {
    ng_tensor_t *t = ng_tensor_from_data(dt, shape, rank, data);
    if (!t) return fail("ng_tensor_from_data");
    ng_status_t status = ng_transformer_set_value(s->transformer, op, t);
    ng_tensor_release(t);
    return status == NG_OK ? 0 : fail("storing the training loop's state");
}

static int get_value(session_t *s, ng_op_t *op, void *data, size_t bytes) {
    ng_tensor_t *t = NULL;
    if (ng_transformer_get_value(s->transformer, op, &t) != NG_OK)
        return fail("reading the training loop's state");
    ng_status_t status = ng_tensor_read(t, data, bytes);
    ng_tensor_release(t);
    return status == NG_OK ? 0 : fail("reading the training loop's state");
}

/* Also what makes the four tensors known to the transformer before a load (no computation uses
 * them). */
static int store_state(session_t *s, const model_t *m, const train_state_t *st, int64_t examples) {
    int64_t shuffle_bits;
    memcpy(&shuffle_bits, &st->shuffle_state, sizeof shuffle_bits);
    return put_value(s, m->epochs_done, NG_INT64, NULL, 0, &st->epochs_done) ||
           put_value(s, m->next_learning_rate, NG_FLOAT64, NULL, 0, &st->next_learning_rate) ||
           put_value(s, m->shuffle_state, NG_INT64, NULL, 0, &shuffle_bits) ||
           put_value(s, m->order, NG_INT64, &examples, 1, st->order);
}

static int fetch_state(session_t *s, const model_t *m, train_state_t *st, int64_t examples) {
    int64_t shuffle_bits;
    if (get_value(s, m->epochs_done, &st->epochs_done, sizeof st->epochs_done) ||
        get_value(s, m->next_learning_rate, &st->next_learning_rate,
                  sizeof st->next_learning_rate) ||
        get_value(s, m->shuffle_state, &shuffle_bits, sizeof shuffle_bits) ||
        get_value(s, m->order, st->order, (size_t)examples * sizeof *st->order))
        return -1;
    memcpy(&st->shuffle_state, &shuffle_bits, sizeof shuffle_bits);
    return 0;
}

/* The fraction of `test` classified correctly, or -1 on failure. */
static double accuracy(session_t *s, const dataset_t *test) {
    int64_t correct = 0;
    for (int64_t first = 0; first < test->count; first += EVAL_BATCH) {
        fill_batch(test, NULL, first, EVAL_BATCH, ng_tensor_data(s->eval_x), NULL);
        if (ng_computation_run(s->eval, &s->eval_x, 1, &s->eval_logits, 1) != NG_OK)
            return fail("evaluation");
        const float *logits = ng_tensor_data(s->eval_logits);
        for (int64_t i = 0; i < EVAL_BATCH && first + i < test->count; ++i) {
            const float *row = logits + i * test->classes;
            int best = 0;
            for (int c = 1; c < test->classes; ++c)
                if (row[c] > row[best]) best = c;
            correct += best == test->labels[first + i];
        }
    }
    return (double)correct / (double)test->count;
}

/* ---- main ----------------------------------------------------------------------------------- */

static int load_data(const options_t *o, dataset_t *train, dataset_t *test) {
    const int present =
        dataset_idx_present(o->data_dir, "train") && dataset_idx_present(o->data_dir, "t10k");
    if (o->data_dir_given && (o->digits || !present)) {
        if (o->digits)
            fprintf(stderr, "train_mlp: --digits and --data-dir exclude each other\n");
        else
            fprintf(stderr,
                    "train_mlp: no Fashion-MNIST in %s (it needs train-images-idx3-ubyte.gz, "
                    "train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and "
                    "t10k-labels-idx1-ubyte.gz); use --digits for the data shipped with the "
                    "examples\n",
                    o->data_dir);
        return -1;
    }
    if (!o->digits && present) {
        fprintf(stderr, "Fashion-MNIST from %s\n", o->data_dir);
        if (dataset_load_idx(o->data_dir, "train", train) != 0) return -1;
        if (dataset_load_idx(o->data_dir, "t10k", test) != 0) return -1;
        return 0;
    }
    if (!o->digits)
        fprintf(stderr, "Fashion-MNIST not found in %s: using the digits data\n", o->data_dir);
    const char *path = NG_EXAMPLES_DATA_DIR "/digits.csv.gz";
    fprintf(stderr, "digits from %s (every 5th example held out for testing)\n", path);
    return dataset_load_csv(path, 16.0, 5, train, test);
}

int main(int argc, char **argv) {
    options_t o;
    int parsed = parse_options(argc, argv, &o);
    if (parsed == 1) {
        usage(stdout, argv[0]);
        return 0;
    }
    if (parsed != 0) return 2;

    dataset_t train = {0}, test = {0};
    model_t model = {0};
    programs_t programs = {0};
    session_t session = {0};
    int64_t *order = NULL;
    int status = 1;
    if (load_data(&o, &train, &test) != 0) goto done;
    int batch_size = o.batch_size <= train.count ? o.batch_size : (int)train.count;
    printf(
        "%lld training and %lld test examples, %lld features, %d classes; batch %d, Adam lr %g (x "
        "%g each epoch)\n",
        (long long)train.count, (long long)test.count, (long long)train.features, train.classes,
        batch_size, o.learning_rate, o.lr_decay);
    fflush(stdout);
    if (build_model(&model, &programs, train.count, train.features, train.classes, batch_size,
                    &o) != 0)
        goto done;
    if (make_session(&session, &programs, train.features, train.classes, batch_size, o.threads) !=
        0)
        goto done;
    if (!(order = malloc((size_t)train.count * sizeof *order))) {
        fprintf(stderr, "train_mlp: out of memory\n");
        goto done;
    }
    for (int64_t i = 0; i < train.count; ++i) order[i] = i;
    train_state_t state = {0, o.learning_rate, o.seed, order};
    if (store_state(&session, &model, &state, train.count) != 0) goto done;
    if (o.resume) {
        /* Every computation exists and every persistent tensor is known: load replaces them all
         * (the weights' initial values are then never computed). */
        if (ng_transformer_load(session.transformer, o.resume) != NG_OK ||
            fetch_state(&session, &model, &state, train.count) != 0) {
            fail("resuming");
            goto done;
        }
        printf("resumed from %s after epoch %lld\n", o.resume, (long long)state.epochs_done);
        fflush(stdout);
    }
    for (int epoch = (int)state.epochs_done + 1; epoch <= o.epochs; ++epoch) {
        double started = now_seconds(), loss;
        const double learning_rate = state.next_learning_rate;
        if (set_learning_rate(&session, model.learning_rate, learning_rate) != 0) goto done;
        if (train_epoch(&session, &train, order, batch_size, epoch, &o, &state.shuffle_state,
                        &loss) != 0)
            goto done;
        double acc = accuracy(&session, &test);
        if (acc < 0) goto done;
        printf("epoch %d: loss %.6f, test accuracy %.4f, %.1f s (learning rate %.3g)\n", epoch,
               loss, acc, now_seconds() - started, learning_rate);
        fflush(stdout);
        state.epochs_done = epoch;
        state.next_learning_rate = learning_rate * o.lr_decay;
        if (o.save) {
            if (store_state(&session, &model, &state, train.count) != 0) goto done;
            if (ng_transformer_save(session.transformer, o.save) != NG_OK) {
                fail("saving the checkpoint");
                goto done;
            }
            fprintf(stderr, "saved %s after epoch %d\n", o.save, epoch);
        }
    }
    if (o.export_onnx) {
        /* The evaluation graph with the trained weights: input "x", output "logits". */
        if (ng_op_set_name(programs.eval_x, "x") != NG_OK ||
            ng_op_set_name(programs.eval_logits, "logits") != NG_OK ||
            ng_onnx_export_trained_file(session.transformer, model.graph, &programs.eval_logits, 1,
                                        &programs.eval_x, 1, o.export_onnx) != NG_OK) {
            fail("exporting the ONNX model");
            goto done;
        }
        printf("wrote %s (input x: %d x %lld, output logits: %d x %d)\n", o.export_onnx, EVAL_BATCH,
               (long long)train.features, EVAL_BATCH, train.classes);
    }
    status = 0;
done:
    free(order);
    free_session(&session);
    ng_graph_destroy(model.graph);
    dataset_free(&train);
    dataset_free(&test);
    return status;
}
