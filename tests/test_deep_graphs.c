/* Graphs far deeper than a call stack: every walk over a graph (compile and run, deriv, ONNX
 * export and import, DOT export, the queries, destruction, initial values that read each other)
 * runs on a thread with a 256 KiB stack over a chain, so a walk that recursed once per op would
 * overflow it (a recursive visit takes tens to hundreds of bytes of stack per op: a few thousand
 * ops fill 256 KiB). The chain y = x + x + ... + x of n adds computes (n + 1) x, and its
 * derivative by x is n + 1: both exact in float32 for the lengths used here.
 *
 * Under valgrind and AddressSanitizer, which run the library many times slower, the chains are
 * shorter (kShortDepth): still ten times what a 256 KiB stack held when the compiler
 * recursed (it overflowed at 700 chained adds). */
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nanograph/nanograph.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define NG_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NG_TEST_SANITIZED 1
#endif
#endif
#ifndef NG_TEST_SANITIZED
#define NG_TEST_SANITIZED 0
#endif

enum { kSmallStack = 256 * 1024, kShortDepth = 7000 };

/* CMocka's assertions jump back into the test from the thread that failed, so the threads below
 * note their first failure here instead and the test asserts after joining them. */
typedef struct {
    char error[512];
} report_t;

static void note(report_t *r, const char *what, const char *detail) {
    if (!r->error[0])
        snprintf(r->error, sizeof r->error, "%s%s%s", what, detail ? ": " : "",
                 detail ? detail : "");
}

/* In a thread's body: notes the failure of `cond` (with the library's last error) and returns. */
#define CHECK(r, cond)                         \
    do {                                       \
        if (!(cond)) {                         \
            note((r), #cond, ng_last_error()); \
            return NULL;                       \
        }                                      \
    } while (0)

/* `full`, or `reduced` under valgrind and the sanitizers. */
static int64_t size_for_tools(int64_t full, int64_t reduced) {
    return (RUNNING_ON_VALGRIND || NG_TEST_SANITIZED) ? reduced : full;
}

/* `full` ops, or kShortDepth under valgrind and the sanitizers. */
static int64_t depth(int64_t full) {
    return size_for_tools(full, kShortDepth);
}

/* Runs body(arg) on a new thread with a 256 KiB stack, waits for it and fails with the first
 * failure it noted in *r. */
static void on_small_stack(void *(*body)(void *), void *arg, report_t *r) {
    pthread_attr_t attr;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, kSmallStack), 0);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, &attr, body, arg), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    pthread_attr_destroy(&attr);
    if (r->error[0]) fail_msg("%s", r->error);
}

/* A graph holding x (a float32 scalar placeholder) and y = x + x + ... + x (n adds, each
 * reading the one before); `report` collects what a thread working on it saw go wrong. */
typedef struct {
    int64_t n;
    ng_graph_t *g;
    ng_op_t *x, *y;
    report_t report;
} chain_t;

/* Builds the chain; false when the library refused (the error is in ng_last_error()). */
static bool fill_chain(chain_t *c, int64_t n) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->g = ng_graph_create();
    if (!c->g) return false;
    c->x = ng_placeholder(c->g, NG_FLOAT32, NULL, 0, NULL);
    c->y = c->x;
    for (int64_t i = 0; i < n; ++i) c->y = ng_add(c->g, c->y, c->x);
    return ng_graph_status(c->g) == NG_OK;
}

static chain_t *make_chain(int64_t n) {
    chain_t *c = malloc(sizeof *c);
    assert_non_null(c);
    if (!fill_chain(c, n)) fail_msg("building the chain: %s", ng_last_error());
    return c;
}

static void free_chain(chain_t *c) {
    ng_graph_destroy(c->g);
    free(c);
}

/* Compiles `results` over x (a parameter) and runs them with x = 1 into out; false (with the
 * failure noted in r) when something failed. */
