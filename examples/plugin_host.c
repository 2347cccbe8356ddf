/* A host that loads nanograph at run time, as a plugin system or a language binding does. It is
 * not linked with the library: it needs dlopen() and one symbol, ng_get_api, and reaches every
 * other function through the table that returns. The headers give it the types only.
 *
 * It builds y = sum over C of (x * w) + 1 for x of axes (N, C), runs it, prints what the
 * computation takes and returns (asked of the computation itself), and unloads the library.
 *
 * usage: plugin_host [PATH_TO_LIBNANOGRAPH]   (default: libnanograph.so.0, found by the loader) */
#include <dlfcn.h>
#include <stdio.h>

#include "nanograph/nanograph.h"

typedef const ng_api_t *(*get_api_fn)(uint32_t version);

/* Prints the last error of the calling thread and returns 1, for `return fail(api, "what")`. */
static int fail(const ng_api_t *api, const char *what) {
    fprintf(stderr, "plugin_host: %s failed: %s\n", what, api->last_error());
    return 1;
}

static void describe(const ng_api_t *api, const ng_computation_t *c) {
    for (int32_t i = 0; i < api->computation_num_params(c); ++i) {
        printf("parameter %d: %s %s (", i, api->computation_param_name(c, i),
               api->dtype_name(api->computation_param_dtype(c, i)));
        for (int32_t a = 0; a < api->computation_param_rank(c, i); ++a)
            printf("%s%s=%lld", a ? ", " : "", api->computation_param_axis_name(c, i, a),
                   (long long)api->computation_param_axis_length(c, i, a));
        printf(")\n");
    }
    for (int32_t i = 0; i < api->computation_num_results(c); ++i) {
        printf("result %d: %s %s (", i, api->computation_result_name(c, i),
               api->dtype_name(api->computation_result_dtype(c, i)));
        for (int32_t a = 0; a < api->computation_result_rank(c, i); ++a)
            printf("%s%s=%lld", a ? ", " : "", api->computation_result_axis_name(c, i, a),
                   (long long)api->computation_result_axis_length(c, i, a));
        printf(")\n");
    }
}

/* Everything the host does with the library, given its table. Returns the exit status. */
static int run(const ng_api_t *api) {
    printf("nanograph %s\n", api->version_string());
    ng_graph_t *g = api->graph_create();
    if (!g) return fail(api, "graph_create");
    const ng_axis_t *axes[2] = {api->axis(g, "N", 2), api->axis(g, "C", 3)};
    ng_op_t *x = api->placeholder(g, NG_FLOAT32, axes, 2, NULL);
    ng_op_t *w = api->placeholder(g, NG_FLOAT32, &axes[1], 1, NULL);
    api->op_set_name(x, "x");
    api->op_set_name(w, "w");
    ng_op_t *y = api->add(g, api->sum(g, api->multiply(g, x, w), &axes[1], 1),
                          api->scalar_of(g, NG_FLOAT32, 1.0));
    api->op_set_name(y, "y");
    /* Builders propagate errors: one check after building the whole graph is enough. */
    if (api->graph_status(g) != NG_OK) {
        fprintf(stderr, "plugin_host: building the graph failed: %s\n", api->graph_error(g));
        api->graph_destroy(g);
        return 1;
    }

    ng_transformer_t *t = api->transformer_create(NULL);
    ng_op_t *params[2] = {x, w};
    ng_computation_t *c = t ? api->computation_create(t, &y, 1, params, 2) : NULL;
    /* The computation keeps what it needs: the graph and the transformer handle can go. */
    api->graph_destroy(g);
    api->transformer_destroy(t);
    if (!c) return fail(api, "computation_create");
    describe(api, c);

    const float xs[6] = {1, 2, 3, 4, 5, 6}, ws[3] = {1, 0, -1};
    const int64_t x_shape[2] = {2, 3}, w_shape[1] = {3};
    ng_tensor_t *inputs[2] = {api->tensor_from_data(NG_FLOAT32, x_shape, 2, xs),
                              api->tensor_from_data(NG_FLOAT32, w_shape, 1, ws)};
    ng_tensor_t *outputs[1] = {NULL};
    int status = 0;
    float ys[2];
    if (!inputs[0] || !inputs[1] || api->computation_run(c, inputs, 2, outputs, 1) != NG_OK ||
        api->tensor_read(outputs[0], ys, sizeof ys) != NG_OK) {
        status = fail(api, "running the computation");
    } else {
        printf("y = %g %g\n", ys[0], ys[1]); /* 1 - 3 + 1 = -1 and 4 - 6 + 1 = -1 */
    }
    api->tensor_release(inputs[0]);
    api->tensor_release(inputs[1]);
    api->tensor_release(outputs[0]);
    api->computation_destroy(c);
    return status;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "libnanograph.so.0";
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "plugin_host: %s\n", dlerror());
        return 1;
    }
    get_api_fn get_api = NULL;
    *(void **)&get_api = dlsym(lib, "ng_get_api"); /* ISO C: no object-to-function cast */
    const ng_api_t *api = get_api ? get_api(NG_API_VERSION) : NULL;
    if (!api) {
        fprintf(stderr, "plugin_host: %s does not serve version %d of the API\n", path,
                NG_API_VERSION);
        dlclose(lib);
        return 1;
    }
    int status = run(api);
    /* Every object is destroyed, so the library's threads are joined and it may go. */
    dlclose(lib);
    return status;
}
