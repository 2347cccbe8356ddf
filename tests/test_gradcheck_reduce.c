/* Gradient checks of reductions over subsets of axes, dot in every axes pattern, softmax,
 * log-softmax, the cross entropies and the norms (method: tests/test_gradcheck_harness.h). */
#include "test_gradcheck_harness.h"

typedef ng_op_t *(*reduce_fn)(ng_graph_t *, ng_op_t *, const ng_axis_t *const *, int32_t);

/* f over x (A, B, C) reducing `n` of its axes given by index (n == 0: all). */
static void check_reduce(reduce_fn f, const int *which, int n, double low, double high,
                         uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    const ng_axis_t *axes[3] = {ng_axis(c.g, "A", 2), ng_axis(c.g, "B", 3), ng_axis(c.g, "C", 2)};
    ng_op_t *x = gc_input(&c, axes, 3, low, high);
    const ng_axis_t *reduced[3];
    for (int i = 0; i < n; ++i) reduced[i] = axes[which[i]];
    gc_check(&c, f(c.g, x, reduced, n));
    gc_end(&c);
}

/* Every reduction over: everything, one leading axis, the middle axis, two axes given out of order.
 */
static void check_reduce_subsets(reduce_fn f, double low, double high, uint64_t seed) {
    const int middle[1] = {1}, first[1] = {0}, two[2] = {2, 0};
    check_reduce(f, NULL, 0, low, high, seed);
    check_reduce(f, first, 1, low, high, seed + 1);
    check_reduce(f, middle, 1, low, high, seed + 2);
    check_reduce(f, two, 2, low, high, seed + 3);
}

static void test_sum(void **state) {
    (void)state;
    check_reduce_subsets(ng_sum, -2, 2, 100);
}
static void test_mean(void **state) {
    (void)state;
    check_reduce_subsets(ng_mean, -2, 2, 110);
}
/* Random doubles have no ties, so max and min are differentiable at the test points. */
static void test_max(void **state) {
    (void)state;
    check_reduce_subsets(ng_max, -2, 2, 120);
}
static void test_min(void **state) {
    (void)state;
    check_reduce_subsets(ng_min, -2, 2, 130);
}
static void test_prod(void **state) {
    (void)state;
    check_reduce_subsets(ng_prod, 0.5, 1.5, 140);
}
static void test_prod_negative(void **state) {
    (void)state;
    check_reduce_subsets(ng_prod, -1.5, -0.5, 150);
}
static void test_squared_l2(void **state) {
    (void)state;
    check_reduce_subsets(ng_squared_l2, -2, 2, 160);
}
static void test_l2_norm(void **state) {
    (void)state;
    check_reduce_subsets(ng_l2_norm, -2, 2, 170);
}
static void test_l1_norm(void **state) {
    (void)state;
    check_reduce_subsets(ng_l1_norm, 0.1, 2, 180);
}
static void test_variance(void **state) {
    (void)state;
    check_reduce_subsets(ng_variance, -2, 2, 190);
}

/* A product with one zero in its group: the derivative there is the product of the others
 * (y / x would divide by zero); with two zeros every derivative of the group is 0. */
static void test_prod_with_zeros(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 200);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "G", 2), ng_axis(c.g, "K", 3)};
    ng_op_t *x = gc_input(&c, axes, 2, 0.5, 1.5);
    gc_set(&c, 0, 1, 0.0); /* group 0: one zero */
    gc_set(&c, 0, 3, 0.0); /* group 1: two zeros */
    gc_set(&c, 0, 5, 0.0);
    gc_check(&c, ng_prod(c.g, x, &axes[1], 1));
    gc_end(&c);
}

/* dot(a, b) for a given split of axes between a, b and both. */
static void check_dot(const char *a_names, const char *b_names, uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    const ng_axis_t *a_axes[4], *b_axes[4];
    int na = 0, nb = 0;
    for (const char *p = a_names; *p; ++p)
        a_axes[na++] = ng_axis(c.g, (char[2]){*p, 0}, 2 + (*p - 'A') % 3);
    for (const char *p = b_names; *p; ++p)
        b_axes[nb++] = ng_axis(c.g, (char[2]){*p, 0}, 2 + (*p - 'A') % 3);
    ng_op_t *a = gc_input(&c, a_axes, na, -1, 1);
    ng_op_t *b = gc_input(&c, b_axes, nb, -1, 1);
    gc_check(&c, ng_dot(c.g, a, b));
    gc_end(&c);
}

static void test_dot_patterns(void **state) {
    (void)state;
    check_dot("K", "K", 300);     /* inner product */
    check_dot("MK", "KN", 301);   /* matrix product */
    check_dot("KM", "KN", 302);   /* a transposed */
    check_dot("MK", "NK", 303);   /* b transposed */
    check_dot("KM", "NK", 304);   /* both transposed */
    check_dot("MK", "K", 305);    /* matrix-vector */
    check_dot("K", "KN", 306);    /* vector-matrix */
    check_dot("M", "N", 307);     /* outer product: nothing shared */
    check_dot("MKL", "LNK", 308); /* two contracted axes in different orders */
    check_dot("BMK", "KN", 309);  /* extra free axes on one side */
}

