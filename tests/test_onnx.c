/* ONNX export and import through the C API: a graph using every exportable op, exported and
 * imported again, computes the same values (outputs found by name); import options; bad input to
 * every entry point, including damaged model bytes, which must fail cleanly and never crash.
 * With NG_ONNX_OUT set, the exported models are also written there for ONNX's checker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec_test_util.h"
#include "expect_error.h"

enum { MAX_RESULTS = 64 };

typedef struct model {
    ng_graph_t *g;
    ng_op_t *params[3];
    ng_tensor_t *inputs[3];
    int32_t n_params;
    ng_op_t *results[MAX_RESULTS];
    int32_t n_results;
} model_t;

static void add_result(model_t *m, ng_op_t *op) {
    if (!op) fail_msg("building result %d: %s", m->n_results, ng_last_error());
    assert_true(m->n_results < MAX_RESULTS);
    m->results[m->n_results++] = op;
}

static ng_tensor_t *values(ng_dtype_t dt, const int64_t *shape, int32_t rank, int salt) {
    double v[64];
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i) n *= shape[i];
    for (int64_t i = 0; i < n; ++i) v[i] = ex_value(i, salt);
    return ex_tensor(dt, shape, rank, v);
}

/* x(A 3, B 4), y(B 4) float64 and k(N 5) int32 inputs; a variable, constants; one result per op
 * kind (and the alignments that make the exporter transpose and unsqueeze). */
