/* View ops in graphs through the transformer, values written out by hand or by index loops:
 * broadcast, axes_with_order, cast_axes, expand_dims, slice (negative steps, dropped axes), pad,
 * flatten/unflatten, concat, stack, one-hot. Each view is checked as a result on its own and as
 * the operand of an elementwise op (view + view), which reads it through its strides.
 * All values are small integers: results must be exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

enum { LA = 3, LB = 4 };

typedef struct {
    ng_graph_t *g;
    const ng_axis_t *A, *B;
    ng_op_t *x; /* float32 placeholder x(A, B), x[a][b] = 10a + b */
    double xv[LA * LB];
} fixture_t;

static fixture_t make_fixture(void) {
    fixture_t f;
    f.g = ng_graph_create();
    f.A = ng_axis(f.g, "A", LA);
    f.B = ng_axis(f.g, "B", LB);
    const ng_axis_t *ab[2] = {f.A, f.B};
    f.x = ng_placeholder(f.g, NG_FLOAT32, ab, 2, NULL);
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) f.xv[a * LB + b] = 10 * a + b;
    return f;
}

/* Runs `view` (a function of f->x) alone and doubled by view + view, comparing with want (n
 * elements in the view's axis order) and the view's axis names with `names` (one letter each,
 * or a full name for a flattened axis separated by spaces). */
static void check_view(fixture_t *f, ng_op_t *view, const double *want, int64_t n,
                       const char *const *names, int32_t rank, const char *what) {
    assert_non_null(view);
    assert_int_equal(ng_op_rank(view), rank);
    for (int32_t i = 0; i < rank; ++i)
        if (strcmp(ng_axis_name(ng_op_axis(view, i)), names[i]) != 0)
            fail_msg("%s: axis %d is %s, want %s", what, i, ng_axis_name(ng_op_axis(view, i)),
                     names[i]);
    ng_op_t *doubled = ng_add(f->g, view, view);
    double got[256], twice[256];
    assert_true(n <= 256);
    ng_tensor_t *tx = ex_tensor(NG_FLOAT32, (int64_t[]){LA, LB}, 2, f->xv);
    ex_run_read(f->g, view, &f->x, &tx, 1, ng_op_dtype(view), got, n);
    ex_assert_close(got, want, n, 0, what);
    for (int64_t i = 0; i < n; ++i) twice[i] = 2 * want[i];
    ex_run_read(f->g, doubled, &f->x, &tx, 1, ng_op_dtype(view), got, n);
    ex_assert_close(got, twice, n, 0, what);
    ng_tensor_release(tx);
}

static void test_slice_negative_steps_and_dropped_axes(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    /* A reversed entirely (stop -1 runs to index 0), B from 3 down by 2: indices 3, 1. */
    ng_slice_t rev[2] = {{2, -1, -1, 0}, {3, 0, -2, 0}};
    double want[LA * 2];
    for (int i = 0; i < LA; ++i)
        for (int j = 0; j < 2; ++j) want[i * 2 + j] = f.xv[(2 - i) * LB + (3 - 2 * j)];
    check_view(&f, ng_slice(f.g, f.x, rev, 2), want, LA * 2, (const char *[]){"A", "B"}, 2,
               "reversed slice");
    /* Row 1 only (A dropped), B at 0 and 3. */
    ng_slice_t row[2] = {{1, 0, 0, 1}, {0, 4, 3, 0}};
    check_view(&f, ng_slice(f.g, f.x, row, 2), (double[]){10, 13}, 2, (const char *[]){"B"}, 1,
               "row slice");
    /* A single element: both axes dropped. */
    ng_slice_t one[2] = {{2, 0, 0, 1}, {1, 0, 0, 1}};
    check_view(&f, ng_slice(f.g, f.x, one, 2), (double[]){21}, 1, NULL, 0, "element slice");
    /* A slice of a slice: reverse B, then take A from 2 down by 2 (indices 2, 0). */
    ng_slice_t rev_b[2] = {{0, 3, 1, 0}, {3, -1, -1, 0}};
    ng_slice_t alt_a[2] = {{2, -1, -2, 0}, {0, 4, 1, 0}};
    double want2[2 * LB];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < LB; ++j) want2[i * LB + j] = f.xv[(2 - 2 * i) * LB + (3 - j)];
    check_view(&f, ng_slice(f.g, ng_slice(f.g, f.x, rev_b, 2), alt_a, 2), want2, 2 * LB,
               (const char *[]){"A", "B"}, 2, "slice of slice");
    ng_graph_destroy(f.g);
}

