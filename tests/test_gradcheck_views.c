/* Gradient checks of views and data movement: broadcast, axes_with_order, cast_axes,
 * expand_dims, slices (steps, reversed, indices, overlapping), pad, flatten/unflatten, concat
 * and stack (method: tests/test_gradcheck_harness.h). */
#include "test_gradcheck_harness.h"

typedef struct setup {
    gradcheck_t c;
    const ng_axis_t *A, *B, *C;
    ng_op_t *x; /* (A 4, B 3, C 5) */
} setup_t;

static void begin(setup_t *s, uint64_t seed) {
    gc_begin(&s->c, seed);
    s->A = ng_axis(s->c.g, "A", 4);
    s->B = ng_axis(s->c.g, "B", 3);
    s->C = ng_axis(s->c.g, "C", 5);
    const ng_axis_t *axes[3] = {s->A, s->B, s->C};
    s->x = gc_input(&s->c, axes, 3, -1, 1);
}

static ng_slice_t range(int64_t start, int64_t stop, int64_t step) {
    return (ng_slice_t){start, stop, step, 0};
}
static ng_slice_t index_at(int64_t i) {
    return (ng_slice_t){i, i + 1, 1, 1};
}

/* sin() in front of each view so that the gradient reaching the view is not all ones. */
static ng_op_t *wiggle(setup_t *s, ng_op_t *y) {
    return ng_sin(s->c.g, y);
}

static void test_broadcast(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 500);
    const ng_axis_t *D = ng_axis(s.c.g, "D", 2);
    const ng_axis_t *target[4] = {s.C, D, s.A, s.B};
    gc_check(&s.c, wiggle(&s, ng_broadcast(s.c.g, s.x, target, 4)));
    gc_end(&s.c);
}

static void test_axes_with_order(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 501);
    const ng_axis_t *order[3] = {s.C, s.A, s.B};
    gc_check(&s.c, wiggle(&s, ng_axes_with_order(s.c.g, s.x, order, 3)));
    gc_end(&s.c);
}

/* Renamed axes then aligned with an op of the new names: the gradient comes back to x's names. */
static void test_cast_axes(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 502);
    const ng_axis_t *renamed[3] = {ng_axis(s.c.g, "P", 4), ng_axis(s.c.g, "Q", 3),
                                   ng_axis(s.c.g, "R", 5)};
    ng_op_t *q = gc_input(&s.c, &renamed[1], 1, -1, 1);
    gc_check(&s.c, ng_multiply(s.c.g, wiggle(&s, ng_cast_axes(s.c.g, s.x, renamed, 3)), q));
    gc_end(&s.c);
}

static void test_expand_dims(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 503);
    gc_check(&s.c, wiggle(&s, ng_expand_dims(s.c.g, s.x, ng_axis(s.c.g, "D", 3), 1)));
    gc_end(&s.c);
}

static void check_slice(const ng_slice_t *specs, uint64_t seed) {
    setup_t s;
    begin(&s, seed);
    gc_check(&s.c, wiggle(&s, ng_slice(s.c.g, s.x, specs, 3)));
    gc_end(&s.c);
}

static void test_slice_ranges(void **state) {
    (void)state;
    ng_slice_t contiguous[3] = {range(1, 3, 1), range(0, 3, 1), range(2, 5, 1)};
    check_slice(contiguous, 510);
    ng_slice_t strided[3] = {range(0, 4, 2), range(0, 3, 1), range(1, 5, 3)};
    check_slice(strided, 511);
    ng_slice_t reversed[3] = {range(3, -1, -1), range(2, 0, -1), range(4, -1, -2)};
    check_slice(reversed, 512);
    ng_slice_t indices[3] = {index_at(2), range(0, 3, 2), index_at(4)};
    check_slice(indices, 513);
    ng_slice_t single[3] = {range(3, 4, 1), range(1, 2, 5), range(4, 3, -2)};
    check_slice(single, 514);
    /* Steps at the ends of int64 select one element; neither step nor stride * step may be
     * computed in a way that overflows. */
    ng_slice_t extreme[3] = {range(3, -1, INT64_MIN), range(0, 3, INT64_MAX),
                             range(4, 0, INT64_MIN + 1)};
    check_slice(extreme, 516);
}