static model_t build_model(void) {
    model_t m = {0};
    ng_graph_t *g = m.g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 3), *B = ng_axis(g, "B", 4), *C = ng_axis(g, "C", 2);
    const ng_axis_t *N = ng_axis(g, "N", 5), *K = ng_axis(g, "K", 4);
    const ng_axis_t *ab[2] = {A, B}, *ba[2] = {B, A}, *bc[2] = {B, C};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT64, ab, 2, NULL);
    ng_op_t *y = ng_placeholder(g, NG_FLOAT64, &B, 1, NULL);
    ng_op_t *k = ng_placeholder(g, NG_INT32, &N, 1, NULL);
    ng_op_set_name(x, "x");
    ng_op_set_name(y, "y");
    m.params[0] = x, m.params[1] = y, m.params[2] = k, m.n_params = 3;
    m.inputs[0] = values(NG_FLOAT64, (int64_t[]){3, 4}, 2, 1);
    m.inputs[1] = values(NG_FLOAT64, (int64_t[]){4}, 1, 2);
    m.inputs[2] = ex_tensor(NG_INT32, (int64_t[]){5}, 1, (double[]){0, 3, -1, 7, 2});
    double wv[8] = {0.5, -1, 2, 0.25, -0.75, 1.5, 1, -2};
    ng_op_t *w = ng_constant(g, NG_FLOAT64, bc, 2, wv);
    ng_op_t *v = ng_variable(g, NG_FLOAT64, ab, 2, ng_scalar_of(g, NG_FLOAT64, 0.5));
    ng_op_t *one = ng_scalar_of(g, NG_FLOAT64, 1);
    ng_op_t *pos = ng_add(g, ng_absolute(g, x), one);

    add_result(&m, ng_add(g, x, y));
    add_result(&m, ng_subtract(g, y, x)); /* (B, A): x transposed for ONNX */
    add_result(&m, ng_multiply(g, x, v));
    add_result(&m, ng_divide(g, x, ng_add(g, ng_square(g, y), one)));
    add_result(&m, ng_power(g, pos, y));
    add_result(&m, ng_maximum(g, x, y));
    add_result(&m, ng_minimum(g, y, x));
    add_result(&m, ng_equal(g, x, y));
    add_result(&m, ng_not_equal(g, x, x));
    add_result(&m, ng_less(g, x, y));
    add_result(&m, ng_less_equal(g, y, x));
    add_result(&m, ng_greater(g, x, y));
    add_result(&m, ng_greater_equal(g, x, y));
    add_result(&m, ng_select(g, ng_greater(g, y, ng_scalar_of(g, NG_FLOAT64, 0)), x, y));
    add_result(&m, ng_maximum(g, ng_less(g, x, y), ng_greater(g, x, y)));
    add_result(&m, ng_negative(g, x));
    add_result(&m, ng_sign(g, x));
    add_result(&m, ng_exp(g, x));
    add_result(&m, ng_log(g, pos));
    add_result(&m, ng_sqrt(g, pos));
    add_result(&m, ng_reciprocal(g, pos));
    add_result(&m, ng_sigmoid(g, x));
    add_result(&m, ng_relu(g, x));
    add_result(&m, ng_sin(g, x));
    add_result(&m, ng_cos(g, x));
    add_result(&m, ng_tanh(g, x));
    add_result(&m, ng_stop_gradient(g, x));
    add_result(&m, ng_cast(g, ng_multiply(g, x, ng_scalar_of(g, NG_FLOAT64, 10)), NG_INT32));
    add_result(&m, ng_sum(g, x, &A, 1));
    add_result(&m, ng_max(g, x, &B, 1));
    add_result(&m, ng_min(g, x, NULL, 0));
    add_result(&m, ng_mean(g, x, &A, 1));
    add_result(&m, ng_prod(g, x, &B, 1));
    add_result(&m, ng_argmax(g, x, A));
    add_result(&m, ng_argmin(g, x, B));
    add_result(&m, ng_dot(g, x, w));
    add_result(&m, ng_dot(g, w, x));
    add_result(&m, ng_dot(g, x, ng_axes_with_order(g, v, ba, 2))); /* full contraction */
    add_result(&m, ng_softmax(g, x, &B, 1));
    add_result(&m, ng_softmax(g, x, ba, 2));
    add_result(&m, ng_log_softmax(g, x, &A, 1));
    add_result(&m, ng_broadcast(g, y, (const ng_axis_t *[]){C, B, A}, 3));
    add_result(&m, ng_axes_with_order(g, x, ba, 2));
    add_result(&m, ng_cast_axes(g, x, (const ng_axis_t *[]){ng_axis(g, "P", 3), K}, 2));
    add_result(&m, ng_slice(g, x, (ng_slice_t[]){{2, -1, -1, 0}, {1, 4, 2, 0}}, 2));
    add_result(&m, ng_slice(g, x, (ng_slice_t[]){{1, 2, 1, 1}, {0, 4, 1, 0}}, 2));
    add_result(&m, ng_pad(g, x, (int64_t[]){1, 0}, (int64_t[]){0, 2}, 2));
    ng_op_t *flat = ng_flatten(g, x, ab, 2, "F");
    add_result(&m, flat);
    add_result(&m, ng_unflatten(g, flat));
    add_result(&m,
               ng_reshape(g, x, (const ng_axis_t *[]){ng_axis(g, "R", 2), ng_axis(g, "S", 6)}, 2));
    add_result(&m, ng_concat(g, (ng_op_t *[]){x, ng_sin(g, x)}, 2, "B"));
    add_result(&m, ng_stack(g, (ng_op_t *[]){y, ng_cos(g, y)}, 2, C, 1));
    add_result(&m, ng_one_hot(g, k, K, NG_FLOAT32));
    add_result(&m, ng_expand_dims(g, y, ng_axis(g, "E", 2), 0));
    add_result(&m,
               ng_cross_entropy_multi(g, ng_softmax(g, x, &B, 1), ng_softmax(g, v, &B, 1), &B, 1));
    add_result(&m, w);
    add_result(&m, x);
    return m;
}

static void free_model(model_t *m) {
    for (int32_t i = 0; i < m->n_params; ++i) ng_tensor_release(m->inputs[i]);
    ng_graph_destroy(m->g);
}

