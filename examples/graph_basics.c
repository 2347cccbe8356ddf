/* The smallest whole graph program: build sum((x - y)^2) and its derivative, compile both into
 * one computation, run it. The README shows this program. */
#include <nanograph/nanograph.h>
#include <stdio.h>

int main(void) {
    ng_graph_t *g = ng_graph_create();
    const ng_axis_t *N = ng_axis(g, "N", 4);
    ng_op_t *x = ng_placeholder(g, NG_FLOAT32, &N, 1, NULL);
    ng_op_t *y = ng_placeholder(g, NG_FLOAT32, &N, 1, NULL);
    /* sum((x - y)^2): compiled into one fused kernel that never stores x - y. */
    ng_op_t *cost = ng_squared_l2(g, ng_subtract(g, x, y), NULL, 0);
    ng_op_t *grad = ng_deriv(g, cost, x); /* 2 (x - y), axes (N) */
    if (ng_graph_status(g) != NG_OK) {    /* one check for the whole graph */
        fprintf(stderr, "%s\n", ng_graph_error(g));
        return 1;
    }

    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_op_t *results[2] = {cost, grad}, *params[2] = {x, y};
    ng_computation_t *c = ng_computation_create(t, results, 2, params, 2);
    const int64_t shape[1] = {4};
    ng_tensor_t *in[2] = {ng_tensor_from_data(NG_FLOAT32, shape, 1, (float[]){1, 2, 3, 4}),
                          ng_tensor_from_data(NG_FLOAT32, shape, 1, (float[]){0, 2, 2, 2})};
    ng_tensor_t *out[2] = {NULL, NULL}; /* NULL slots receive new tensors */
    if (c == NULL || ng_computation_run(c, in, 2, out, 2) != NG_OK) {
        fprintf(stderr, "%s\n", ng_last_error());
        return 1;
    }
    float value, dx[4];
    ng_tensor_read(out[0], &value, sizeof value);
    ng_tensor_read(out[1], dx, sizeof dx);
    printf("cost %g, d cost / dx = %g %g %g %g\n", value, dx[0], dx[1], dx[2], dx[3]);

    for (int i = 0; i < 2; ++i) {
        ng_tensor_release(in[i]);
        ng_tensor_release(out[i]);
    }
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(g);
    return 0;
}
