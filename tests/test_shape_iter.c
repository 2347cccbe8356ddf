/* Index iteration over shapes: every index once, in row-major order, checked against nested
 * loops over ng_shape_extent(); relative and absolute indices of slices; rank 0 and empty
 * shapes; reset; bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

/* Every index of a shape of rank 1..3 by nested loops over the extents, row-major. */
static int64_t indices_by_loops(const ng_shape_t *s, int64_t out[][3], int64_t cap) {
    int32_t r = ng_shape_rank(s);
    int64_t n = 0, idx[3];
    for (idx[0] = 0; idx[0] < ng_shape_extent(s, NULL, 0); ++idx[0]) {
        if (r == 1) {
            assert_true(n < cap);
            out[n][0] = idx[0];
            ++n;
            continue;
        }
        for (idx[1] = 0; idx[1] < ng_shape_extent(s, idx, 1); ++idx[1]) {
            if (r == 2) {
                assert_true(n < cap);
                memcpy(out[n++], idx, 2 * sizeof(int64_t));
                continue;
            }
            for (idx[2] = 0; idx[2] < ng_shape_extent(s, idx, 2); ++idx[2]) {
                assert_true(n < cap);
                memcpy(out[n++], idx, 3 * sizeof(int64_t));
            }
        }
    }
    return n;
}

static void check_against_loops(const ng_shape_t *s) {
    int64_t expected[64][3];
    int64_t n = indices_by_loops(s, expected, 64);
    assert_int_equal(n, ng_shape_numel(s));
    int32_t r = ng_shape_rank(s);
    ng_shape_iter_t *it = ng_shape_iter_create(s, NG_INDEX_RELATIVE);
    assert_non_null(it);
    assert_int_equal(ng_shape_iter_index_length(it), r);
    for (int pass = 0; pass < 2; ++pass) {
        int64_t index[3] = {-7, -7, -7};
        for (int64_t i = 0; i < n; ++i) {
            assert_int_equal(ng_shape_iter_next(it, index, 3), 1);
            assert_memory_equal(index, expected[i], (size_t)r * sizeof(int64_t));
        }
        assert_int_equal(ng_shape_iter_next(it, index, 3), 0);
        assert_int_equal(ng_shape_iter_next(it, index, 3), 0);
        assert_int_equal(ng_shape_iter_reset(it), NG_OK);
    }
    ng_shape_iter_destroy(it);
}

static void every_index_in_order(void **state) {
    (void)state;
    const int64_t e[] = {2, 3, 2};
    ng_shape_t *smooth = ng_shape_smooth(e, 3);
    check_against_loops(smooth);

    /* Rows 2 0 3 (an empty row in the middle). */
    const int64_t s1[] = {0, 2, 2, 5};
    const int64_t *const a1[] = {s1};
    const int64_t c1[] = {4};
    ng_shape_t *rows = ng_shape_jagged(3, 2, a1, c1, NULL);
    check_against_loops(rows);
    /* Written out by hand as well. */
    const int64_t by_hand[5][2] = {{0, 0}, {0, 1}, {2, 0}, {2, 1}, {2, 2}};
    ng_shape_iter_t *it = ng_shape_iter_create(rows, NG_INDEX_RELATIVE);
    int64_t index[2];
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(ng_shape_iter_next(it, index, 2), 1);
        assert_memory_equal(index, by_hand[i], sizeof index);
    }
    assert_int_equal(ng_shape_iter_next(it, index, 2), 0);
    ng_shape_iter_destroy(it);

    /* Two jagged layers with empty rows at both: (3, [2 0 1], [0 2 1]). */
    const int64_t m1[] = {0, 2, 2, 3}, m2[] = {0, 0, 2, 3};
    const int64_t *const a2[] = {m1, m2};
    const int64_t c2[] = {4, 4};
    ng_shape_t *deep = ng_shape_jagged(3, 3, a2, c2, NULL);
    assert_int_equal(ng_shape_numel(deep), 3);
    check_against_loops(deep);
    const int64_t deep_by_hand[3][3] = {{0, 1, 0}, {0, 1, 1}, {2, 0, 0}};
    it = ng_shape_iter_create(deep, NG_INDEX_RELATIVE);
    int64_t index3[3];
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(ng_shape_iter_next(it, index3, 3), 1);
        assert_memory_equal(index3, deep_by_hand[i], sizeof index3);
    }
    ng_shape_iter_destroy(it);

    /* Jagged rows of smooth rows of 2. */
    const int64_t r1[] = {0, 1, 3, 3};
    const int64_t *const a3[] = {r1, NULL};
    const int64_t c3[] = {4, 0}, x3[] = {0, 2};
    ng_shape_t *blocks = ng_shape_jagged(3, 3, a3, c3, x3);
    check_against_loops(blocks);

    ng_shape_release(blocks);
    ng_shape_release(deep);
    ng_shape_release(rows);
    ng_shape_release(smooth);
}

