/* Shapes as values: smooth, jagged and nested shapes built through the C API, their queries
 * (rank, element count, extents of slices, layer structure, row splits), equality, flattening,
 * slices with their origins, the combining rule, and bad input at every entry point. Expected
 * values are worked out by hand in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "expect_error.h"
#include "nanograph/nanograph.h"

/* Rows of lengths 2, 0, 3: the example of the docs. */
static ng_shape_t *rows_2_0_3(void) {
    const int64_t splits[] = {0, 2, 2, 5};
    const int64_t *const all[] = {splits};
    const int64_t counts[] = {4};
    ng_shape_t *s = ng_shape_jagged(3, 2, all, counts, NULL);
    assert_non_null(s);
    return s;
}

static void assert_text(const ng_shape_t *s, const char *expected) {
    char text[64];
    assert_int_equal(ng_shape_text(s, text, sizeof text), (int64_t)strlen(expected));
    assert_string_equal(text, expected);
}

static void smooth_shapes(void **state) {
    (void)state;
    const int64_t extents[] = {2, 3, 4};
    ng_shape_t *s = ng_shape_smooth(extents, 3);
    assert_non_null(s);
    expect_no_error();
    assert_int_equal(ng_shape_kind(s), NG_SHAPE_SMOOTH);
    assert_int_equal(ng_shape_rank(s), 3);
    assert_int_equal(ng_shape_numel(s), 24);
    assert_int_equal(ng_shape_smooth_rank(s), 3);
    const int64_t prefix[] = {1, 2};
    assert_int_equal(ng_shape_extent(s, NULL, 0), 2);
    assert_int_equal(ng_shape_extent(s, prefix, 1), 3);
    assert_int_equal(ng_shape_extent(s, prefix, 2), 4);
    assert_int_equal(ng_shape_mode_is_jagged(s, 2), 0);
    /* Mode 2 hangs off mode 1's 6 positions, 4 each. */
    int64_t splits[8] = {0};
    assert_int_equal(ng_shape_row_splits(s, 2, splits, 8), 7);
    const int64_t expected[] = {0, 4, 8, 12, 16, 20, 24};
    assert_memory_equal(splits, expected, sizeof expected);
    assert_int_equal(ng_shape_row_splits(s, 1, NULL, 0), 3);
    assert_text(s, "(2, 3, 4)");

    ng_shape_t *scalar = ng_shape_smooth(NULL, 0);
    assert_int_equal(ng_shape_rank(scalar), 0);
    assert_int_equal(ng_shape_numel(scalar), 1);
    assert_text(scalar, "()");
    ng_shape_t *same = ng_shape_smooth(extents, 3);
    assert_int_equal(ng_shape_equal(s, same), 1);
    assert_int_equal(ng_shape_equal(s, scalar), 0);
    ng_shape_release(same);
    ng_shape_release(scalar);
    ng_shape_release(s);
}

static void jagged_matrix(void **state) {
    (void)state;
    ng_shape_t *s = rows_2_0_3();
    assert_int_equal(ng_shape_kind(s), NG_SHAPE_JAGGED);
    assert_int_equal(ng_shape_rank(s), 2);
    assert_int_equal(ng_shape_numel(s), 5);
    assert_int_equal(ng_shape_smooth_rank(s), 1); /* one layer */
    assert_int_equal(ng_shape_mode_is_jagged(s, 0), 0);
    assert_int_equal(ng_shape_mode_is_jagged(s, 1), 1);
    const int64_t rows[] = {0, 1, 2};
    assert_int_equal(ng_shape_extent(s, &rows[0], 1), 2);
    assert_int_equal(ng_shape_extent(s, &rows[1], 1), 0);
    assert_int_equal(ng_shape_extent(s, &rows[2], 1), 3);
    int64_t splits[4];
    assert_int_equal(ng_shape_row_splits(s, 1, splits, 4), 4);
    const int64_t expected[] = {0, 2, 2, 5};
    assert_memory_equal(splits, expected, sizeof expected);
    /* A short buffer still gets the count, and only what fits. */
    int64_t two[2] = {-1, -1};
    assert_int_equal(ng_shape_row_splits(s, 1, two, 1), 4);
    assert_int_equal(two[0], 0);
    assert_int_equal(two[1], -1);
    assert_text(s, "(3, [2 0 3])");
    ng_shape_release(s);
}

