/* DOT export: the text is parsed back and its nodes and edges (solid data, dashed control,
 * dotted initial values) counted against the graph; buffer and file forms; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "test_graph_util.h"

typedef struct counts {
    int nodes, data_edges, control_edges, init_edges, boxes;
} counts_t;

/* Counts the statements of a DOT text line by line: "  nK [label=...]" is a node, "  nA -> nB ..."
 * an edge, classified by its style. */
static counts_t parse_dot(const char *text) {
    counts_t c = {0, 0, 0, 0, 0};
    assert_true(strncmp(text, "digraph ", 8) == 0);
    assert_string_equal(text + strlen(text) - 2, "}\n");
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        char buf[512];
        size_t len = (size_t)(end - line) < sizeof buf - 1 ? (size_t)(end - line) : sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        int a, b;
        char arrow[3];
        if (sscanf(buf, " n%d %2s n%d", &a, arrow, &b) == 3 && strcmp(arrow, "->") == 0) {
            if (strstr(buf, "style=dashed"))
                c.control_edges++;
            else if (strstr(buf, "style=dotted"))
                c.init_edges++;
            else
                c.data_edges++;
        } else if (sscanf(buf, " n%d [label=", &a) == 1) {
            c.nodes++;
            c.boxes += strstr(buf, "shape=box") != NULL;
        }
    }
    return c;
}

static char *dot_of(ng_graph_t *g, ng_op_t *const *roots, int32_t n) {
    size_t needed = 0;
    assert_int_equal(ng_graph_dot(g, roots, n, NULL, 0, &needed), NG_OK);
    assert_true(needed > 1);
    char *text = malloc(needed);
    size_t again = 0;
    assert_int_equal(ng_graph_dot(g, roots, n, text, needed, &again), NG_OK);
    assert_int_equal(again, needed);
    assert_int_equal(strlen(text) + 1, needed);
    return text;
}

/* A one-layer regression: y = tanh(dot(w, x) + b), c = squared_L2(y - y0). */
static ng_op_t *build_regression_cost(fixture_t *f) {
    const ng_axis_t *Y = ng_axis(f->g, "Y", 4);
    ng_op_t *x = ng_placeholder(f->g, NG_FLOAT32, AXES(f->C, f->W, f->H, f->N), 4, NULL);
    ng_op_t *y0 = ng_placeholder(f->g, NG_FLOAT32, AXES(Y, f->N), 2, NULL);
    ng_op_t *w = ng_variable(f->g, NG_FLOAT32, AXES(f->C, f->W, f->H, Y), 4, NULL);
    ng_op_t *b = ng_variable(f->g, NG_FLOAT32, AXES(Y), 1, ng_scalar(f->g, 0.5));
    ng_op_set_name(x, "x");
    ng_op_set_name(y0, "y0");
    ng_op_set_name(w, "w");
    ng_op_set_name(b, "b");
    ng_op_t *y = ng_tanh(f->g, ng_add(f->g, ng_dot(f->g, w, x), b));
    ng_op_t *c = ng_squared_l2(f->g, ng_subtract(f->g, y, y0), NULL, 0);
    ng_op_set_name(y, "y");
    ng_op_set_name(c, "cost");
    return c;
}

static void whole_graph_has_every_op_and_edge(void **state) {
    fixture_t *f = *state;
    ng_op_t *cost = build_regression_cost(f);
    assert_int_equal(ng_graph_status(f->g), NG_OK);
    /* Ops: x y0 w b 0.5 Dot Add Tanh Subtract Square Sum = 11. Data edges: Dot 2, Add 2, Tanh 1,
     * Subtract 2, Square 1, Sum 1 = 9. One initial value (b). */
    char *text = dot_of(f->g, NULL, 0);
    counts_t c = parse_dot(text);
    assert_int_equal(c.nodes, 11);
    assert_int_equal(c.nodes, ng_graph_num_ops(f->g));
    assert_int_equal(c.data_edges, 9);
    assert_int_equal(c.control_edges, 0);
    assert_int_equal(c.init_edges, 1);
    assert_int_equal(c.boxes, 5); /* x, y0, w, b and the constant */
    /* Labels carry name, type, dtype and axes, then the attributes the op's kind declares. */
    assert_non_null(strstr(text, "label=\"w\\nVariable\\nfloat32 (C(4), W(3), H(2), Y(4))\""));
    assert_non_null(strstr(text, "label=\"cost\\nSum\\nfloat32 ()\\naxes=(Y(4), N(5))\""));
    assert_non_null(
        strstr(text, "label=\"Dot\\nDot\\nfloat32 (Y(4), N(5))\\naxes=(C(4), W(3), H(2))\""));
    assert_non_null(strstr(text, "label=\"x\\nPlaceholder\\nfloat32 (C(4), W(3), H(2), N(5))\""));
    free(text);
    /* The regression's graph, for docs/graph_example.svg (dot -Tsvg graph_example.dot). */
    assert_int_equal(ng_graph_write_dot(f->g, &cost, 1, "graph_example.dot"), NG_OK);

    /* A control dependency appears dashed. */
    ng_op_t *extra = ng_exp(f->g, ng_graph_find(f->g, "x"));
    assert_int_equal(ng_op_add_control_dep(cost, extra), NG_OK);
    text = dot_of(f->g, NULL, 0);
    c = parse_dot(text);
    assert_int_equal(c.nodes, 12);
    assert_int_equal(c.data_edges, 10);
    assert_int_equal(c.control_edges, 1);
    free(text);
}