/* Steps at the ends of int64 select one element per axis: the count, the strides and the
 * offsets must not overflow (stride 4 * a step near INT64_MIN did, found by the fuzzer). */
static void test_slice_extreme_steps(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    ng_slice_t down[2] = {{2, -1, INT64_MIN, 0}, {0, 4, INT64_MAX, 0}};
    check_view(&f, ng_slice(f.g, f.x, down, 2), (double[]){20}, 1, (const char *[]){"A", "B"}, 2,
               "INT64_MIN and INT64_MAX steps");
    ng_slice_t near[2] = {{0, 3, INT64_MAX - 1, 0}, {3, -1, -7812722807674033665, 0}};
    check_view(&f, ng_slice(f.g, f.x, near, 2), (double[]){3}, 1, (const char *[]){"A", "B"}, 2,
               "steps near the ends of int64");
    ng_graph_destroy(f.g);
}

static void test_pad(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    /* One zero row before A, two zero columns after B: (4, 6). */
    double want[4 * 6] = {0};
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) want[(a + 1) * 6 + b] = f.xv[a * LB + b];
    ng_op_t *p = ng_pad(f.g, f.x, (int64_t[]){1, 0}, (int64_t[]){0, 2}, 2);
    check_view(&f, p, want, 24, (const char *[]){"A", "B"}, 2, "pad");
    assert_int_equal(ng_axis_length(ng_op_axis(p, 0)), 4);
    assert_int_equal(ng_axis_length(ng_op_axis(p, 1)), 6);
    /* Padding a reversed slice. */
    ng_slice_t rev[2] = {{2, -1, -1, 0}, {0, 4, 1, 0}};
    double want2[LA * (LB + 1)] = {0};
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) want2[a * (LB + 1) + b + 1] = f.xv[(2 - a) * LB + b];
    check_view(&f, ng_pad(f.g, ng_slice(f.g, f.x, rev, 2), (int64_t[]){0, 1}, (int64_t[]){0, 0}, 2),
               want2, LA * (LB + 1), (const char *[]){"A", "B"}, 2, "pad of reversed slice");
    ng_graph_destroy(f.g);
}

static void test_broadcast_order_rename_expand(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    const ng_axis_t *D = ng_axis(f.g, "D", 2);
    /* broadcast to (B, D, A): out[b][d][a] = x[a][b]. */
    double want[LB * 2 * LA];
    for (int b = 0; b < LB; ++b)
        for (int d = 0; d < 2; ++d)
            for (int a = 0; a < LA; ++a) want[(b * 2 + d) * LA + a] = f.xv[a * LB + b];
    check_view(&f, ng_broadcast(f.g, f.x, (const ng_axis_t *[]){f.B, D, f.A}, 3), want, LB * 2 * LA,
               (const char *[]){"B", "D", "A"}, 3, "broadcast");
    /* axes_with_order (B, A): the transpose. */
    double tr[LB * LA];
    for (int b = 0; b < LB; ++b)
        for (int a = 0; a < LA; ++a) tr[b * LA + a] = f.xv[a * LB + b];
    check_view(&f, ng_axes_with_order(f.g, f.x, (const ng_axis_t *[]){f.B, f.A}, 2), tr, LB * LA,
               (const char *[]){"B", "A"}, 2, "axes_with_order");
    /* expand_dims D at position 1: (A, D, B), x repeated along D. */
    double ex[LA * 2 * LB];
    for (int a = 0; a < LA; ++a)
        for (int d = 0; d < 2; ++d)
            for (int b = 0; b < LB; ++b) ex[(a * 2 + d) * LB + b] = f.xv[a * LB + b];
    check_view(&f, ng_expand_dims(f.g, f.x, D, 1), ex, LA * 2 * LB, (const char *[]){"A", "D", "B"},
               3, "expand_dims");
    ng_graph_destroy(f.g);
}