/* dot(a, a): the same operand on both sides. */
static void test_dot_self(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 310);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "M", 2), ng_axis(c.g, "K", 3)};
    ng_op_t *a = gc_input(&c, axes, 2, -1, 1);
    gc_check(&c, ng_dot(c.g, a, a));
    gc_end(&c);
}

static void check_softmax(int log, int all_axes, uint64_t seed) {
    gradcheck_t c;
    gc_begin(&c, seed);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "C", 4), ng_axis(c.g, "N", 3)};
    ng_op_t *x = gc_input(&c, axes, 2, -3, 3);
    int32_t n = all_axes ? 0 : 1;
    gc_check(&c, log ? ng_log_softmax(c.g, x, axes, n) : ng_softmax(c.g, x, axes, n));
    gc_end(&c);
}

static void test_softmax(void **state) {
    (void)state;
    check_softmax(0, 0, 400);
    check_softmax(0, 1, 401);
}
static void test_log_softmax(void **state) {
    (void)state;
    check_softmax(1, 0, 402);
    check_softmax(1, 1, 403);
}

/* cross_entropy_multi(softmax(x), t) is rewritten through log-softmax; check x's and t's gradients.
 */
static void test_cross_entropy_multi(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 404);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "C", 4), ng_axis(c.g, "N", 3)};
    ng_op_t *x = gc_input(&c, axes, 2, -3, 3);
    ng_op_t *t = gc_input(&c, axes, 2, 0, 1);
    gc_check(&c, ng_cross_entropy_multi(c.g, ng_softmax(c.g, x, axes, 1), t, axes, 1));
    gc_end(&c);
}

/* cross_entropy_multi of a plain probability tensor (no softmax to rewrite): -sum t log y. */
static void test_cross_entropy_multi_plain(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 405);
    const ng_axis_t *axes[2] = {ng_axis(c.g, "C", 4), ng_axis(c.g, "N", 3)};
    ng_op_t *y = gc_input(&c, axes, 2, 0.1, 0.9);
    ng_op_t *t = gc_input(&c, axes, 2, 0, 1);
    gc_check(&c, ng_cross_entropy_multi(c.g, y, t, axes, 1));
    gc_end(&c);
}

static void test_cross_entropy_binary(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 406);
    const ng_axis_t *n = ng_axis(c.g, "N", 5);
    ng_op_t *x = gc_input(&c, &n, 1, -3, 3);
    ng_op_t *t = gc_input(&c, &n, 1, 0, 1);
    gc_check(&c, ng_cross_entropy_binary(c.g, ng_sigmoid(c.g, x), t, &n, 1));
    ng_op_t *p = gc_input(&c, &n, 1, 0.1, 0.9);
    gc_check(&c, ng_cross_entropy_binary(c.g, p, t, NULL, 0));
    gc_end(&c);
}

/* A two-layer network's loss: mean over N of softmax cross-entropy of dot-relu-dot logits. */
static void test_mlp_loss(void **state) {
    (void)state;
    gradcheck_t c;
    gc_begin(&c, 407);
    const ng_axis_t *N = ng_axis(c.g, "N", 3), *F = ng_axis(c.g, "F", 4), *H = ng_axis(c.g, "H", 3),
                    *C = ng_axis(c.g, "C", 3);
    const ng_axis_t *x_axes[2] = {N, F}, *w1_axes[2] = {F, H}, *w2_axes[2] = {H, C},
                    *t_axes[2] = {N, C};
    ng_op_t *x =
        ng_constant(c.g, NG_FLOAT64, x_axes, 2,
                    (double[]){0.1, -0.4, 0.7, 0.2, -0.3, 0.5, 0.9, -0.8, 0.6, 0.3, -0.2, 0.4});
    ng_op_t *t = ng_constant(c.g, NG_FLOAT64, t_axes, 2, (double[]){1, 0, 0, 0, 0, 1, 0, 1, 0});
    ng_op_t *w1 = gc_input(&c, w1_axes, 2, -1, 1);
    ng_op_t *b1 = gc_input(&c, &H, 1, 0.2, 0.5);
    ng_op_t *w2 = gc_input(&c, w2_axes, 2, -1, 1);
    ng_op_t *h = ng_tanh(c.g, ng_add(c.g, ng_dot(c.g, x, w1), b1));
    ng_op_t *logits = ng_dot(c.g, h, w2);
    ng_op_t *loss = ng_mean(
        c.g, ng_cross_entropy_multi(c.g, ng_softmax(c.g, logits, &C, 1), t, &C, 1), NULL, 0);
    gc_check(&c, loss);
    gc_end(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sum),
        cmocka_unit_test(test_mean),
        cmocka_unit_test(test_max),
        cmocka_unit_test(test_min),
        cmocka_unit_test(test_prod),
        cmocka_unit_test(test_prod_negative),
        cmocka_unit_test(test_prod_with_zeros),
        cmocka_unit_test(test_squared_l2),
        cmocka_unit_test(test_l2_norm),
        cmocka_unit_test(test_l1_norm),
        cmocka_unit_test(test_variance),
        cmocka_unit_test(test_dot_patterns),
        cmocka_unit_test(test_dot_self),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_log_softmax),
        cmocka_unit_test(test_cross_entropy_multi),
        cmocka_unit_test(test_cross_entropy_multi_plain),
        cmocka_unit_test(test_cross_entropy_binary),
        cmocka_unit_test(test_mlp_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