static void rows_of_equal_length_are_smooth(void **state) {
    (void)state;
    const int64_t splits[] = {0, 2, 4};
    const int64_t *const all[] = {splits};
    const int64_t counts[] = {3};
    ng_shape_t *s = ng_shape_jagged(2, 2, all, counts, NULL);
    const int64_t extents[] = {2, 2};
    ng_shape_t *smooth = ng_shape_smooth(extents, 2);
    assert_int_equal(ng_shape_kind(s), NG_SHAPE_SMOOTH);
    assert_int_equal(ng_shape_equal(s, smooth), 1);
    ng_shape_release(smooth);
    ng_shape_release(s);
}

/* Rank 3 with r - s layers: smooth matrices of different extents (2x3 and 1x2: one layer),
 * jagged rows of jagged rows (two layers), and jagged rows of smooth rows of 4 (one layer). */
static void layers_of_rank_3_shapes(void **state) {
    (void)state;
    const int64_t m1[] = {0, 2, 3}, m2[] = {0, 3, 6, 8};
    const int64_t *const matrices[] = {m1, m2};
    const int64_t matrix_counts[] = {3, 4};
    ng_shape_t *a = ng_shape_jagged(2, 3, matrices, matrix_counts, NULL);
    assert_int_equal(ng_shape_kind(a), NG_SHAPE_JAGGED);
    assert_int_equal(ng_shape_numel(a), 2 * 3 + 1 * 2);
    assert_int_equal(ng_shape_smooth_rank(a), 2);
    const int64_t second[] = {1, 0};
    assert_int_equal(ng_shape_extent(a, second, 1), 1);
    assert_int_equal(ng_shape_extent(a, second, 2), 2);
    assert_text(a, "(2, [2 1], [3 3 2])");

    const int64_t r1[] = {0, 2, 3}, r2[] = {0, 1, 3, 3};
    const int64_t *const ragged[] = {r1, r2};
    ng_shape_t *b = ng_shape_jagged(2, 3, ragged, matrix_counts, NULL);
    assert_int_equal(ng_shape_numel(b), 3);
    assert_int_equal(ng_shape_smooth_rank(b), 1);

    const int64_t u1[] = {0, 1, 1, 3};
    const int64_t *const rows[] = {u1, NULL};
    const int64_t row_counts[] = {4, 0};
    const int64_t extents[] = {0, 4};
    ng_shape_t *c = ng_shape_jagged(3, 3, rows, row_counts, extents);
    assert_int_equal(ng_shape_numel(c), 12);
    assert_int_equal(ng_shape_smooth_rank(c), 2);
    assert_int_equal(ng_shape_mode_is_jagged(c, 2), 0);
    int64_t splits[5];
    assert_int_equal(ng_shape_row_splits(c, 2, splits, 5), 4);
    const int64_t expected[] = {0, 4, 8, 12};
    assert_memory_equal(splits, expected, 4 * sizeof(int64_t));
    ng_shape_release(a);
    ng_shape_release(b);
    ng_shape_release(c);
}

/* A vector of two matrices, 2x3 and the jagged (2, [1 2]). */
static void nested_and_flattened(void **state) {
    (void)state;
    const int64_t two[] = {2}, e0[] = {2, 3};
    ng_shape_t *outer = ng_shape_smooth(two, 1);
    ng_shape_t *first = ng_shape_smooth(e0, 2);
    const int64_t sp[] = {0, 1, 3};
    const int64_t *const all[] = {sp};
    const int64_t counts[] = {3};
    ng_shape_t *second = ng_shape_jagged(2, 2, all, counts, NULL);
    const ng_shape_t *const elements[] = {first, second};
    ng_shape_t *nested = ng_shape_nested(outer, elements, 2);
    assert_non_null(nested);
    assert_int_equal(ng_shape_kind(nested), NG_SHAPE_NESTED);
    assert_int_equal(ng_shape_rank(nested), 3);
    assert_int_equal(ng_shape_numel(nested), 9);
    ng_shape_t *o = ng_shape_outer(nested);
    assert_int_equal(ng_shape_equal(o, outer), 1);
    ng_shape_t *e1 = ng_shape_element(nested, 1);
    assert_int_equal(ng_shape_equal(e1, second), 1);

    /* Flattened: mode 1 has 2 rows per matrix (uniform), mode 2 rows 3 3 1 2. */
    ng_shape_t *flat = ng_shape_flatten(nested);
    const int64_t m2[] = {0, 3, 6, 7, 9};
    const int64_t *const spl[] = {NULL, m2};
    const int64_t n2[] = {0, 5};
    const int64_t ext[] = {2, 0};
    ng_shape_t *expected = ng_shape_jagged(2, 3, spl, n2, ext);
    assert_int_equal(ng_shape_equal(flat, expected), 1);
    assert_int_equal(ng_shape_equal(flat, nested), 0); /* the partition of modes differs */
    /* Element 1 has rows of lengths 1 and 2: only rows are smooth. */
    assert_int_equal(ng_shape_smooth_rank(nested), 1);
    const int64_t at[] = {1, 1};
    assert_int_equal(ng_shape_extent(nested, at, 2), 2);

    /* Nested shapes nest further, and flatten all the way. */
    const ng_shape_t *const twice[] = {nested};
    const int64_t one[] = {1};
    ng_shape_t *single = ng_shape_smooth(one, 1);
    ng_shape_t *deep = ng_shape_nested(single, twice, 1);
    assert_int_equal(ng_shape_rank(deep), 4);
    ng_shape_t *deep_flat = ng_shape_flatten(deep);
    assert_int_equal(ng_shape_numel(deep_flat), 9);
    assert_int_equal(ng_shape_kind(deep_flat), NG_SHAPE_JAGGED);
    ng_shape_t *nested_again = ng_shape_element(deep, 0);
    assert_int_equal(ng_shape_equal(nested_again, nested), 1);

    ng_shape_t *shapes[] = {outer, first,    second, nested, o,         e1,
                            flat,  expected, single, deep,   deep_flat, nested_again};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i) ng_shape_release(shapes[i]);
}