/* Overlapping slices of one tensor, combined: the overlap's gradient accumulates. */
static void test_overlapping_slices(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 515);
    ng_slice_t first[3] = {range(0, 3, 1), range(0, 3, 1), range(0, 5, 1)};
    ng_slice_t second[3] = {range(1, 4, 1), range(0, 3, 1), range(4, -1, -1)};
    ng_op_t *a = ng_slice(s.c.g, s.x, first, 3);
    ng_op_t *b = ng_cast_axes(s.c.g, ng_slice(s.c.g, s.x, second, 3),
                              (const ng_axis_t *[]){ng_op_axis(a, 0), s.B, s.C}, 3);
    gc_check(&s.c, ng_multiply(s.c.g, wiggle(&s, a), b));
    gc_end(&s.c);
}

static void test_pad(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 520);
    const int64_t before[3] = {1, 0, 2}, after[3] = {2, 0, 1};
    gc_check(&s.c, wiggle(&s, ng_pad(s.c.g, s.x, before, after, 3)));
    gc_end(&s.c);
}

static void test_flatten_unflatten(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 530);
    const ng_axis_t *merge[2] = {s.B, s.C};
    ng_op_t *flat = ng_flatten(s.c.g, s.x, merge, 2, "BC");
    gc_check(&s.c, wiggle(&s, flat));
    gc_check(&s.c, wiggle(&s, ng_unflatten(s.c.g, wiggle(&s, flat))));
    gc_end(&s.c);
}

/* A flatten of an operand that already has a flattened axis: only the new merge is undone. */
static void test_nested_flatten(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 531);
    const ng_axis_t *first[2] = {s.A, s.B};
    ng_op_t *ab = ng_flatten(s.c.g, wiggle(&s, s.x), first, 2, "AB");
    const ng_axis_t *second[2] = {ng_op_axis(ab, 0), s.C};
    gc_check(&s.c, wiggle(&s, ng_flatten(s.c.g, ab, second, 2, "ABC")));
    gc_end(&s.c);
}

/* A flatten that keeps another flattened axis of its operand: the adjoint restores both. */
static void test_flatten_beside_flattened(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 532);
    const ng_axis_t *first[2] = {s.A, s.B};
    ng_op_t *ab = ng_flatten(s.c.g, s.x, first, 2, "AB");
    const ng_axis_t *D = ng_axis(s.c.g, "D", 2);
    const ng_axis_t *target[3] = {ng_op_axis(ab, 0), s.C, D};
    ng_op_t *wide = wiggle(&s, ng_broadcast(s.c.g, ab, target, 3));
    const ng_axis_t *second[2] = {s.C, D};
    gc_check(&s.c, wiggle(&s, ng_flatten(s.c.g, wide, second, 2, "CD")));
    gc_end(&s.c);
}

static void test_concat(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 540);
    const ng_axis_t *other[3] = {s.C, s.B,
                                 ng_axis(s.c.g, "A", 2)}; /* another order, A of length 2 */
    ng_op_t *y = gc_input(&s.c, other, 3, -1, 1);
    ng_op_t *parts[3] = {s.x, y, s.x};
    gc_check(&s.c, wiggle(&s, ng_concat(s.c.g, parts, 3, "A")));
    gc_end(&s.c);
}

static void test_stack(void **state) {
    (void)state;
    setup_t s;
    begin(&s, 541);
    const ng_axis_t *axes[3] = {s.A, s.B, s.C};
    ng_op_t *y = gc_input(&s.c, axes, 3, -1, 1);
    ng_op_t *parts[2] = {s.x, ng_square(s.c.g, y)};
    gc_check(&s.c, wiggle(&s, ng_stack(s.c.g, parts, 2, ng_axis(s.c.g, "S", 2), 1)));
    gc_end(&s.c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_axes_with_order),
        cmocka_unit_test(test_cast_axes),
        cmocka_unit_test(test_expand_dims),
        cmocka_unit_test(test_slice_ranges),
        cmocka_unit_test(test_overlapping_slices),
        cmocka_unit_test(test_pad),
        cmocka_unit_test(test_flatten_unflatten),
        cmocka_unit_test(test_nested_flatten),
        cmocka_unit_test(test_flatten_beside_flattened),
        cmocka_unit_test(test_concat),
        cmocka_unit_test(test_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