/* Runs results (found by name in g when `by_name`) on the inputs; outputs as doubles. */
static void run_all(ng_graph_t *g, const model_t *m, int by_name, double **out, int64_t *n) {
    ng_op_t *results[MAX_RESULTS], *params[3];
    for (int32_t i = 0; i < m->n_results; ++i) {
        results[i] = by_name ? ng_graph_find(g, ng_op_name(m->results[i])) : m->results[i];
        if (!results[i]) fail_msg("result %s not found", ng_op_name(m->results[i]));
    }
    for (int32_t i = 0; i < m->n_params; ++i) {
        params[i] = by_name ? ng_graph_find(g, ng_op_name(m->params[i])) : m->params[i];
        assert_non_null(params[i]);
        assert_int_equal(ng_op_flags(params[i]), ng_op_flags(m->params[i]));
    }
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, results, m->n_results, params, m->n_params);
    if (!c) fail_msg("compile: %s", ng_last_error());
    ng_tensor_t *outs[MAX_RESULTS] = {0};
    assert_int_equal(ng_computation_run(c, m->inputs, m->n_params, outs, m->n_results), NG_OK);
    for (int32_t i = 0; i < m->n_results; ++i) {
        n[i] = ng_tensor_numel(outs[i]);
        assert_int_equal(ng_tensor_dtype(outs[i]), ng_op_dtype(m->results[i]));
        assert_int_equal(ng_tensor_rank(outs[i]), ng_op_rank(m->results[i]));
        for (int32_t d = 0; d < ng_tensor_rank(outs[i]); ++d)
            assert_int_equal(ng_tensor_dim(outs[i], d),
                             ng_axis_length(ng_op_axis(m->results[i], d)));
        out[i] = malloc(sizeof(double) * (size_t)(n[i] ? n[i] : 1));
        ex_read(outs[i], out[i]);
        ng_tensor_release(outs[i]);
    }
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
}