static bool run_at_one(report_t *r, ng_op_t *x, ng_op_t *const *results, int32_t count,
                       float *out) {
    bool ok = false;
    const float one = 1;
    ng_tensor_t *values[2] = {NULL, NULL}, *in = NULL;
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = t ? ng_computation_create(t, results, count, &x, 1) : NULL;
    if (!c) {
        note(r, "compile", ng_last_error());
        goto done;
    }
    in = ng_tensor_from_data(NG_FLOAT32, NULL, 0, &one);
    if (!in || ng_computation_run(c, &in, 1, values, count) != NG_OK) {
        note(r, "run", ng_last_error());
        goto done;
    }
    ok = true;
    for (int32_t i = 0; i < count; ++i)
        ok = ok && ng_tensor_read(values[i], &out[i], sizeof out[i]) == NG_OK;
    if (!ok) note(r, "read", ng_last_error());
done:
    for (int32_t i = 0; i < count; ++i) ng_tensor_release(values[i]);
    ng_tensor_release(in);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    return ok;
}

static void *compile_and_run(void *arg) {
    chain_t *c = arg;
    float y = 0;
    if (!run_at_one(&c->report, c->x, &c->y, 1, &y)) return NULL;
    CHECK(&c->report, y == (float)(c->n + 1));
    return NULL;
}

/* A million chained adds compile (the compiler's copy of the graph is built by a walk from the
 * result) and run. */
static void test_compile_a_deep_chain(void **state) {
    (void)state;
    chain_t *c = make_chain(depth(1000000));
    on_small_stack(compile_and_run, c, &c->report);
    free_chain(c);
}

static void *derive_and_run(void *arg) {
    chain_t *c = arg;
    ng_op_t *dy = ng_deriv(c->g, c->y, c->x);
    CHECK(&c->report, dy != NULL);
    ng_op_t *results[2] = {c->y, dy};
    float values[2] = {0, 0};
    if (!run_at_one(&c->report, c->x, results, 2, values)) return NULL;
    CHECK(&c->report, values[0] == (float)(c->n + 1));
    CHECK(&c->report, values[1] == (float)(c->n + 1));
    return NULL;
}

/* The reverse sweep over a deep chain, and the compile of the chain with its derivative. */
static void test_derive_a_deep_chain(void **state) {
    (void)state;
    chain_t *c = make_chain(depth(300000));
    on_small_stack(derive_and_run, c, &c->report);
    free_chain(c);
}

static void *export_import_and_run(void *arg) {
    chain_t *c = arg;
    void *bytes = NULL;
    size_t size = 0;
    CHECK(&c->report, ng_onnx_export_bytes(c->g, &c->y, 1, &c->x, 1, &bytes, &size) == NG_OK);
    ng_graph_t *g = ng_onnx_import_bytes(bytes, size, NULL, NULL, 0, 0);
    ng_free(bytes);
    CHECK(&c->report, g != NULL);
    /* The model's input and output keep the names of the exported ops. */
    ng_op_t *x = ng_graph_find(g, ng_op_name(c->x));
    ng_op_t *y = ng_graph_find(g, ng_op_name(c->y));
    float value = 0;
    if (!x || !y)
        note(&c->report, "the model's input or output is missing", NULL);
    else if (run_at_one(&c->report, x, &y, 1, &value) && value != (float)(c->n + 1))
        note(&c->report, "the imported chain computed a wrong value", NULL);
    ng_graph_destroy(g);
    return NULL;
}

/* A deep chain exported to ONNX, imported back and run. */
static void test_onnx_round_trip_of_a_deep_chain(void **state) {
    (void)state;
    chain_t *c = make_chain(depth(200000));
    on_small_stack(export_import_and_run, c, &c->report);
    free_chain(c);
}

static int64_t count_text(const char *text, const char *needle) {
    int64_t count = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle)) ++count;
    return count;
}

static void *export_dot(void *arg) {
    chain_t *c = arg;
    size_t size = 0;
    CHECK(&c->report, ng_graph_dot(c->g, &c->y, 1, NULL, 0, &size) == NG_OK);
    char *text = malloc(size);
    CHECK(&c->report, text != NULL);
    if (ng_graph_dot(c->g, &c->y, 1, text, size, &size) != NG_OK) {
        note(&c->report, "ng_graph_dot", ng_last_error());
    } else if (count_text(text, "label=\"0\"") != c->n || count_text(text, "label=\"1\"") != c->n ||
               count_text(text, "shape=ellipse") != c->n || count_text(text, "shape=box") != 1) {
        /* x and the n adds; two numbered edges into each add (x twice into the first). */
        note(&c->report, "the DOT text does not hold the chain", NULL);
    }
    free(text);
    return NULL;
}

/* The DOT text of everything upstream of the end of a deep chain. */
static void test_dot_export_of_a_deep_chain(void **state) {
    (void)state;
    chain_t *c = make_chain(depth(200000));
    on_small_stack(export_dot, c, &c->report);
    free_chain(c);
}