/* Rows 2 0 3 1; slices remember where they came from. */
static void slices_and_origins(void **state) {
    (void)state;
    const int64_t splits[] = {0, 2, 2, 5, 6};
    const int64_t *const all[] = {splits};
    const int64_t counts[] = {5};
    ng_shape_t *s = ng_shape_jagged(4, 2, all, counts, NULL);
    ng_shape_t *mid = ng_shape_slice(s, 1, 3); /* rows 0 and 3 */
    assert_non_null(mid);
    assert_text(mid, "(2, [0 3])");
    int64_t origin[2];
    assert_int_equal(ng_shape_origin(mid, origin, 2), 2);
    assert_int_equal(origin[0], 1);
    assert_int_equal(origin[1], 0);
    const int64_t one[] = {1};
    ng_shape_t *row = ng_shape_at(mid, one, 1); /* the root's row 2 */
    assert_int_equal(ng_shape_rank(row), 1);
    assert_int_equal(ng_shape_numel(row), 3);
    assert_int_equal(ng_shape_kind(row), NG_SHAPE_SMOOTH);
    assert_int_equal(ng_shape_origin(row, origin, 2), 2);
    assert_int_equal(origin[0], 2);
    assert_int_equal(origin[1], 0);
    const int64_t element[] = {2, 1};
    ng_shape_t *point = ng_shape_at(s, element, 2);
    assert_int_equal(ng_shape_rank(point), 0);
    assert_int_equal(ng_shape_numel(point), 1);
    assert_int_equal(ng_shape_origin(point, origin, 2), 2);
    assert_int_equal(origin[0], 2);
    assert_int_equal(origin[1], 1);
    ng_shape_t *empty = ng_shape_slice(s, 4, 4);
    assert_int_equal(ng_shape_numel(empty), 0);
    ng_shape_t *whole = ng_shape_at(s, NULL, 0);
    assert_int_equal(ng_shape_equal(whole, s), 1);
    ng_shape_release(whole);
    ng_shape_release(empty);
    ng_shape_release(point);
    ng_shape_release(row);
    ng_shape_release(mid);
    ng_shape_release(s);
}

static void combining_shapes(void **state) {
    (void)state;
    const int64_t e31[] = {3, 1}, e4[] = {4}, e1[] = {1}, e2[] = {2};
    ng_shape_t *a = ng_shape_smooth(e31, 2), *b = ng_shape_smooth(e4, 1);
    ng_shape_t *ab = ng_shape_broadcast(a, b);
    const int64_t e34[] = {3, 4};
    ng_shape_t *want = ng_shape_smooth(e34, 2);
    assert_int_equal(ng_shape_equal(ab, want), 1);

    ng_shape_t *j = rows_2_0_3();
    ng_shape_t *one = ng_shape_smooth(e1, 1);
    ng_shape_t *jo = ng_shape_broadcast(one, j);
    assert_int_equal(ng_shape_equal(jo, j), 1);
    ng_shape_t *ja = ng_shape_broadcast(j, a); /* (3, 1): one value per row */
    assert_int_equal(ng_shape_equal(ja, j), 1);
    ng_shape_t *jj = ng_shape_broadcast(j, j);
    assert_int_equal(ng_shape_equal(jj, j), 1);

    ng_shape_t *two = ng_shape_smooth(e2, 1);
    assert_null(ng_shape_broadcast(j, two)); /* mode 1 is jagged */
    expect_error(NG_ERR_AXES, "ng_shape_broadcast", "mode 1");
    assert_null(ng_shape_broadcast(b, two));
    expect_error(NG_ERR_AXES, "ng_shape_broadcast", "extents 4 and 2");
    const int64_t other[] = {0, 1, 2, 5};
    const int64_t *const all[] = {other};
    const int64_t counts[] = {4};
    ng_shape_t *k = ng_shape_jagged(3, 2, all, counts, NULL);
    assert_null(ng_shape_broadcast(j, k));
    expect_error(NG_ERR_AXES, "ng_shape_broadcast", "(3, [1 1 3])");
    ng_shape_t *shapes[] = {a, b, ab, want, j, one, jo, ja, jj, two, k};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i) ng_shape_release(shapes[i]);
}