static void write_for_checker(const void *bytes, size_t size, const char *name) {
    const char *dir = getenv("NG_ONNX_OUT");
    if (!dir || !*dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.onnx", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    fclose(f);
}

static void test_round_trip(void **state) {
    (void)state;
    model_t m = build_model();
    void *bytes = NULL;
    size_t size = 0;
    assert_int_equal(
        ng_onnx_export_bytes(m.g, m.results, m.n_results, m.params, m.n_params, &bytes, &size),
        NG_OK);
    assert_true(size > 0);
    write_for_checker(bytes, size, "every_op");
    ng_graph_t *back = ng_onnx_import_bytes(bytes, size, NULL, NULL, 0, 0);
    if (!back) fail_msg("import: %s", ng_last_error());
    ng_free(bytes);

    double *want[MAX_RESULTS], *got[MAX_RESULTS];
    int64_t nw[MAX_RESULTS], ng_[MAX_RESULTS];
    run_all(m.g, &m, 0, want, nw);
    run_all(back, &m, 1, got, ng_);
    for (int32_t i = 0; i < m.n_results; ++i) {
        assert_int_equal(nw[i], ng_[i]);
        for (int64_t j = 0; j < nw[i]; ++j) {
            double a = want[i][j], b = got[i][j];
            if (!(fabs(a - b) <= 1e-12 * (1 + fabs(a))))
                fail_msg("result %d (%s) element %lld: %.17g exported, %.17g imported", i,
                         ng_op_name(m.results[i]), (long long)j, a, b);
        }
        free(want[i]);
        free(got[i]);
    }
    ng_graph_destroy(back);
    free_model(&m);
}

/* The file forms; the trained form takes a variable's value from a transformer; the trainable
 * import makes float initializers variables. */
static void test_files_and_values(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &A, 1, NULL);
    ng_op_t *v = ng_variable(g, NG_FLOAT32, &A, 1, ng_scalar(g, 1));
    ng_op_t *y = ng_multiply(g, x, v);
    ng_op_set_name(x, "in");
    ng_op_set_name(y, "out");
    char path[] = "/tmp/ng_test_onnx_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_tensor_t *three = ex_tensor(NG_FLOAT32, (int64_t[]){2}, 1, (double[]){3, 4});
    assert_int_equal(ng_transformer_set_value(t, v, three), NG_OK);
    assert_int_equal(ng_onnx_export_trained_file(t, g, &y, 1, &x, 1, path), NG_OK);

    ng_graph_t *back = ng_onnx_import_file_with(path, NULL, NULL, 0, NG_ONNX_TRAINABLE);
    if (!back) fail_msg("import: %s", ng_last_error());
    ng_op_t *out = ng_graph_find(back, "out");
    ng_op_t *in = ng_graph_find(back, "in");
    assert_non_null(out);
    assert_non_null(in);
    ng_op_t *vars[2];
    assert_int_equal(ng_variables(out, vars, 2), 1);
    double got[2];
    ng_tensor_t *two = ex_tensor(NG_FLOAT32, (int64_t[]){2}, 1, (double[]){2, -1});
    ex_run_read(back, out, &in, &two, 1, NG_FLOAT32, got, 2);
    assert_true(got[0] == 6 && got[1] == -4);
    ng_graph_destroy(back);

    /* The plain forms: the variable's initial value; constants when imported plainly. */
    assert_int_equal(ng_onnx_export_file(g, &y, 1, &x, 1, path), NG_OK);
    back = ng_onnx_import_file(path, NULL, NULL, 0);
    assert_non_null(back);
    out = ng_graph_find(back, "out");
    in = ng_graph_find(back, "in");
    assert_int_equal(ng_variables(out, vars, 2), 0);
    ex_run_read(back, out, &in, &two, 1, NG_FLOAT32, got, 2);
    assert_true(got[0] == 2 && got[1] == -1);
    ng_graph_destroy(back);
    remove(path);
    close(fd);
    ng_tensor_release(two);
    ng_tensor_release(three);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

static void test_export_errors(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *A = ng_axis(g, "A", 2);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &A, 1, NULL);
    ng_op_t *p = ng_persistent_tensor(g, NG_FLOAT32, &A, 1, NULL);
    ng_op_t *assign = ng_assign(g, p, x);
    ng_op_t *y = ng_exp(g, x);
    void *bytes = (void *)1;
    size_t size = 7;
    assert_int_equal(ng_onnx_export_bytes(g, &assign, 1, &x, 1, &bytes, &size), NG_ERR_UNSUPPORTED);
    expect_error(NG_ERR_UNSUPPORTED, "ng_onnx_export_bytes", "Assign");
    assert_null(bytes);
    assert_int_equal(size, 0);
    assert_int_equal(ng_onnx_export_bytes(g, &y, 1, NULL, 0, &bytes, &size),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_export_bytes", "placeholder");
    assert_int_equal(ng_onnx_export_bytes(g, &y, 1, &y, 1, &bytes, &size), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_export_bytes", "not a placeholder");
    assert_int_equal(ng_onnx_export_bytes(g, &y, 0, &x, 1, &bytes, &size), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_onnx_export_bytes(NULL, &y, 1, &x, 1, &bytes, &size),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_export_bytes", "g");
    assert_int_equal(ng_onnx_export_bytes(g, &y, 1, &x, 1, NULL, &size), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_onnx_export_file(g, &y, 1, &x, 1, NULL), NG_ERR_INVALID_ARGUMENT);
    assert_int_equal(ng_onnx_export_file(g, &y, 1, &x, 1, "/nonexistent/dir/m.onnx"), NG_ERR_IO);
    expect_error(NG_ERR_IO, "ng_onnx_export_file", "/nonexistent/dir/m.onnx");
    assert_int_equal(ng_onnx_export_trained_file(NULL, g, &y, 1, &x, 1, "/tmp/x.onnx"),
                     NG_ERR_INVALID_ARGUMENT);
    ng_graph_t *other = ng_graph_create();
    assert_int_equal(ng_onnx_export_bytes(other, &y, 1, &x, 1, &bytes, &size),
                     NG_ERR_INVALID_ARGUMENT);
    ng_graph_destroy(other);
    ng_graph_destroy(g);
}

/* A small valid model. */
static void small_model(void **bytes, size_t *size) {
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *axes[2] = {ng_axis(g, "N", 1), ng_axis(g, "C", 3)};
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, axes, 2, NULL);
    ng_op_t *y = ng_tanh(g, x);
    assert_int_equal(ng_onnx_export_bytes(g, &y, 1, &x, 1, bytes, size), NG_OK);
    ng_graph_destroy(g);
}

static void test_import_errors(void **state) {
    (void)state;
    assert_null(ng_onnx_import_file(NULL, NULL, NULL, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_import_file", "path");
    assert_null(ng_onnx_import_file("/nonexistent/model.onnx", NULL, NULL, 0));
    expect_error(NG_ERR_IO, "ng_onnx_import_file", "/nonexistent/model.onnx");
    assert_null(ng_onnx_import_bytes(NULL, 4, NULL, NULL, 0, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_import_bytes", "bytes");
    assert_null(ng_onnx_import_bytes("\xff\xff\xff\xff", 4, NULL, NULL, 0, 0));
    expect_error(NG_ERR_FORMAT, "ng_onnx_import_bytes", "ModelProto");
    assert_null(ng_onnx_import_bytes("", 0, NULL, NULL, 0, 0));
    expect_error(NG_ERR_FORMAT, "ng_onnx_import_bytes", "graph");
    void *bytes;
    size_t size;
    small_model(&bytes, &size);
    assert_null(ng_onnx_import_bytes(bytes, size, NULL, NULL, 0, 8));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_import_bytes", "options");
    assert_null(ng_onnx_import_bytes(bytes, size, NULL, NULL, 1, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_import_bytes", "dim_names");
    const char *names[1] = {"N"};
    const int64_t bad_length[1] = {-2};
    assert_null(ng_onnx_import_bytes(bytes, size, names, bad_length, 1, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_onnx_import_bytes", "-2");
    ng_free(bytes);
    ng_free(NULL);
}

/* A minimal protobuf writer, enough to spell out one-node models with chosen attribute values
 * that the exporter would never write. */
typedef struct proto {
    unsigned char bytes[512];
    size_t size;
} proto_t;

static void put_varint(proto_t *p, uint64_t v) {
    do {
        assert_true(p->size < sizeof p->bytes);
        p->bytes[p->size++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}

static void put_bytes(proto_t *p, int field, const void *data, size_t size) {
    put_varint(p, (uint64_t)field << 3 | 2);
    put_varint(p, size);
    assert_true(p->size + size <= sizeof p->bytes);
    memcpy(p->bytes + p->size, data, size);
    p->size += size;
}

static void put_text(proto_t *p, int field, const char *text) {
    put_bytes(p, field, text, strlen(text));
}

static void put_message(proto_t *p, int field, const proto_t *m) {
    put_bytes(p, field, m->bytes, m->size);
}

static void put_int(proto_t *p, int field, uint64_t v) {
    put_varint(p, (uint64_t)field << 3);
    put_varint(p, v);
}

/* A float tensor value named `name` of shape (3, 3): ValueInfoProto. */
static proto_t float_3x3(const char *name) {
    proto_t dim = {0}, shape = {0}, tensor = {0}, type = {0}, info = {0};
    put_int(&dim, 1, 3);
    put_message(&shape, 1, &dim);
    put_message(&shape, 1, &dim);
    put_int(&tensor, 1, 1);
    put_message(&tensor, 2, &shape);
    put_message(&type, 1, &tensor);
    put_text(&info, 1, name);
    put_message(&info, 2, &type);
    return info;
}

/* An int64 initializer (TensorProto) named `name`: a vector of n values, or one scalar (n < 0). */
static void put_int64_initializer(proto_t *graph, const char *name, const int64_t *v, int n) {
    proto_t init = {0};
    if (n >= 0) put_int(&init, 1, (uint64_t)n);
    put_int(&init, 2, 7); /* INT64 */
    put_text(&init, 8, name);
    unsigned char raw[64];
    const int count = n < 0 ? 1 : n;
    assert_true(count <= 8);
    for (int i = 0; i < count; ++i)
        for (int b = 0; b < 8; ++b) raw[8 * i + b] = (unsigned char)((uint64_t)v[i] >> 8 * b);
    put_bytes(&init, 9, raw, 8 * (size_t)count);
    put_message(graph, 5, &init);
}

/* A node of type op from inputs (n_in names) to output "y", with one string attribute if
 * attr_name is not NULL. */
static void put_node(proto_t *graph, const char *op, const char *const *inputs, int n_in,
                     const char *attr_name, const char *attr_value) {
    proto_t node = {0};
    for (int i = 0; i < n_in; ++i) put_text(&node, 1, inputs[i]);
    put_text(&node, 2, "y");
    put_text(&node, 4, op);
    if (attr_name) {
        proto_t attr = {0};
        put_text(&attr, 1, attr_name);
        put_text(&attr, 4, attr_value);
        put_int(&attr, 20, 3); /* AttributeProto.STRING */
        put_message(&node, 5, &attr);
    }
    put_message(graph, 1, &node);
}

/* The ModelProto of graph (its name and output "y" added) importing opset 13. */
static proto_t model_of(proto_t graph) {
    proto_t opset = {0}, model = {0}, y = {0};
    put_text(&y, 1, "y");
    put_text(&graph, 2, "g");
    put_message(&graph, 12, &y);
    put_int(&opset, 2, 13);
    put_int(&model, 1, 8);
    put_message(&model, 7, &graph);
    put_message(&model, 8, &opset);
    return model;
}

/* y = Pad(x, pads) for x of shape (3, 3). */
static proto_t pad_model(const int64_t pads[4], const char *mode) {
    proto_t graph = {0};
    put_node(&graph, "Pad", (const char *[]){"x", "p"}, 2, "mode", mode);
    put_int64_initializer(&graph, "p", pads, 4);
    proto_t x = float_3x3("x");
    put_message(&graph, 11, &x);
    return model_of(graph);
}

/* Pads beyond what the dims allow fail with a format error naming them, in every mode; pads near
 * the ends of int64 once overflowed while being checked. A valid pad imports and computes. */
static void test_pad_bounds(void **state) {
    (void)state;
    const char *modes[3] = {"constant", "edge", "reflect"};
    const int64_t bad[][4] = {
        {1, INT64_MIN, 1, 2}, {0, 0, INT64_MIN, 0},
        {-4, 0, 0, 0},        {0, 0, 0, -4},
        {-2, 0, -2, 0},       {INT64_MAX, 0, 0, 0},
        {0, 0, INT64_MAX, 1}, {0, INT64_MAX, 0, INT64_MAX},
    };
    for (int m = 0; m < 3; ++m)
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            proto_t model = pad_model(bad[i], modes[m]);
            ng_graph_t *g = ng_onnx_import_bytes(model.bytes, model.size, NULL, NULL, 0, 0);
            if (g) fail_msg("pads %d of mode %s imported", (int)i, modes[m]);
            if (ng_last_status() != NG_ERR_FORMAT)
                fail_msg("pads %d, mode %s: status %d: %s", (int)i, modes[m], ng_last_status(),
                         ng_last_error());
            if (!strstr(ng_last_error(), "Pad"))
                fail_msg("pads %d, mode %s: %s", (int)i, modes[m], ng_last_error());
        }
    /* (3, 3) grown by one row before and cropped by one column after: (4, 2). */
    proto_t model = pad_model((const int64_t[4]){1, 0, 0, -1}, "edge");
    ng_graph_t *g = ng_onnx_import_bytes(model.bytes, model.size, NULL, NULL, 0, 0);
    if (!g) fail_msg("%s", ng_last_error());
    ng_tensor_t *in =
        ex_tensor(NG_FLOAT32, (int64_t[]){3, 3}, 2, (double[]){1, 2, 3, 4, 5, 6, 7, 8, 9});
    ng_op_t *x = ng_graph_find(g, "x"), *y = ng_graph_find(g, "y");
    assert_non_null(x);
    assert_non_null(y);
    double got[8];
    ex_run_read(g, y, &x, (ng_tensor_t *[]){in}, 1, NG_FLOAT32, got, 8);
    const double want[8] = {1, 2, 1, 2, 4, 5, 7, 8};
    for (int i = 0; i < 8; ++i) assert_true(got[i] == want[i]);
    ng_tensor_release(in);
    ng_graph_destroy(g);
}

/* Range over nearly all of int64: its values are exact although start + i * delta passes the
 * type's range on the way (that product once overflowed while the model was imported). */
static void test_range_extremes(void **state) {
    (void)state;
    const int64_t start = INT64_MIN + 5, limit = INT64_MAX, delta = INT64_C(1) << 62;
    proto_t graph = {0};
    put_node(&graph, "Range", (const char *[]){"s", "l", "d"}, 3, NULL, NULL);
    put_int64_initializer(&graph, "s", &start, -1);
    put_int64_initializer(&graph, "l", &limit, -1);
    put_int64_initializer(&graph, "d", &delta, -1);
    proto_t model = model_of(graph);
    ng_graph_t *g = ng_onnx_import_bytes(model.bytes, model.size, NULL, NULL, 0, 0);
    if (!g) fail_msg("%s", ng_last_error());
    ng_tensor_t *out = ex_run(g, ng_graph_find(g, "y"), NULL, NULL, 0);
    assert_int_equal(ng_tensor_dtype(out), NG_INT64);
    assert_int_equal(ng_tensor_numel(out), 4);
    int64_t got[4];
    assert_int_equal(ng_tensor_read(out, got, sizeof got), NG_OK);
    /* start, then -2^62 + 5, 5 and 2^62 + 5: each delta = 2^62 above the one before. */
    const int64_t want[4] = {INT64_MIN + 5, -(INT64_C(1) << 62) + 5, 5, (INT64_C(1) << 62) + 5};
    for (int i = 0; i < 4; ++i) assert_true(got[i] == want[i]);
    ng_tensor_release(out);
    ng_graph_destroy(g);
}

/* Every truncation and many single-byte corruptions of a valid model fail cleanly or import. */
static void test_damaged_bytes(void **state) {
    (void)state;
    model_t m = build_model();
    void *bytes = NULL;
    size_t size = 0;
    assert_int_equal(
        ng_onnx_export_bytes(m.g, m.results, m.n_results, m.params, m.n_params, &bytes, &size),
        NG_OK);
    unsigned char *copy = malloc(size);
    assert_non_null(copy);
    for (size_t cut = 0; cut < size; cut += 1 + cut / 16) {
        ng_graph_t *g = ng_onnx_import_bytes(bytes, cut, NULL, NULL, 0, 0);
        if (!g) assert_int_not_equal(ng_last_status(), NG_ERR_INTERNAL);
        ng_graph_destroy(g);
    }
    uint64_t rng = 12345;
    for (int i = 0; i < 600; ++i) {
        memcpy(copy, bytes, size);
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        size_t at = (size_t)(rng >> 33) % size;
        copy[at] ^= (unsigned char)(1u << ((rng >> 29) & 7));
        ng_graph_t *g = ng_onnx_import_bytes(copy, size, NULL, NULL, 0, 0);
        if (!g && ng_last_status() == NG_ERR_INTERNAL) fail_msg("internal: %s", ng_last_error());
        ng_graph_destroy(g);
    }
    free(copy);
    ng_free(bytes);
    free_model(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_files_and_values),
        cmocka_unit_test(test_export_errors),  cmocka_unit_test(test_import_errors),
        cmocka_unit_test(test_damaged_bytes),  cmocka_unit_test(test_pad_bounds),
        cmocka_unit_test(test_range_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