/* Rows 2 0 3 1; the slice [1, 3) and its row 1 (the root's row 2). */
static void slices_iterate_with_their_origin(void **state) {
    (void)state;
    const int64_t sp[] = {0, 2, 2, 5, 6};
    const int64_t *const all[] = {sp};
    const int64_t counts[] = {5};
    ng_shape_t *s = ng_shape_jagged(4, 2, all, counts, NULL);
    ng_shape_t *mid = ng_shape_slice(s, 1, 3);
    ng_shape_iter_t *abs = ng_shape_iter_create(mid, NG_INDEX_ABSOLUTE);
    ng_shape_iter_t *rel = ng_shape_iter_create(mid, NG_INDEX_RELATIVE);
    ng_shape_release(mid); /* the iterators keep their own reference */
    const int64_t absolute[3][2] = {{2, 0}, {2, 1}, {2, 2}};
    const int64_t relative[3][2] = {{1, 0}, {1, 1}, {1, 2}};
    int64_t index[2];
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(ng_shape_iter_next(abs, index, 2), 1);
        assert_memory_equal(index, absolute[i], sizeof index);
        assert_int_equal(ng_shape_iter_next(rel, index, 2), 1);
        assert_memory_equal(index, relative[i], sizeof index);
    }
    assert_int_equal(ng_shape_iter_next(abs, index, 2), 0);
    ng_shape_iter_destroy(abs);
    ng_shape_iter_destroy(rel);

    const int64_t row[] = {2};
    ng_shape_t *r = ng_shape_at(s, row, 1);
    abs = ng_shape_iter_create(r, NG_INDEX_ABSOLUTE);
    rel = ng_shape_iter_create(r, NG_INDEX_RELATIVE);
    assert_int_equal(ng_shape_iter_index_length(abs), 2);
    assert_int_equal(ng_shape_iter_index_length(rel), 1);
    for (int64_t i = 0; i < 3; ++i) {
        assert_int_equal(ng_shape_iter_next(abs, index, 2), 1);
        assert_int_equal(index[0], 2);
        assert_int_equal(index[1], i);
        assert_int_equal(ng_shape_iter_next(rel, index, 1), 1);
        assert_int_equal(index[0], i);
    }
    ng_shape_iter_destroy(abs);
    ng_shape_iter_destroy(rel);
    ng_shape_release(r);

    /* A rank-0 slice: one step, an empty relative index, the full absolute one. */
    const int64_t point[] = {3, 0};
    ng_shape_t *p = ng_shape_at(s, point, 2);
    rel = ng_shape_iter_create(p, NG_INDEX_RELATIVE);
    assert_int_equal(ng_shape_iter_index_length(rel), 0);
    assert_int_equal(ng_shape_iter_next(rel, NULL, 0), 1);
    assert_int_equal(ng_shape_iter_next(rel, NULL, 0), 0);
    ng_shape_iter_destroy(rel);
    abs = ng_shape_iter_create(p, NG_INDEX_ABSOLUTE);
    assert_int_equal(ng_shape_iter_next(abs, index, 2), 1);
    assert_int_equal(index[0], 3);
    assert_int_equal(index[1], 0);
    ng_shape_iter_destroy(abs);
    ng_shape_release(p);

    /* An empty shape gives nothing. */
    ng_shape_t *none = ng_shape_slice(s, 1, 2);
    rel = ng_shape_iter_create(none, NG_INDEX_RELATIVE);
    assert_int_equal(ng_shape_iter_next(rel, index, 2), 0);
    ng_shape_iter_destroy(rel);
    ng_shape_release(none);
    ng_shape_release(s);
}

static void nested_shapes_iterate_as_flattened(void **state) {
    (void)state;
    const int64_t two[] = {2}, e0[] = {1, 2}, e1[] = {2, 1};
    ng_shape_t *outer = ng_shape_smooth(two, 1);
    ng_shape_t *a = ng_shape_smooth(e0, 2), *b = ng_shape_smooth(e1, 2);
    const ng_shape_t *const elements[] = {a, b};
    ng_shape_t *nested = ng_shape_nested(outer, elements, 2);
    const int64_t expected[4][3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 1, 0}};
    ng_shape_iter_t *it = ng_shape_iter_create(nested, NG_INDEX_ABSOLUTE);
    int64_t index[3];
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(ng_shape_iter_next(it, index, 3), 1);
        assert_memory_equal(index, expected[i], sizeof index);
    }
    assert_int_equal(ng_shape_iter_next(it, index, 3), 0);
    ng_shape_iter_destroy(it);
    ng_shape_release(nested);
    ng_shape_release(a);
    ng_shape_release(b);
    ng_shape_release(outer);
}

static void bad_iteration(void **state) {
    (void)state;
    const int64_t e[] = {2, 2};
    ng_shape_t *s = ng_shape_smooth(e, 2);
    assert_null(ng_shape_iter_create(NULL, NG_INDEX_RELATIVE));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_create", "s is NULL");
    assert_null(ng_shape_iter_create(s, 7));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_create", "index_mode is 7");
    ng_shape_iter_t *it = ng_shape_iter_create(s, NG_INDEX_RELATIVE);
    int64_t index[2];
    assert_int_equal(ng_shape_iter_next(it, index, 1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_next", "cap is 1");
    assert_int_equal(ng_shape_iter_next(it, NULL, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_next", "index is NULL");
    assert_int_equal(ng_shape_iter_next(NULL, index, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_next", "it is NULL");
    static uint64_t not_an_iter[8] = {0x4e474752u};
    assert_int_equal(ng_shape_iter_index_length((ng_shape_iter_t *)not_an_iter), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_index_length",
                 "it is not a live shape iterator handle");
    assert_int_equal(ng_shape_iter_reset(NULL), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_iter_reset", "it is NULL");
    /* The failed steps did not advance it. */
    assert_int_equal(ng_shape_iter_next(it, index, 2), 1);
    assert_int_equal(index[0], 0);
    assert_int_equal(index[1], 0);
    ng_shape_iter_destroy(it);
    ng_shape_iter_destroy(NULL);
    ng_shape_iter_destroy((ng_shape_iter_t *)not_an_iter);
    ng_shape_release(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_index_in_order),
        cmocka_unit_test(slices_iterate_with_their_origin),
        cmocka_unit_test(nested_shapes_iterate_as_flattened),
        cmocka_unit_test(bad_iteration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