/* w * p at the far end of a chain of n negations. */
typedef struct {
    int64_t n;
    ng_graph_t *g;
    ng_op_t *w, *p, *y;
    report_t report;
} two_leaves_t;

static void *query_leaves(void *arg) {
    two_leaves_t *c = arg;
    ng_op_t *found[2] = {NULL, NULL};
    CHECK(&c->report, ng_variables(c->y, found, 2) == 1);
    CHECK(&c->report, found[0] == c->w);
    CHECK(&c->report, ng_placeholders(c->y, found, 2) == 1);
    CHECK(&c->report, found[0] == c->p);
    return NULL;
}

/* ng_variables and ng_placeholders find the two leaves at the far end of a deep chain. */
static void test_queries_of_a_deep_chain(void **state) {
    (void)state;
    two_leaves_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->n = depth(500000);
    c->g = ng_graph_create();
    assert_non_null(c->g);
    c->w = ng_variable(c->g, NG_FLOAT32, NULL, 0, ng_scalar(c->g, 2));
    c->p = ng_placeholder(c->g, NG_FLOAT32, NULL, 0, NULL);
    c->y = ng_multiply(c->g, c->w, c->p);
    for (int64_t i = 0; i < c->n; ++i) c->y = ng_negative(c->g, c->y);
    assert_int_equal(ng_graph_status(c->g), NG_OK);
    on_small_stack(query_leaves, c, &c->report);
    ng_graph_destroy(c->g);
    free(c);
}

static void *build_and_destroy(void *arg) {
    chain_t *c = arg;
    CHECK(&c->report, fill_chain(c, c->n));
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *comp = t ? ng_computation_create(t, &c->y, 1, &c->x, 1) : NULL;
    if (!comp) note(&c->report, "compile", ng_last_error());
    ng_graph_destroy(c->g); /* before the computation, which keeps its own copy */
    c->g = NULL;
    ng_computation_destroy(comp);
    ng_transformer_destroy(t);
    return NULL;
}

/* A deep chain, and a computation of it, are built and destroyed on the small stack. */
static void test_destroy_a_deep_chain(void **state) {
    (void)state;
    chain_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->n = depth(1000000);
    on_small_stack(build_and_destroy, c, &c->report);
    free(c);
}

/* v_0 = 0, then each v_i a variable initialised to v_(i-1) + 1: every initializer reads the
 * variable before it. Before, compiling and initialising such a chain recursed once per variable
 * and 1,000 of them overflowed a 256 KiB stack: 3,000 here (1,500 under the tools). */

typedef struct {
    int64_t n;
    ng_graph_t *g;
    ng_op_t *last;
    report_t report;
} initializer_chain_t;

static void *initialize_chain(void *arg) {
    initializer_chain_t *c = arg;
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *comp = t ? ng_computation_create(t, &c->last, 1, NULL, 0) : NULL;
    ng_tensor_t *out = NULL;
    float value = -1;
    if (!comp || ng_computation_run(comp, NULL, 0, &out, 1) != NG_OK ||
        ng_tensor_read(out, &value, sizeof value) != NG_OK)
        note(&c->report, "compiling or running the last variable", ng_last_error());
    else if (value != (float)c->n)
        note(&c->report, "the last variable has a wrong initial value", NULL);
    ng_tensor_release(out);
    ng_computation_destroy(comp);
    ng_transformer_destroy(t);
    return NULL;
}

/* Each initial value is computed after those it reads, without recursing through them. */
static void test_chain_of_initial_values(void **state) {
    (void)state;
    initializer_chain_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->n = size_for_tools(3000, 1500);
    c->g = ng_graph_create();
    assert_non_null(c->g);
    ng_op_t *one = ng_scalar(c->g, 1);
    c->last = ng_variable(c->g, NG_FLOAT32, NULL, 0, ng_scalar(c->g, 0));
    for (int64_t i = 0; i < c->n; ++i)
        c->last = ng_variable(c->g, NG_FLOAT32, NULL, 0, ng_add(c->g, c->last, one));
    assert_int_equal(ng_graph_status(c->g), NG_OK);
    on_small_stack(initialize_chain, c, &c->report);
    ng_graph_destroy(c->g);
    free(c);
}

