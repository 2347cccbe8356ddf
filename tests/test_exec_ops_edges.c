/* Edge cases of the defined semantics (src/kernels/kernels.hpp) through the transformer,
 * values written by hand: integer divide truncates toward zero with x / 0 = 0 and
 * INT_MIN / -1 = INT_MIN, integer power with negative exponents, integer wrap-around, NaN
 * propagation by maximum/minimum, max/min reductions and argmax, cast saturation and NaN -> 0,
 * bool operands of comparisons, and empty (length 0) tensors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "exec_test_util.h"

/* op(a, b) on two placeholder vectors of n elements of dtype dt; the result read as doubles. */
static void run_binary(ng_op_t *(*build)(ng_graph_t *, ng_op_t *, ng_op_t *), ng_dtype_t dt,
                       const double *a, const double *b, int64_t n, ng_dtype_t out_dt,
                       double *got) {
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *ax = ng_axis(g, "N", n);
    ng_op_t *pa = ng_placeholder(g, dt, &ax, 1, NULL), *pb = ng_placeholder(g, dt, &ax, 1, NULL);
    ng_op_t *r = build(g, pa, pb);
    assert_non_null(r);
    ng_tensor_t *in[2] = {ex_tensor(dt, &n, 1, a), ex_tensor(dt, &n, 1, b)};
    ex_run_read(g, r, (ng_op_t *[]){pa, pb}, in, 2, out_dt, got, n);
    ng_tensor_release(in[0]);
    ng_tensor_release(in[1]);
    ng_graph_destroy(g);
}

static void test_integer_divide_and_power(void **state) {
    (void)state;
    double a[6] = {7, -7, 7, -7, 5, -2147483648.0}, b[6] = {2, 2, -2, -2, 0, -1};
    double want32[6] = {3, -3, -3, 3, 0, -2147483648.0}, got[6];
    run_binary(ng_divide, NG_INT32, a, b, 6, NG_INT32, got);
    ex_assert_close(got, want32, 6, 0, "int32 divide");
    double want64[6] = {3, -3, -3, 3, 0, 1073741824.0 * 2};
    run_binary(ng_divide, NG_INT64, a, b, 6, NG_INT64, got);
    ex_assert_close(got, want64, 6, 0, "int64 divide");
    /* Power: 2^10, 3^0, 1^-5 = 1, (-1)^-3 = -1, (-1)^-2 = 1, 2^-1 = 0 (truncated). */
    double base[6] = {2, 3, 1, -1, -1, 2}, expo[6] = {10, 0, -5, -3, -2, -1},
           wantp[6] = {1024, 1, 1, -1, 1, 0};
    run_binary(ng_power, NG_INT32, base, expo, 6, NG_INT32, got);
    ex_assert_close(got, wantp, 6, 0, "int32 power");
    run_binary(ng_power, NG_INT64, base, expo, 6, NG_INT64, got);
    ex_assert_close(got, wantp, 6, 0, "int64 power");
}

static void test_integer_wraps(void **state) {
    (void)state;
    double a[2] = {2147483647.0, -2147483648.0}, b[2] = {1, 1}, got[2];
    run_binary(ng_add, NG_INT32, a, b, 2, NG_INT32, got);
    ex_assert_close(got, (double[]){-2147483648.0, -2147483647.0}, 2, 0, "int32 add wraps");
    run_binary(ng_subtract, NG_INT32, a, (double[]){-1, 1}, 2, NG_INT32, got);
    ex_assert_close(got, (double[]){-2147483648.0, 2147483647.0}, 2, 0, "int32 subtract wraps");
    run_binary(ng_multiply, NG_INT32, (double[]){65536, 65536}, (double[]){65536, 32768}, 2,
               NG_INT32, got);
    ex_assert_close(got, (double[]){0, -2147483648.0}, 2, 0, "int32 multiply wraps");
}

static void test_nan_propagates(void **state) {
    (void)state;
    double a[3] = {NAN, 1, 2}, b[3] = {0, NAN, 1}, got[3];
    for (int dt = 0; dt < 2; ++dt) {
        ng_dtype_t t = dt ? NG_FLOAT64 : NG_FLOAT32;
        run_binary(ng_maximum, t, a, b, 3, t, got);
        assert_true(isnan(got[0]) && isnan(got[1]) && got[2] == 2);
        run_binary(ng_minimum, t, a, b, 3, t, got);
        assert_true(isnan(got[0]) && isnan(got[1]) && got[2] == 1);
        /* max/min reductions over N of x(C=2, N=5) with one NaN in row 1 only. */
        double x[10] = {1, 5, 3, -2, 4, 1, NAN, 9, -3, 2}, r[2];
        ng_graph_t *g = ng_graph_create();
        const ng_axis_t *C = ng_axis(g, "C", 2), *N = ng_axis(g, "N", 5);
        ng_op_t *px = ng_placeholder(g, t, (const ng_axis_t *[]){C, N}, 2, NULL);
        ng_tensor_t *tx = ex_tensor(t, (int64_t[]){2, 5}, 2, x);
        ex_run_read(g, ng_max(g, px, &N, 1), &px, &tx, 1, t, r, 2);
        assert_true(r[0] == 5 && isnan(r[1]));
        ex_run_read(g, ng_min(g, px, &N, 1), &px, &tx, 1, t, r, 2);
        assert_true(r[0] == -2 && isnan(r[1]));
        /* argmax: NaN counts as the greatest, so row 1 answers its index 1. */
        ex_run_read(g, ng_argmax(g, px, N), &px, &tx, 1, NG_INT64, r, 2);
        assert_true(r[0] == 1 && r[1] == 1);
        ng_tensor_release(tx);
        ng_graph_destroy(g);
    }
}

