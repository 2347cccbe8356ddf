/* Fault injection through tests/faultinject/failmalloc.c (LD_PRELOADed by CTest): a small
 * complete program (build a graph, derive, compile, run twice, read a value, make views and a
 * DLPack round trip, destroy everything) is run once per allocation with that allocation failing,
 * and every time each call must either succeed or fail with NG_ERR_OUT_OF_MEMORY, nothing may
 * abort, and no block may leak. A second program does the same for saving and loading (a
 * checkpoint, an ONNX model, a serialized tensor: the messages protobuf builds and parses). Also:
 * thread creation failing for lack of memory is NG_ERR_OUT_OF_MEMORY from the run that starts the
 * transformer's workers.
 *
 * Leaks are counted as blocks live in the process: after a warm-up run the count is taken, then
 * the failing run and one complete unfailed run follow, and the count must be back where it was.
 * (The unfailed run brings the kernels' per-thread scratch, which keeps its capacity between
 * calls, back to the state a complete run leaves.)
 *
 * NG_FAULT_MAX_POINTS (default 3000) bounds the number of failure points: when the program makes
 * more allocations, every k-th is failed (the report says so). Without the wrapper (valgrind,
 * sanitizers) the program runs once, unfailed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <dlpack/dlpack.h>

#include "nanograph/nanograph.h"

typedef void (*arm_fn)(long);
typedef long (*disarm_fn)(void);
typedef long (*live_fn)(void);
typedef void (*threads_fn)(int);

static arm_fn arm;
static disarm_fn disarm;
static live_fn live_blocks;
static threads_fn fail_threads;

/* What one run of the program saw: the first failure's status and message. */
typedef struct {
    ng_status_t status;
    char where[160];
    char message[256];
} outcome;

static int failed(outcome *o, int ok, const char *where) {
    if (ok) return 0;
    o->status = ng_last_status();
    snprintf(o->where, sizeof o->where, "%s", where);
    snprintf(o->message, sizeof o->message, "%s", ng_last_error());
    if (o->status == NG_OK) o->status = (ng_status_t)-1; /* a failure with no status: wrong */
    return 1;
}