/* cast_axes renames (A, B) to (P, Q); adding z(Q, P) then aligns by the new names. */
static void test_cast_axes_changes_alignment(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    const ng_axis_t *P = ng_axis(f.g, "P", LA), *Q = ng_axis(f.g, "Q", LB);
    ng_op_t *renamed = ng_cast_axes(f.g, f.x, (const ng_axis_t *[]){P, Q}, 2);
    check_view(&f, renamed, f.xv, LA * LB, (const char *[]){"P", "Q"}, 2, "cast_axes");
    double zv[LB * LA], want[LA * LB], got[LA * LB];
    for (int i = 0; i < LB * LA; ++i) zv[i] = 100 * i;
    ng_op_t *z = ng_placeholder(f.g, NG_FLOAT32, (const ng_axis_t *[]){Q, P}, 2, NULL);
    ng_op_t *sum = ng_add(f.g, renamed, z);
    for (int p = 0; p < LA; ++p)
        for (int q = 0; q < LB; ++q) want[p * LB + q] = f.xv[p * LB + q] + zv[q * LA + p];
    ng_tensor_t *in[2] = {ex_tensor(NG_FLOAT32, (int64_t[]){LA, LB}, 2, f.xv),
                          ex_tensor(NG_FLOAT32, (int64_t[]){LB, LA}, 2, zv)};
    ex_run_read(f.g, sum, (ng_op_t *[]){f.x, z}, in, 2, NG_FLOAT32, got, LA * LB);
    ex_assert_close(got, want, LA * LB, 0, "cast_axes + z");
    ng_tensor_release(in[0]);
    ng_tensor_release(in[1]);
    ng_graph_destroy(f.g);
}

static void test_flatten_unflatten(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    ng_op_t *flat = ng_flatten(f.g, f.x, (const ng_axis_t *[]){f.A, f.B}, 2, NULL);
    check_view(&f, flat, f.xv, LA * LB, (const char *[]){"A_B"}, 1, "flatten");
    check_view(&f, ng_unflatten(f.g, flat), f.xv, LA * LB, (const char *[]){"A", "B"}, 2,
               "unflatten");
    /* Flattening the transpose (B, A) must follow the transposed order. */
    double tr[LB * LA];
    for (int b = 0; b < LB; ++b)
        for (int a = 0; a < LA; ++a) tr[b * LA + a] = f.xv[a * LB + b];
    ng_op_t *t = ng_axes_with_order(f.g, f.x, (const ng_axis_t *[]){f.B, f.A}, 2);
    ng_op_t *tflat = ng_flatten(f.g, t, (const ng_axis_t *[]){f.B, f.A}, 2, "BA");
    check_view(&f, tflat, tr, LB * LA, (const char *[]){"BA"}, 1, "flatten of transpose");
    check_view(&f, ng_unflatten(f.g, tflat), tr, LB * LA, (const char *[]){"B", "A"}, 2,
               "unflatten of transpose");
    /* Flattening a reversed slice. */
    ng_slice_t rev[2] = {{2, -1, -1, 0}, {3, -1, -1, 0}};
    double rv[LA * LB];
    for (int i = 0; i < LA * LB; ++i) rv[i] = f.xv[LA * LB - 1 - i];
    check_view(&f,
               ng_flatten(f.g, ng_slice(f.g, f.x, rev, 2), (const ng_axis_t *[]){f.A, f.B}, 2, "R"),
               rv, LA * LB, (const char *[]){"R"}, 1, "flatten of reversed slice");
    ng_graph_destroy(f.g);
}