static void bad_construction(void **state) {
    (void)state;
    const int64_t negative[] = {2, -1};
    assert_null(ng_shape_smooth(negative, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_smooth", "-1");
    assert_null(ng_shape_smooth(NULL, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_smooth", "extents is NULL");
    assert_null(ng_shape_smooth(negative, -1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_smooth", "negative");
    const int64_t huge[] = {INT64_MAX, 3};
    assert_null(ng_shape_smooth(huge, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_smooth", "overflows");

    const int64_t short_splits[] = {0, 2, 5};
    const int64_t not_zero[] = {1, 2, 2, 5};
    const int64_t decreasing[] = {0, 2, 1, 5};
    const int64_t *const s1[] = {short_splits}, *const s2[] = {not_zero},
                         *const s3[] = {decreasing};
    const int64_t three[] = {3}, four[] = {4};
    assert_null(ng_shape_jagged(3, 2, s1, three, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "3 positions");
    assert_null(ng_shape_jagged(3, 2, s2, four, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "start at 1");
    assert_null(ng_shape_jagged(3, 2, s3, four, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "decrease at entry 2");
    assert_null(ng_shape_jagged(3, 2, s3, NULL, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "num_splits is NULL");
    const int64_t zero[] = {0};
    assert_null(ng_shape_jagged(3, 2, s3, zero, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "num_splits[0] is 0");
    assert_null(ng_shape_jagged(3, 2, NULL, NULL, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "extents is NULL");
    assert_null(ng_shape_jagged(-3, 2, NULL, NULL, three));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "-3");
    assert_null(ng_shape_jagged(3, 0, NULL, NULL, NULL));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "rank is 0");
    const int64_t minus[] = {-2};
    assert_null(ng_shape_jagged(3, 2, NULL, NULL, minus));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_jagged", "negative extent (-2)");
    ng_shape_t *vector = ng_shape_jagged(3, 1, NULL, NULL, NULL);
    assert_int_equal(ng_shape_numel(vector), 3);

    /* Nested: counts, ranks, nested outer shapes, bad handles. */
    const int64_t two[] = {2}, e23[] = {2, 3};
    ng_shape_t *outer = ng_shape_smooth(two, 1);
    ng_shape_t *matrix = ng_shape_smooth(e23, 2);
    const ng_shape_t *const one[] = {matrix};
    assert_null(ng_shape_nested(outer, one, 1));
    expect_error(NG_ERR_AXES, "ng_shape_nested", "2 elements but 1");
    const ng_shape_t *const mixed[] = {matrix, vector};
    assert_null(ng_shape_nested(outer, mixed, 2));
    expect_error(NG_ERR_AXES, "ng_shape_nested", "element 1 has rank 1");
    const ng_shape_t *const holes[] = {matrix, NULL};
    assert_null(ng_shape_nested(outer, holes, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_nested", "elements[1] is NULL");
    assert_null(ng_shape_nested(NULL, one, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_nested", "outer is NULL");
    assert_null(ng_shape_nested(outer, NULL, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_nested", "elements is NULL");
    const ng_shape_t *const pair[] = {matrix, matrix};
    ng_shape_t *nested = ng_shape_nested(outer, pair, 2);
    assert_null(ng_shape_nested(nested, NULL, 0));
    expect_error(NG_ERR_UNSUPPORTED, "ng_shape_nested", "may not itself be nested");
    ng_shape_release(nested);
    ng_shape_release(outer);
    ng_shape_release(matrix);
    ng_shape_release(vector);
}

static void bad_queries(void **state) {
    (void)state;
    ng_shape_t *s = rows_2_0_3();
    static uint64_t not_a_shape[8] = {0x4e474752u};
    const ng_shape_t *fake = (const ng_shape_t *)not_a_shape;
    assert_int_equal(ng_shape_rank(NULL), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_rank", "s is NULL");
    assert_int_equal(ng_shape_numel(fake), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_numel", "not a live shape");
    assert_int_equal(ng_shape_kind(fake), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_kind", "not a live shape");
    assert_int_equal(ng_shape_smooth_rank(NULL), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_smooth_rank", "NULL");
    assert_int_equal(ng_shape_extent(s, NULL, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_extent", "mode is 2");
    assert_int_equal(ng_shape_extent(s, NULL, 1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_extent", "prefix is NULL");
    const int64_t outside[] = {3};
    assert_int_equal(ng_shape_extent(s, outside, 1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_extent", "index 0 is 3");
    assert_int_equal(ng_shape_mode_is_jagged(s, -1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_mode_is_jagged", "mode is -1");
    assert_int_equal(ng_shape_row_splits(s, 0, NULL, 0), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_row_splits", "mode is 0");
    assert_int_equal(ng_shape_row_splits(s, 1, NULL, 3), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_row_splits", "out is NULL");
    int64_t buffer[4];
    assert_int_equal(ng_shape_row_splits(s, 1, buffer, -1), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_row_splits", "cap is negative");
    assert_int_equal(ng_shape_equal(s, NULL), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_equal", "b is NULL");
    assert_null(ng_shape_flatten(fake));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_flatten", "not a live shape");
    assert_null(ng_shape_outer(s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_outer", "not nested");
    assert_null(ng_shape_element(s, 0));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_element", "not nested");
    assert_null(ng_shape_slice(s, 2, 4));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_slice", "[2, 4)");
    assert_null(ng_shape_slice(s, 2, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_slice", "[2, 1)");
    const int64_t row1_col0[] = {1, 0};
    assert_null(ng_shape_at(s, row1_col0, 2));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_at", "index 1 is 0 but mode 1 has extent 0");
    assert_null(ng_shape_at(s, row1_col0, 3));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_at", "3 entries");
    assert_null(ng_shape_at(s, NULL, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_at", "prefix is NULL");
    assert_int_equal(ng_shape_origin(s, NULL, 2), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_origin", "out is NULL");
    assert_int_equal(ng_shape_text(s, NULL, 4), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_text", "out is NULL");
    assert_int_equal(ng_shape_text(s, NULL, 0), 12); /* the length alone */
    char tiny[4];
    assert_int_equal(ng_shape_text(s, tiny, sizeof tiny), 12);
    assert_string_equal(tiny, "(3,");
    assert_null(ng_shape_broadcast(NULL, s));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_broadcast", "a is NULL");

    /* Nested shapes refuse what needs one mode structure. */
    const int64_t one[] = {1};
    ng_shape_t *outer = ng_shape_smooth(one, 1);
    const ng_shape_t *const elements[] = {s};
    ng_shape_t *nested = ng_shape_nested(outer, elements, 1);
    assert_null(ng_shape_slice(nested, 0, 1));
    expect_error(NG_ERR_UNSUPPORTED, "ng_shape_slice", "flatten");
    assert_null(ng_shape_at(nested, NULL, 0));
    expect_error(NG_ERR_UNSUPPORTED, "ng_shape_at", "flatten");
    assert_null(ng_shape_broadcast(nested, s));
    expect_error(NG_ERR_UNSUPPORTED, "ng_shape_broadcast", "flatten");
    assert_int_equal(ng_shape_row_splits(nested, 1, NULL, 0), -1);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_row_splits", "nested");
    assert_null(ng_shape_element(nested, 1));
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_shape_element", "element 1");

    /* Release and retain ignore NULL and foreign handles. */
    ng_shape_retain(NULL);
    ng_shape_release(NULL);
    ng_shape_release((ng_shape_t *)fake);
    ng_shape_retain(s);
    ng_shape_release(s);
    assert_int_equal(ng_shape_rank(s), 2);
    ng_shape_release(nested);
    ng_shape_release(outer);
    ng_shape_release(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(smooth_shapes),
        cmocka_unit_test(jagged_matrix),
        cmocka_unit_test(rows_of_equal_length_are_smooth),
        cmocka_unit_test(layers_of_rank_3_shapes),
        cmocka_unit_test(nested_and_flattened),
        cmocka_unit_test(slices_and_origins),
        cmocka_unit_test(combining_shapes),
        cmocka_unit_test(bad_construction),
        cmocka_unit_test(bad_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