/* sequential(p_1 = p_0 + 1, p_2 = p_1 + 1, ..., p_n = p_(n-1) + 1, p_n) over n + 1 persistent
 * tensors (p_0 = 0), then the same over one tensor q (q = q + 1, n times): each assignment reads
 * what the one before it wrote, so the values are n and n. A long sequential once copied its
 * context (which version of each tensor is current) at every element. */
typedef struct {
    int64_t n;
    ng_graph_t *g;
    ng_op_t *seq[2];
    report_t report;
} sequential_t;

static void *run_sequentials(void *arg) {
    sequential_t *c = arg;
    ng_transformer_t *t = ng_transformer_create(NULL);
    for (int s = 0; s < 2; ++s) {
        ng_computation_t *comp = t ? ng_computation_create(t, &c->seq[s], 1, NULL, 0) : NULL;
        ng_tensor_t *out = NULL;
        float value = -1;
        if (!comp || ng_computation_run(comp, NULL, 0, &out, 1) != NG_OK ||
            ng_tensor_read(out, &value, sizeof value) != NG_OK)
            note(&c->report, "compiling or running a sequential", ng_last_error());
        else if (value != (float)c->n)
            note(&c->report, "a sequential computed a wrong value", NULL);
        ng_tensor_release(out);
        ng_computation_destroy(comp);
    }
    ng_transformer_destroy(t);
    return NULL;
}

static void test_long_sequentials_of_assignments(void **state) {
    (void)state;
    sequential_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->n = size_for_tools(20000, 2000);
    c->g = ng_graph_create();
    assert_non_null(c->g);
    ng_op_t **items = calloc((size_t)c->n + 1, sizeof *items);
    assert_non_null(items);
    ng_op_t *one = ng_scalar(c->g, 1);
    ng_op_t *p = ng_persistent_tensor(c->g, NG_FLOAT32, NULL, 0, ng_scalar(c->g, 0));
    for (int64_t i = 0; i < c->n; ++i) {
        ng_op_t *next = ng_persistent_tensor(c->g, NG_FLOAT32, NULL, 0, ng_scalar(c->g, 0));
        items[i] = ng_assign(c->g, next, ng_add(c->g, p, one));
        p = next;
    }
    items[c->n] = p;
    c->seq[0] = ng_sequential(c->g, items, (int32_t)c->n + 1);
    ng_op_t *q = ng_persistent_tensor(c->g, NG_FLOAT32, NULL, 0, ng_scalar(c->g, 0));
    for (int64_t i = 0; i < c->n; ++i) items[i] = ng_assign(c->g, q, ng_add(c->g, q, one));
    items[c->n] = q;
    c->seq[1] = ng_sequential(c->g, items, (int32_t)c->n + 1);
    free(items);
    assert_int_equal(ng_graph_status(c->g), NG_OK);
    on_small_stack(run_sequentials, c, &c->report);
    ng_graph_destroy(c->g);
    free(c);
}

/* The sum of k matrix products a b_i, b_i = i I (2 x 2), added up as a chain: a (k (k - 1) / 2).
 * Every product was once fused into one program with the whole chain of adds, which kept all k
 * products alive at once and made the memory plan quadratic; the value is the same in pieces. */
typedef struct {
    int64_t k;
    ng_graph_t *g;
    ng_op_t *a, *sum;
    report_t report;
} product_sum_t;

static void *run_product_sum(void *arg) {
    product_sum_t *c = arg;
    const float as[4] = {1, 2, 3, 4};
    const int64_t shape[2] = {2, 2};
    ng_tensor_t *in = ng_tensor_from_data(NG_FLOAT32, shape, 2, as), *out = NULL;
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *comp = t && in ? ng_computation_create(t, &c->sum, 1, &c->a, 1) : NULL;
    float got[4] = {0, 0, 0, 0};
    if (!comp || ng_computation_run(comp, &in, 1, &out, 1) != NG_OK ||
        ng_tensor_read(out, got, sizeof got) != NG_OK) {
        note(&c->report, "compiling or running the sum of products", ng_last_error());
    } else {
        const float scale = (float)(c->k * (c->k - 1) / 2);
        for (int i = 0; i < 4; ++i)
            if (got[i] != as[i] * scale) note(&c->report, "a wrong sum of products", NULL);
    }
    ng_tensor_release(out);
    ng_tensor_release(in);
    ng_computation_destroy(comp);
    ng_transformer_destroy(t);
    return NULL;
}