#define STEP(ok) \
    if (failed(o, (ok), #ok)) goto cleanup

/* The program. Stops at the first failure and releases what it made, as a careful user would. */
static void program(outcome *o) {
    memset(o, 0, sizeof *o);
    ng_graph_t *g = NULL;
    ng_transformer_t *t = NULL;
    ng_computation_t *c = NULL;
    ng_tensor_t *in = NULL, *outs[2] = {NULL, NULL}, *value = NULL, *view = NULL, *copy = NULL,
                *back = NULL, *fresh = NULL;
    static const float xs[12] = {1, -2, 3, 0.5f, 2, -1, 0, 1, 1, -3, 2, 2};
    static const float w0s[6] = {0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f};
    const ng_axis_t *n, *ch, *k;
    ng_op_t *x, *w, *y, *cost, *grad, *upd, *seq;

    STEP((g = ng_graph_create()) != NULL);
    STEP((n = ng_axis(g, "N", 4)) != NULL);
    STEP((ch = ng_axis(g, "C", 3)) != NULL);
    STEP((k = ng_axis(g, "K", 2)) != NULL);
    const ng_axis_t *xa[2] = {n, ch}, *wa[2] = {ch, k}, *ya[2] = {n, k};
    STEP((x = ng_placeholder(g, NG_FLOAT32, xa, 2, NULL)) != NULL);
    ng_op_t *w0;
    STEP((w0 = ng_constant(g, NG_FLOAT32, wa, 2, w0s)) != NULL);
    STEP((w = ng_variable(g, NG_FLOAT32, wa, 2, w0)) != NULL);
    ng_op_t *logits, *squares;
    STEP((logits = ng_dot(g, x, w)) != NULL);
    STEP((y = ng_softmax(g, logits, &k, 1)) != NULL);
    STEP((squares = ng_square(g, y)) != NULL);
    STEP((cost = ng_sum(g, squares, ya, 2)) != NULL);
    STEP((grad = ng_deriv(g, cost, w)) != NULL);
    ng_op_t *rate, *step, *updated;
    STEP((rate = ng_scalar(g, 0.1)) != NULL);
    STEP((step = ng_multiply(g, rate, grad)) != NULL);
    STEP((updated = ng_subtract(g, w, step)) != NULL);
    STEP((upd = ng_assign(g, w, updated)) != NULL);
    ng_op_t *items[2] = {upd, cost};
    STEP((seq = ng_sequential(g, items, 2)) != NULL);

    STEP((t = ng_transformer_create(NULL)) != NULL);
    STEP(ng_transformer_set_num_threads(t, 2) == NG_OK);
    ng_op_t *results[2] = {seq, grad};
    STEP((c = ng_computation_create(t, results, 2, &x, 1)) != NULL);
    const int64_t xshape[2] = {4, 3};
    STEP((in = ng_tensor_from_data(NG_FLOAT32, xshape, 2, xs)) != NULL);
    for (int run = 0; run < 2; ++run) {
        STEP(ng_computation_run(c, &in, 1, outs, 2) == NG_OK);
        ng_tensor_release(outs[0]);
        ng_tensor_release(outs[1]);
        outs[0] = outs[1] = NULL;
    }
    STEP(ng_transformer_get_value(t, w, &value) == NG_OK);
    STEP((view = ng_tensor_slice(value, 0, 2, 0, -1)) != NULL);
    ng_tensor_t *transposed;
    STEP((transposed = ng_tensor_transpose(view)) != NULL);
    ng_tensor_release(view);
    view = transposed;
    STEP((copy = ng_tensor_copy(view)) != NULL);
    DLManagedTensor *m = NULL;
    STEP(ng_tensor_to_dlpack(copy, &m) == NG_OK);
    back = ng_tensor_from_dlpack(m);
    if (!back) m->deleter(m);
    STEP(back != NULL);
    const int64_t fshape[2] = {3, 5};
    STEP((fresh = ng_tensor_create(NG_FLOAT64, fshape, 2)) != NULL);

cleanup:
    ng_tensor_release(fresh);
    ng_tensor_release(back);
    ng_tensor_release(copy);
    ng_tensor_release(view);
    ng_tensor_release(value);
    ng_tensor_release(outs[0]);
    ng_tensor_release(outs[1]);
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* The thread's error text keeps its capacity between calls: give it a long message once, so a
 * later failure does not look like a block the program leaked. */
static void grow_error_text(void) {
    char name[4096];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ng_graph_t *g = ng_graph_create();
    assert_null(ng_graph_find(g, name));
    ng_graph_destroy(g);
}

/* Runs `program` once per allocation it makes, with that allocation failing (every k-th when
 * there are more than NG_FAULT_MAX_POINTS), and checks each run's statuses and that nothing
 * leaked. */
static void fail_each_allocation_of(void (*program)(outcome *)) {
    outcome o;
    program(&o); /* warm: lazy initialisation of the C++ runtime, OpenBLAS, the thread's state */
    assert_int_equal(o.status, NG_OK);
    grow_error_text();
    if (!arm) {
        print_message("failmalloc is not preloaded: the program ran once, unfailed\n");
        return;
    }
    long before = live_blocks();
    arm(0);
    program(&o);
    long total = disarm();
    assert_int_equal(o.status, NG_OK);
    assert_int_equal(live_blocks(), before);
    assert_true(total > 0);

    const char *max_env = getenv("NG_FAULT_MAX_POINTS");
    long max_points = max_env ? atol(max_env) : 3000;
    if (max_points < 1) max_points = 1;
    long stride = (total + max_points - 1) / max_points, points = 0, oom = 0;
    for (long at = 1; at <= total; at += stride, ++points) {
        arm(at);
        program(&o);
        disarm();
        if (o.status != NG_OK && o.status != NG_ERR_OUT_OF_MEMORY)
            fail_msg("allocation %ld failing: %s gave status %d (%s)", at, o.where, (int)o.status,
                     o.message);
        if (o.status == NG_ERR_OUT_OF_MEMORY) ++oom;
        outcome clean;
        program(&clean);
        if (clean.status != NG_OK)
            fail_msg("after allocation %ld failed, an unfailed run gave status %d at %s (%s)", at,
                     (int)clean.status, clean.where, clean.message);
        long leaked = live_blocks() - before;
        if (leaked != 0)
            fail_msg("allocation %ld failing: %ld blocks leaked (first failure: %s, \"%s\")", at,
                     leaked, o.status ? o.where : "none", o.message);
    }
    print_message(
        "%ld allocations in the program; failed %ld of them (every %ld%s), %ld runs "
        "reported NG_ERR_OUT_OF_MEMORY, the others recovered\n",
        total, points, stride, stride > 1 ? ", sampled" : "", oom);
}

static void test_every_allocation_fails_in_turn(void **state) {
    (void)state;
    fail_each_allocation_of(program);
}

/* Where save_and_load writes its checkpoint. */
static char checkpoint_path[64];

/* Saving and loading, in every format: a checkpoint of a transformer's variables written and read
 * back, the graph exported to ONNX and imported, a tensor serialized and deserialized. Protobuf
 * builds and parses the messages of all three. */
static void save_and_load(outcome *o) {
    memset(o, 0, sizeof *o);
    ng_graph_t *g = NULL, *imported = NULL;
    ng_transformer_t *t = NULL;
    ng_computation_t *c = NULL;
    ng_tensor_t *in = NULL, *out = NULL, *value = NULL, *back = NULL;
    void *model = NULL, *tensor_bytes = NULL;
    size_t model_size = 0, tensor_size = 0;
    static const float xs[6] = {1, -2, 3, 0.5f, 2, -1};
    static const float w0s[6] = {0.1f, -0.2f, 0.3f, 0.4f, -0.5f, 0.6f};
    const ng_axis_t *n, *k;
    ng_op_t *x, *w0, *w, *y, *b, *b0;

    STEP((g = ng_graph_create()) != NULL);
    STEP((n = ng_axis(g, "N", 2)) != NULL);
    STEP((k = ng_axis(g, "K", 3)) != NULL);
    const ng_axis_t *axes[2] = {n, k};
    STEP((x = ng_placeholder(g, NG_FLOAT32, axes, 2, NULL)) != NULL);
    STEP((w0 = ng_constant(g, NG_FLOAT32, axes, 2, w0s)) != NULL);
    STEP((w = ng_variable(g, NG_FLOAT32, axes, 2, w0)) != NULL);
    STEP((b0 = ng_scalar(g, 0.5)) != NULL);
    STEP((b = ng_variable(g, NG_FLOAT32, &k, 1, b0)) != NULL);
    ng_op_t *product;
    STEP((product = ng_multiply(g, x, w)) != NULL);
    STEP((y = ng_add(g, product, b)) != NULL);
    STEP((t = ng_transformer_create(NULL)) != NULL);
    STEP((c = ng_computation_create(t, &y, 1, &x, 1)) != NULL);
    const int64_t shape[2] = {2, 3};
    STEP((in = ng_tensor_from_data(NG_FLOAT32, shape, 2, xs)) != NULL);
    STEP(ng_computation_run(c, &in, 1, &out, 1) == NG_OK);
    STEP(ng_transformer_save(t, checkpoint_path) == NG_OK);
    STEP(ng_transformer_load(t, checkpoint_path) == NG_OK);
    STEP(ng_onnx_export_bytes(g, &y, 1, &x, 1, &model, &model_size) == NG_OK);
    STEP((imported = ng_onnx_import_bytes(model, model_size, NULL, NULL, 0, 0)) != NULL);
    STEP(ng_transformer_get_value(t, w, &value) == NG_OK);
    STEP(ng_tensor_serialize(value, &tensor_bytes, &tensor_size) == NG_OK);
    STEP((back = ng_tensor_deserialize(tensor_bytes, tensor_size)) != NULL);

cleanup:
    ng_tensor_release(back);
    ng_free(tensor_bytes);
    ng_tensor_release(value);
    ng_graph_destroy(imported);
    ng_free(model);
    ng_tensor_release(out);
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

/* A failure inside protobuf while it builds or parses a message (a repeated field growing after
 * it made the element to add, say) fails the call cleanly and leaves nothing allocated. */
static void test_saving_and_loading_fail_cleanly(void **state) {
    (void)state;
    snprintf(checkpoint_path, sizeof checkpoint_path, "/tmp/ng_faultinject_%ld.ckpt",
             (long)getpid());
    fail_each_allocation_of(save_and_load);
    remove(checkpoint_path);
}

/* Workers start with the first run that uses them: when they cannot, that run fails with
 * NG_ERR_OUT_OF_MEMORY and writes nothing, and the next run starts them. */
static void test_thread_creation_failure_is_out_of_memory(void **state) {
    (void)state;
    if (!fail_threads) {
        print_message("failmalloc is not preloaded: skipped\n");
        return;
    }
    enum { N = 1 << 18 }; /* large enough that the kernel splits the work over the pool */
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axis = ng_axis(g, "N", N);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &axis, 1, NULL);
    ng_op_t *y = ng_tanh(g, x);
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_non_null(t);
    assert_int_equal(ng_transformer_set_num_threads(t, 4), NG_OK);
    ng_computation_t *c = ng_computation_create(t, &y, 1, &x, 1);
    assert_non_null(c);
    ng_tensor_t *input = ng_tensor_create(NG_FLOAT32, (const int64_t[]){N}, 1);
    ng_tensor_t *output = ng_tensor_create(NG_FLOAT32, (const int64_t[]){N}, 1);
    float *in = ng_tensor_data(input), *out = ng_tensor_data(output);
    for (int i = 0; i < N; ++i) {
        in[i] = (float)(i % 200 - 100) / 50.0f;
        out[i] = 7.0f;
    }

    fail_threads(1);
    ng_status_t status = ng_computation_run(c, &input, 1, &output, 1);
    fail_threads(0);
    assert_int_equal(status, NG_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(ng_last_error(), "ng_computation_run"));
    assert_non_null(strstr(ng_last_error(), "thread"));
    for (int i = 0; i < N; ++i) assert_true(out[i] == 7.0f);

    assert_int_equal(ng_computation_run(c, &input, 1, &output, 1), NG_OK);
    for (int i = 0; i < N; i += 997) assert_float_equal(out[i], tanhf(in[i]), 1e-6);
    assert_int_equal(ng_transformer_num_threads(t), 4);
    ng_tensor_release(output);
    ng_tensor_release(input);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    arm = (arm_fn)dlsym(RTLD_DEFAULT, "failmalloc_arm");
    disarm = (disarm_fn)dlsym(RTLD_DEFAULT, "failmalloc_disarm");
    live_blocks = (live_fn)dlsym(RTLD_DEFAULT, "failmalloc_live_blocks");
    fail_threads = (threads_fn)dlsym(RTLD_DEFAULT, "failmalloc_fail_threads");
    if (!arm || !disarm || !live_blocks) arm = NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_creation_failure_is_out_of_memory),
        cmocka_unit_test(test_every_allocation_fails_in_turn),
        cmocka_unit_test(test_saving_and_loading_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
