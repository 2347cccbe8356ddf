/* dot through the transformer for every axes pattern, against a naive contraction loop:
 * matrix-matrix, matrix-vector, vector-matrix, operands whose axis order needs BLAS transpose
 * flags, outer product, full contraction to a scalar, several shared and several free axes,
 * strided (sliced, negative-step, transposed) inputs; float32, float64 and int32.
 * Values are small integers, so every sum is exact in every dtype: results must be equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

#define MAX_AXES 6

/* Axis lengths by letter: each pattern names its axes with these letters. */
static int64_t letter_length(char c) {
    switch (c) {
    case 'M': return 5;
    case 'N': return 4;
    case 'K': return 7;
    case 'L': return 3;
    case 'P': return 2;
    case 'Q': return 6;
    default: fail_msg("unknown axis letter %c", c); return 0;
    }
}

static int64_t numel_of(const char *axes) {
    int64_t n = 1;
    for (const char *c = axes; *c; ++c) n *= letter_length(*c);
    return n;
}

/* Row-major offset of the element of a tensor with axes `axes` at the index of each letter. */
static int64_t offset_of(const char *axes, const int64_t *index_of_letter) {
    int64_t off = 0;
    for (const char *c = axes; *c; ++c)
        off = off * letter_length(*c) + index_of_letter[(unsigned char)*c];
    return off;
}

/* out(out_axes) = sum over the shared letters of a(a_axes) * b(b_axes), by a loop over every
 * combination of the letters of a and b. */
static void naive_dot(const char *a_axes, const double *a, const char *b_axes, const double *b,
                      const char *out_axes, double *out) {
    char all[2 * MAX_AXES + 1] = {0};
    int n_all = 0;
    for (const char *c = a_axes; *c; ++c) all[n_all++] = *c;
    for (const char *c = b_axes; *c; ++c)
        if (!strchr(a_axes, *c)) all[n_all++] = *c;
    memset(out, 0, sizeof(double) * (size_t)numel_of(out_axes));
    int64_t index[128] = {0};
    int64_t total = numel_of(all);
    for (int64_t flat = 0; flat < total; ++flat) {
        int64_t rest = flat;
        for (int i = n_all - 1; i >= 0; --i) {
            int64_t len = letter_length(all[i]);
            index[(unsigned char)all[i]] = rest % len;
            rest /= len;
        }
        out[offset_of(out_axes, index)] +=
            a[offset_of(a_axes, index)] * b[offset_of(b_axes, index)];
    }
}

static void make_axes(ng_graph_t *g, const char *letters, const ng_axis_t **axes) {
    for (int i = 0; letters[i]; ++i) {
        char name[2] = {letters[i], 0};
        axes[i] = ng_axis(g, name, letter_length(letters[i]));
    }
}

static void shape_of(const char *letters, int64_t *shape) {
    for (int i = 0; letters[i]; ++i) shape[i] = letter_length(letters[i]);
}

/* Builds dot(a, b) for a with axes a_axes and b with b_axes, checks its axes are out_axes, runs
 * it on the given input tensors (NULL: dense ones of the reference values) and compares. */
static void check_dot_inputs(ng_dtype_t dt, const char *a_axes, const char *b_axes,
                             const char *out_axes, ng_tensor_t *a_in, ng_tensor_t *b_in,
                             const double *a_vals, const double *b_vals) {
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *aa[MAX_AXES], *ba[MAX_AXES];
    make_axes(g, a_axes, aa);
    make_axes(g, b_axes, ba);
    ng_op_t *pa = ng_placeholder(g, dt, aa, (int32_t)strlen(a_axes), NULL);
    ng_op_t *pb = ng_placeholder(g, dt, ba, (int32_t)strlen(b_axes), NULL);
    ng_op_t *d = ng_dot(g, pa, pb);
    assert_non_null(d);
    assert_int_equal(ng_op_dtype(d), dt);
    assert_int_equal(ng_op_rank(d), (int)strlen(out_axes));
    for (int i = 0; out_axes[i]; ++i) assert_true(ng_axis_name(ng_op_axis(d, i))[0] == out_axes[i]);

    int64_t na = numel_of(a_axes), nb = numel_of(b_axes), nout = numel_of(out_axes);
    double *want = malloc(sizeof(double) * (size_t)nout),
           *got = malloc(sizeof(double) * (size_t)nout);
    naive_dot(a_axes, a_vals, b_axes, b_vals, out_axes, want);
    int64_t sa[MAX_AXES], sb[MAX_AXES];
    shape_of(a_axes, sa);
    shape_of(b_axes, sb);
    ng_tensor_t *ta = a_in ? a_in : ex_tensor(dt, sa, (int32_t)strlen(a_axes), a_vals);
    ng_tensor_t *tb = b_in ? b_in : ex_tensor(dt, sb, (int32_t)strlen(b_axes), b_vals);
    assert_int_equal(ng_tensor_numel(ta), na);
    assert_int_equal(ng_tensor_numel(tb), nb);
    ng_op_t *params[2] = {pa, pb};
    ng_tensor_t *inputs[2] = {ta, tb};
    ex_run_read(g, d, params, inputs, 2, dt, got, nout);
    char what[64];
    snprintf(what, sizeof what, "dot(%s, %s) %s", a_axes, b_axes, ng_dtype_name(dt));
    ex_assert_close(got, want, nout, 0, what);
    if (!a_in) ng_tensor_release(ta);
    if (!b_in) ng_tensor_release(tb);
    free(want);
    free(got);
    ng_graph_destroy(g);
}