static void test_wide_sum_of_products(void **state) {
    (void)state;
    product_sum_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->k = 2000; /* the sums stay below 2^24: exact in float32 */
    c->g = ng_graph_create();
    assert_non_null(c->g);
    const ng_axis_t *m = ng_axis(c->g, "M", 2), *k = ng_axis(c->g, "K", 2),
                    *n = ng_axis(c->g, "N", 2);
    const ng_axis_t *a_axes[2] = {m, k}, *b_axes[2] = {k, n};
    c->a = ng_placeholder(c->g, NG_FLOAT32, a_axes, 2, NULL);
    for (int64_t i = 0; i < c->k; ++i) {
        const float bs[4] = {(float)i, 0, 0, (float)i};
        ng_op_t *product = ng_dot(c->g, c->a, ng_constant(c->g, NG_FLOAT32, b_axes, 2, bs));
        c->sum = c->sum ? ng_add(c->g, c->sum, product) : product;
    }
    assert_int_equal(ng_graph_status(c->g), NG_OK);
    on_small_stack(run_product_sum, c, &c->report);
    ng_graph_destroy(c->g);
    free(c);
}

/* A growable protobuf writer, enough for the one-node model below. */
typedef struct {
    unsigned char *bytes;
    size_t size, capacity;
} proto_t;

static void put_raw(proto_t *p, const void *data, size_t size) {
    if (size == 0) return;
    if (p->size + size > p->capacity) {
        p->capacity = 2 * (p->size + size);
        p->bytes = realloc(p->bytes, p->capacity);
        assert_non_null(p->bytes);
    }
    memcpy(p->bytes + p->size, data, size);
    p->size += size;
}

static void put_varint(proto_t *p, uint64_t v) {
    do {
        unsigned char b = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        put_raw(p, &b, 1);
        v >>= 7;
    } while (v);
}

static void put_bytes(proto_t *p, int field, const void *data, size_t size) {
    put_varint(p, (uint64_t)field << 3 | 2);
    put_varint(p, size);
    put_raw(p, data, size);
}

static void put_text(proto_t *p, int field, const char *text) {
    put_bytes(p, field, text, strlen(text));
}

static void put_int(proto_t *p, int field, uint64_t v) {
    put_varint(p, (uint64_t)field << 3);
    put_varint(p, v);
}

/* Appends m as field `field` of p and frees m. */
static void put_message(proto_t *p, int field, proto_t *m) {
    put_bytes(p, field, m->bytes, m->size);
    free(m->bytes);
    *m = (proto_t){0};
}

enum { kSumInputs = 32000 };

/* The ModelProto of y = Sum(x, x, ..., x) (kSumInputs inputs) for a float scalar x, opset 13:
 * about 100 KB. */
static proto_t wide_sum_model(void) {
    proto_t node = {0}, graph = {0}, tensor = {0}, type = {0}, x = {0}, y = {0}, opset = {0},
            model = {0};
    for (int i = 0; i < kSumInputs; ++i) put_text(&node, 1, "x");
    put_text(&node, 2, "y");
    put_text(&node, 4, "Sum");
    put_message(&graph, 1, &node);
    put_text(&graph, 2, "wide_sum");
    put_int(&tensor, 1, 1); /* FLOAT, and no shape field: a scalar has no dims */
    put_bytes(&tensor, 2, NULL, 0);
    put_message(&type, 1, &tensor);
    put_text(&x, 1, "x");
    put_bytes(&x, 2, type.bytes, type.size);
    put_message(&graph, 11, &x);
    put_text(&y, 1, "y");
    put_message(&graph, 12, &y);
    free(type.bytes);
    put_int(&opset, 2, 13);
    put_int(&model, 1, 8);
    put_message(&model, 7, &graph);
    put_message(&model, 8, &opset);
    return model;
}

/* A model and what a thread importing it saw; `inputs`: its size (Sum inputs, chained nodes). */
typedef struct {
    proto_t model;
    int inputs;
    report_t report;
} wide_sum_t;

static void *import_and_run_wide_sum(void *arg) {
    wide_sum_t *w = arg;
    ng_graph_t *g = ng_onnx_import_bytes(w->model.bytes, w->model.size, NULL, NULL, 0, 0);
    CHECK(&w->report, g != NULL);
    ng_op_t *x = ng_graph_find(g, "x"), *y = ng_graph_find(g, "y");
    float value = 0;
    if (!x || !y)
        note(&w->report, "the model's input or output is missing", NULL);
    else if (run_at_one(&w->report, x, &y, 1, &value) && value != (float)kSumInputs)
        note(&w->report, "the imported sum computed a wrong value", NULL);
    ng_graph_destroy(g);
    return NULL;
}