/* float -> integer saturates and truncates, NaN -> 0; integer -> integer wraps. */
static void test_cast_saturates(void **state) {
    (void)state;
    double x[5] = {1e20, -1e20, NAN, -2.9, 2.9}, got[5];
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *N = ng_axis(g, "N", 5);
    ng_op_t *px = ng_placeholder(g, NG_FLOAT64, &N, 1, NULL);
    ng_tensor_t *tx = ex_tensor(NG_FLOAT64, (int64_t[]){5}, 1, x);
    ex_run_read(g, ng_cast(g, px, NG_INT32), &px, &tx, 1, NG_INT32, got, 5);
    ex_assert_close(got, (double[]){2147483647.0, -2147483648.0, 0, -2, 2}, 5, 0,
                    "float64 to int32");
    ex_run_read(g, ng_cast(g, px, NG_UINT8), &px, &tx, 1, NG_UINT8, got, 5);
    ex_assert_close(got, (double[]){255, 0, 0, 0, 2}, 5, 0, "float64 to uint8");
    ng_tensor_release(tx);
    ng_op_t *pi = ng_placeholder(g, NG_INT64, &N, 1, NULL);
    ng_tensor_t *ti = ex_tensor(NG_INT64, (int64_t[]){5}, 1,
                                (double[]){256, 257, -1, 4294967296.0 + 7, 2147483648.0});
    ex_run_read(g, ng_cast(g, pi, NG_UINT8), &pi, &ti, 1, NG_UINT8, got, 5);
    ex_assert_close(got, (double[]){0, 1, 255, 7, 0}, 5, 0, "int64 to uint8 wraps");
    ex_run_read(g, ng_cast(g, pi, NG_INT32), &pi, &ti, 1, NG_INT32, got, 5);
    ex_assert_close(got, (double[]){256, 257, -1, 7, -2147483648.0}, 5, 0, "int64 to int32 wraps");
    ng_tensor_release(ti);
    ng_graph_destroy(g);
}

/* Bool operands of comparisons (arithmetic on bool is refused by the builders). */
static void test_bool_operands(void **state) {
    (void)state;
    double a[4] = {0, 0, 1, 1}, b[4] = {0, 1, 0, 1}, got[4];
    run_binary(ng_equal, NG_BOOL, a, b, 4, NG_BOOL, got);
    ex_assert_close(got, (double[]){1, 0, 0, 1}, 4, 0, "bool equal");
    run_binary(ng_not_equal, NG_BOOL, a, b, 4, NG_BOOL, got);
    ex_assert_close(got, (double[]){0, 1, 1, 0}, 4, 0, "bool not_equal");
    run_binary(ng_less, NG_BOOL, a, b, 4, NG_BOOL, got);
    ex_assert_close(got, (double[]){0, 1, 0, 0}, 4, 0, "bool less");
}

/* A length-0 axis: elementwise results are empty, sum over it is 0, prod 1, and a run works. */
static void test_empty_tensors(void **state) {
    (void)state;
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *C = ng_axis(g, "C", 3), *E = ng_axis(g, "E", 0);
    ng_op_t *px = ng_placeholder(g, NG_FLOAT32, (const ng_axis_t *[]){C, E}, 2, NULL);
    ng_tensor_t *tx = ng_tensor_create(NG_FLOAT32, (int64_t[]){3, 0}, 2);
    assert_non_null(tx);
    double got[3];
    ex_run_read(g, ng_sum(g, px, &E, 1), &px, &tx, 1, NG_FLOAT32, got, 3);
    ex_assert_close(got, (double[]){0, 0, 0}, 3, 0, "sum over an empty axis");
    ex_run_read(g, ng_prod(g, px, &E, 1), &px, &tx, 1, NG_FLOAT32, got, 3);
    ex_assert_close(got, (double[]){1, 1, 1}, 3, 0, "prod over an empty axis");
    ng_tensor_t *r = ex_run(g, ng_exp(g, px), &px, &tx, 1);
    assert_int_equal(ng_tensor_numel(r), 0);
    ng_tensor_release(r);
    /* An empty graph-level slice of a non-empty tensor. */
    ng_op_t *py = ng_placeholder(g, NG_FLOAT32, &C, 1, NULL);
    ng_slice_t none = {2, 2, 1, 0};
    ng_tensor_t *ty = ex_tensor(NG_FLOAT32, (int64_t[]){3}, 1, (double[]){1, 2, 3});
    ex_run_read(g, ng_sum(g, ng_slice(g, py, &none, 1), NULL, 0), &py, &ty, 1, NG_FLOAT32, got, 1);
    assert_true(got[0] == 0);
    ng_tensor_release(ty);
    ng_tensor_release(tx);
    ng_graph_destroy(g);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_divide_and_power),
        cmocka_unit_test(test_integer_wraps),
        cmocka_unit_test(test_nan_propagates),
        cmocka_unit_test(test_cast_saturates),
        cmocka_unit_test(test_bool_operands),
        cmocka_unit_test(test_empty_tensors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