static void check_dot(ng_dtype_t dt, const char *a_axes, const char *b_axes, const char *out_axes) {
    int64_t na = numel_of(a_axes), nb = numel_of(b_axes);
    double *a = malloc(sizeof(double) * (size_t)na), *b = malloc(sizeof(double) * (size_t)nb);
    for (int64_t i = 0; i < na; ++i) a[i] = ex_value(i, 1);
    for (int64_t i = 0; i < nb; ++i) b[i] = ex_value(i, 2);
    check_dot_inputs(dt, a_axes, b_axes, out_axes, NULL, NULL, a, b);
    free(a);
    free(b);
}

static const ng_dtype_t dtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32};

/* Every pattern: {a's axes, b's axes, the result's axes (a's free, then b's free)}. */
static const char *const patterns[][3] = {
    {"MK", "KN", "MN"},       /* matrix-matrix */
    {"KM", "KN", "MN"},       /* a stored transposed */
    {"MK", "NK", "MN"},       /* b stored transposed */
    {"KM", "NK", "MN"},       /* both transposed */
    {"MK", "K", "M"},         /* matrix-vector */
    {"KM", "K", "M"},         /* transposed matrix-vector */
    {"K", "KN", "N"},         /* vector-matrix */
    {"K", "NK", "N"},         /* vector-transposed matrix */
    {"K", "K", ""},           /* inner product */
    {"M", "N", "MN"},         /* outer product of vectors */
    {"ML", "NP", "MLNP"},     /* outer product of matrices */
    {"MK", "MK", ""},         /* full contraction of matrices */
    {"MK", "KM", ""},         /* full contraction, orders differ */
    {"MKL", "LNK", "MN"},     /* two shared axes, interleaved */
    {"PMKL", "KLNQ", "PMNQ"}, /* two shared, two free on each side */
    {"KMLP", "PNLK", "MN"},   /* three shared axes scattered through both operands */
};

static void test_dot_every_pattern(void **state) {
    (void)state;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d)
        for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; ++p)
            check_dot(dtypes[d], patterns[p][0], patterns[p][1], patterns[p][2]);
}

/* Scalar operands: dot with a rank-0 operand is a scaling. */
static void test_dot_with_scalar(void **state) {
    (void)state;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        check_dot(dtypes[d], "", "MN", "MN");
        check_dot(dtypes[d], "MN", "", "MN");
    }
}

/* Strided inputs: a is every second row of a larger matrix walked backwards, b a transposed
 * view; the kernel must read them in place or pack them, with the same values. */