/* One ONNX Sum node of 32,000 inputs imports as a chain of adds: a small file, a deep graph. */
static void test_onnx_sum_of_many_inputs(void **state) {
    (void)state;
    wide_sum_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->model = wide_sum_model();
    assert_true(w->model.size < 128 * 1024);
    on_small_stack(import_and_run_wide_sum, w, &w->report);
    free(w->model.bytes);
    free(w);
}

/* The ModelProto of a chain of `nodes` Add nodes over one float initializer c = 1 (t0 =
 * c + c, t_i = t_(i-1) + c, the last one named y): every node's inputs are known at import, so
 * the importer computes each of them. */
static proto_t folded_chain_model(int nodes) {
    proto_t graph = {0}, init = {0}, y = {0}, opset = {0}, model = {0};
    for (int i = 0; i < nodes; ++i) {
        proto_t node = {0};
        char in[32], out[32];
        snprintf(in, sizeof in, i == 0 ? "c" : "t%d", i - 1);
        snprintf(out, sizeof out, i == nodes - 1 ? "y" : "t%d", i);
        put_text(&node, 1, in);
        put_text(&node, 1, "c");
        put_text(&node, 2, out);
        put_text(&node, 4, "Add");
        put_message(&graph, 1, &node);
    }
    put_text(&graph, 2, "folded_chain");
    const unsigned char one[4] = {0x00, 0x00, 0x80, 0x3f}; /* 1.0f, little-endian */
    put_int(&init, 2, 1);                                  /* FLOAT, a scalar: no dims */
    put_text(&init, 8, "c");
    put_bytes(&init, 9, one, sizeof one);
    put_message(&graph, 5, &init);
    put_text(&y, 1, "y");
    put_message(&graph, 12, &y);
    put_int(&opset, 2, 13);
    put_int(&model, 1, 8);
    put_message(&model, 7, &graph);
    put_message(&model, 8, &opset);
    return model;
}

static void *import_and_run_folded_chain(void *arg) {
    wide_sum_t *w = arg;
    ng_graph_t *g = ng_onnx_import_bytes(w->model.bytes, w->model.size, NULL, NULL, 0, 0);
    CHECK(&w->report, g != NULL);
    ng_op_t *y = ng_graph_find(g, "y");
    ng_tensor_t *out = NULL;
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = y && t ? ng_computation_create(t, &y, 1, NULL, 0) : NULL;
    float value = 0;
    if (!c || ng_computation_run(c, NULL, 0, &out, 1) != NG_OK ||
        ng_tensor_read(out, &value, sizeof value) != NG_OK)
        note(&w->report, "compiling or running y", ng_last_error());
    else if (value != (float)(w->inputs + 1))
        note(&w->report, "the folded chain computed a wrong value", NULL);
    ng_tensor_release(out);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    return NULL;
}

/* A chain of nodes the importer computes at import (their inputs are all known) imports in time
 * linear in its length: each node is computed from the known values of its inputs, not from the
 * whole chain above it again. 5,000 nodes (2,000 under the tools). */
static void test_onnx_chain_of_known_values(void **state) {
    (void)state;
    wide_sum_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->inputs = (int)size_for_tools(5000, 2000);
    w->model = folded_chain_model(w->inputs);
    on_small_stack(import_and_run_folded_chain, w, &w->report);
    free(w->model.bytes);
    free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_a_deep_chain),
        cmocka_unit_test(test_derive_a_deep_chain),
        cmocka_unit_test(test_onnx_round_trip_of_a_deep_chain),
        cmocka_unit_test(test_dot_export_of_a_deep_chain),
        cmocka_unit_test(test_queries_of_a_deep_chain),
        cmocka_unit_test(test_destroy_a_deep_chain),
        cmocka_unit_test(test_chain_of_initial_values),
        cmocka_unit_test(test_long_sequentials_of_assignments),
        cmocka_unit_test(test_wide_sum_of_products),
        cmocka_unit_test(test_onnx_sum_of_many_inputs),
        cmocka_unit_test(test_onnx_chain_of_known_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