static void roots_limit_the_output_to_what_they_need(void **state) {
    fixture_t *f = *state;
    build_regression_cost(f);
    ng_op_t *y = ng_graph_find(f->g, "y");
    char *text = dot_of(f->g, &y, 1);
    counts_t c = parse_dot(text);
    /* y needs x w b 0.5 Dot Add Tanh = 7 ops, 5 data edges and b's initial value. */
    assert_int_equal(c.nodes, 7);
    assert_int_equal(c.data_edges, 5);
    assert_int_equal(c.init_edges, 1);
    assert_null(strstr(text, "y0"));
    free(text);
    ng_op_t *two[2] = {ng_graph_find(f->g, "w"), ng_graph_find(f->g, "y0")};
    text = dot_of(f->g, two, 2);
    c = parse_dot(text);
    assert_int_equal(c.nodes, 2);
    assert_int_equal(c.data_edges + c.init_edges + c.control_edges, 0);
    free(text);
}

static void names_are_escaped(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C);
    assert_int_equal(ng_op_set_name(x, "say \"hi\"\\"), NG_OK);
    char *text = dot_of(f->g, NULL, 0);
    assert_non_null(strstr(text, "label=\"say \\\"hi\\\"\\\\\\nPlaceholder"));
    free(text);
}

static void buffer_is_filled_snprintf_style(void **state) {
    fixture_t *f = *state;
    build_regression_cost(f);
    char *full = dot_of(f->g, NULL, 0);
    char small[16];
    size_t needed = 0;
    assert_int_equal(ng_graph_dot(f->g, NULL, 0, small, sizeof small, &needed), NG_OK);
    assert_int_equal(needed, strlen(full) + 1);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    assert_int_equal(ng_graph_dot(f->g, NULL, 0, small, sizeof small, NULL), NG_OK);
    free(full);
}

static void file_form_writes_the_same_text(void **state) {
    fixture_t *f = *state;
    build_regression_cost(f);
    char *text = dot_of(f->g, NULL, 0);
    assert_int_equal(ng_graph_write_dot(f->g, NULL, 0, "test_dot_export.dot"), NG_OK);
    FILE *in = fopen("test_dot_export.dot", "r");
    assert_non_null(in);
    char *read = calloc(strlen(text) + 16, 1);
    size_t got = fread(read, 1, strlen(text) + 15, in);
    fclose(in);
    assert_int_equal(got, strlen(text));
    assert_string_equal(read, text);
    free(read);
    free(text);
    remove("test_dot_export.dot");
}

static void bad_input(void **state) {
    fixture_t *f = *state;
    ng_op_t *x = P(f, f->C);
    char buf[64];
    size_t needed = 99;
    assert_int_equal(ng_graph_dot(NULL, NULL, 0, buf, sizeof buf, &needed),
                     NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_dot", "g is NULL", NULL);
    assert_int_equal(needed, 0);
    assert_int_equal(ng_graph_dot(f->g, NULL, 1, buf, sizeof buf, &needed),
                     NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_dot", "roots is NULL", NULL);
    assert_int_equal(ng_graph_dot(f->g, &x, -1, buf, sizeof buf, &needed), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_dot", "negative", NULL);
    assert_int_equal(ng_graph_dot(f->g, NULL, 0, NULL, 8, &needed), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_dot", "buf is NULL", NULL);
    ng_graph_t *other = ng_graph_create();
    ng_op_t *y = ng_scalar(other, 1);
    assert_int_equal(ng_graph_dot(f->g, &y, 1, buf, sizeof buf, &needed), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_dot", "roots[0]", "another graph");
    ng_graph_destroy(other);
    assert_int_equal(ng_graph_write_dot(f->g, NULL, 0, "/nonexistent-dir/graph.dot"), NG_ERR_IO);
    check_failure(NG_ERR_IO, "ng_graph_write_dot", "/nonexistent-dir/graph.dot", NULL);
    assert_int_equal(ng_graph_write_dot(f->g, NULL, 0, NULL), NG_ERR_INVALID_ARGUMENT);
    check_failure(NG_ERR_INVALID_ARGUMENT, "ng_graph_write_dot", "path is NULL", NULL);
    assert_int_equal(ng_graph_write_dot(NULL, NULL, 0, "x.dot"), NG_ERR_INVALID_ARGUMENT);
}

#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(whole_graph_has_every_op_and_edge),
        T(roots_limit_the_output_to_what_they_need),
        T(names_are_escaped),
        T(buffer_is_filled_snprintf_style),
        T(file_form_writes_the_same_text),
        T(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