static void test_concat_and_stack(void **state) {
    (void)state;
    fixture_t f = make_fixture();
    /* concat along A of x (3 rows), x reversed along A (3 rows) and x's transpose (B, A): the
     * operands' orders differ, the first's order is the result's. */
    ng_slice_t rev[2] = {{2, -1, -1, 0}, {0, 4, 1, 0}};
    ng_op_t *parts[3] = {f.x, ng_slice(f.g, f.x, rev, 2),
                         ng_axes_with_order(f.g, f.x, (const ng_axis_t *[]){f.B, f.A}, 2)};
    double want[3 * LA * LB];
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) {
            want[a * LB + b] = f.xv[a * LB + b];
            want[(LA + a) * LB + b] = f.xv[(2 - a) * LB + b];
            want[(2 * LA + a) * LB + b] = f.xv[a * LB + b];
        }
    ng_op_t *cat = ng_concat(f.g, parts, 3, "A");
    check_view(&f, cat, want, 3 * LA * LB, (const char *[]){"A", "B"}, 2, "concat");
    assert_int_equal(ng_axis_length(ng_op_axis(cat, 0)), 3 * LA);
    /* concat along B. */
    double wantb[LA * 2 * LB];
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) {
            wantb[a * 2 * LB + b] = f.xv[a * LB + b];
            wantb[a * 2 * LB + LB + b] = f.xv[(2 - a) * LB + b];
        }
    check_view(&f, ng_concat(f.g, parts, 2, "B"), wantb, LA * 2 * LB, (const char *[]){"A", "B"}, 2,
               "concat B");
    /* stack x and its A-reversal along S at position 1: (A, S, B). */
    const ng_axis_t *S = ng_axis(f.g, "S", 2);
    double st[LA * 2 * LB];
    for (int a = 0; a < LA; ++a)
        for (int b = 0; b < LB; ++b) {
            st[(a * 2 + 0) * LB + b] = f.xv[a * LB + b];
            st[(a * 2 + 1) * LB + b] = f.xv[(2 - a) * LB + b];
        }
    check_view(&f, ng_stack(f.g, parts, 2, S, 1), st, LA * 2 * LB, (const char *[]){"A", "S", "B"},
               3, "stack");
    ng_graph_destroy(f.g);
}

/* one_hot(x(N), K): out[k][n] = (x[n] == k), zeros for out-of-range classes. */
static void test_one_hot(void **state) {
    (void)state;
    const ng_dtype_t index_types[] = {NG_INT32, NG_INT64, NG_UINT8};
    const ng_dtype_t out_types[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32};
    for (size_t i = 0; i < 3; ++i)
        for (size_t o = 0; o < 3; ++o) {
            double classes[6] = {0, 2, 4, 9, 1, 2};
            if (index_types[i] != NG_UINT8) classes[3] = -1; /* out of range below */
            double want[5 * 6] = {0}, got[5 * 6];
            for (int n = 0; n < 6; ++n)
                if (classes[n] >= 0 && classes[n] < 5) want[(int)classes[n] * 6 + n] = 1;
            ng_graph_t *g = ng_graph_create();
            const ng_axis_t *N = ng_axis(g, "N", 6), *K = ng_axis(g, "K", 5);
            ng_op_t *px = ng_placeholder(g, index_types[i], &N, 1, NULL);
            ng_op_t *oh = ng_one_hot(g, px, K, out_types[o]);
            assert_non_null(oh);
            assert_ptr_equal(ng_op_axis(oh, 0), K);
            ng_tensor_t *tx = ex_tensor(index_types[i], (int64_t[]){6}, 1, classes);
            ex_run_read(g, oh, &px, &tx, 1, out_types[o], got, 30);
            char what[64];
            snprintf(what, sizeof what, "one_hot %s to %s", ng_dtype_name(index_types[i]),
                     ng_dtype_name(out_types[o]));
            ex_assert_close(got, want, 30, 0, what);
            ng_tensor_release(tx);
            ng_graph_destroy(g);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_negative_steps_and_dropped_axes),
        cmocka_unit_test(test_slice_extreme_steps),
        cmocka_unit_test(test_pad),
        cmocka_unit_test(test_broadcast_order_rename_expand),
        cmocka_unit_test(test_cast_axes_changes_alignment),
        cmocka_unit_test(test_flatten_unflatten),
        cmocka_unit_test(test_concat_and_stack),
        cmocka_unit_test(test_one_hot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