static void test_dot_strided_inputs(void **state) {
    (void)state;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        ng_dtype_t dt = dtypes[d];
        const int64_t M = letter_length('M'), K = letter_length('K'), N = letter_length('N');
        /* big is (2M, K); a = big[2M-1::-2, :]: row i of a is row 2M-1-2i of big. */
        double big[10 * 7], a[5 * 7], bt[4 * 7], b[7 * 4];
        for (int64_t i = 0; i < 2 * M * K; ++i) big[i] = ex_value(i, 3);
        for (int64_t i = 0; i < M; ++i)
            for (int64_t k = 0; k < K; ++k) a[i * K + k] = big[(2 * M - 1 - 2 * i) * K + k];
        /* bt is (N, K) dense; b = transpose(bt) is (K, N). */
        for (int64_t i = 0; i < N * K; ++i) bt[i] = ex_value(i, 4);
        for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n) b[k * N + n] = bt[n * K + k];
        ng_tensor_t *tbig = ex_tensor(dt, (int64_t[]){2 * M, K}, 2, big);
        ng_tensor_t *ta = ng_tensor_slice(tbig, 0, 2 * M - 1, INT64_MIN, -2);
        assert_non_null(ta);
        assert_int_equal(ng_tensor_dim(ta, 0), M);
        ng_tensor_t *tbt = ex_tensor(dt, (int64_t[]){N, K}, 2, bt);
        ng_tensor_t *tb = ng_tensor_transpose(tbt);
        assert_non_null(tb);
        check_dot_inputs(dt, "MK", "KN", "MN", ta, tb, a, b);
        /* A vector of stride N: every N-th element of bt's storage, used as the vector side of a
         * matrix-vector product. */
        ng_tensor_t *flat = ng_tensor_reshape(tbt, (int64_t[]){N * K}, 1);
        ng_tensor_t *vec = ng_tensor_slice(flat, 0, 0, N * K, N);
        assert_non_null(vec);
        assert_int_equal(ng_tensor_dim(vec, 0), K);
        double v[7];
        ex_read(vec, v);
        check_dot_inputs(dt, "MK", "K", "M", ta, vec, a, v);
        ng_tensor_release(vec);
        ng_tensor_release(flat);
        ng_tensor_release(ta);
        ng_tensor_release(tbig);
        ng_tensor_release(tb);
        ng_tensor_release(tbt);
    }
}

/* A vector read with a negative stride (reversed) as either dot operand. */
static void test_dot_reversed_vector(void **state) {
    (void)state;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        ng_dtype_t dt = dtypes[d];
        const int64_t K = letter_length('K'), N = letter_length('N');
        double base[7], rev[7], m[7 * 4];
        for (int64_t i = 0; i < K; ++i) base[i] = ex_value(i, 5);
        for (int64_t i = 0; i < K; ++i) rev[i] = base[K - 1 - i];
        for (int64_t i = 0; i < K * N; ++i) m[i] = ex_value(i, 6);
        ng_tensor_t *tbase = ex_tensor(dt, (int64_t[]){K}, 1, base);
        ng_tensor_t *trev = ng_tensor_slice(tbase, 0, INT64_MAX, INT64_MIN, -1);
        assert_non_null(trev);
        assert_int_equal(ng_tensor_stride(trev, 0), -1);
        check_dot_inputs(dt, "K", "KN", "N", trev, NULL, rev, m);
        check_dot_inputs(dt, "K", "K", "", trev, trev, rev, rev);
        ng_tensor_release(trev);
        ng_tensor_release(tbase);
    }
}

/* A run with an input whose shape does not match the placeholder fails, naming the run. */
static void test_dot_run_rejects_wrong_input_shape(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *mk[2], *kn[2];
    make_axes(g, "MK", mk);
    make_axes(g, "KN", kn);
    ng_op_t *pa = ng_placeholder(g, NG_FLOAT32, mk, 2, NULL);
    ng_op_t *pb = ng_placeholder(g, NG_FLOAT32, kn, 2, NULL);
    ng_op_t *d = ng_dot(g, pa, pb);
    ng_op_t *params[2] = {pa, pb};
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = ng_computation_create(t, &d, 1, params, 2);
    assert_non_null(c);
    ng_tensor_t *a = ng_tensor_create(NG_FLOAT32, (int64_t[]){5, 7}, 2);
    ng_tensor_t *wrong =
        ng_tensor_create(NG_FLOAT32, (int64_t[]){4, 7}, 2); /* (N, K), not (K, N) */
    ng_tensor_t *wrong_dtype = ng_tensor_create(NG_FLOAT64, (int64_t[]){7, 4}, 2);
    ng_tensor_t *out[1] = {NULL};
    ex_assert_error(ng_computation_run(c, (ng_tensor_t *[]){a, wrong}, 2, out, 1), NG_ERR_AXES,
                    "ng_computation_run");
    assert_null(out[0]);
    ng_status_t s = ng_computation_run(c, (ng_tensor_t *[]){a, wrong_dtype}, 2, out, 1);
    ex_assert_error(s, NG_ERR_DTYPE, "ng_computation_run");
    assert_null(out[0]);
    ng_tensor_release(a);
    ng_tensor_release(wrong);
    ng_tensor_release(wrong_dtype);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dot_every_pattern),
        cmocka_unit_test(test_dot_with_scalar),
        cmocka_unit_test(test_dot_strided_inputs),
        cmocka_unit_test(test_dot_reversed_vector),
        cmocka_unit_test(test_dot_run_rejects_wrong_input_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
