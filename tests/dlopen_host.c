/* A host that loads nanograph with dlopen, as plugins and language bindings do: three times over,
 * it resolves the entry points with dlsym, runs a computation on a transformer with two worker
 * threads, destroys everything, checks that the transformer's worker is gone (no thread named
 * "nanograph-pool" is left) and dlcloses the library. A worker left
 * running would be counted here, and would crash the process once the code it runs is unmapped.
 *
 * usage: dlopen_host PATH_TO_LIBNANOGRAPH */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <string.h>

#include "nanograph/nanograph.h"

static const char *g_library_path;

/* The entry points this host uses, resolved by name. */
typedef struct {
    void *handle;
    ng_graph_t *(*graph_create)(void);
    void (*graph_destroy)(ng_graph_t *);
    const ng_axis_t *(*axis)(ng_graph_t *, const char *, int64_t);
    ng_op_t *(*placeholder)(ng_graph_t *, ng_dtype_t, const ng_axis_t *const *, int32_t, ng_op_t *);
    ng_op_t *(*tanh_op)(ng_graph_t *, ng_op_t *);
    ng_op_t *(*add)(ng_graph_t *, ng_op_t *, ng_op_t *);
    ng_transformer_t *(*transformer_create)(const char *);
    ng_status_t (*set_num_threads)(ng_transformer_t *, int32_t);
    void (*transformer_destroy)(ng_transformer_t *);
    ng_computation_t *(*computation_create)(ng_transformer_t *, ng_op_t *const *, int32_t,
                                            ng_op_t *const *, int32_t);
    ng_status_t (*computation_run)(ng_computation_t *, ng_tensor_t *const *, int32_t,
                                   ng_tensor_t **, int32_t);
    void (*computation_destroy)(ng_computation_t *);
    ng_tensor_t *(*tensor_from_data)(ng_dtype_t, const int64_t *, int32_t, const void *);
    ng_status_t (*tensor_read)(const ng_tensor_t *, void *, size_t);
    void (*tensor_release)(ng_tensor_t *);
    const char *(*last_error)(void);
} library_t;

static void *symbol(void *handle, const char *name) {
    void *p = dlsym(handle, name);
    if (!p) fail_msg("dlsym(%s): %s", name, dlerror());
    return p;
}

static library_t load(void) {
    library_t lib;
    lib.handle = dlopen(g_library_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) fail_msg("dlopen(%s): %s", g_library_path, dlerror());
    *(void **)&lib.graph_create = symbol(lib.handle, "ng_graph_create");
    *(void **)&lib.graph_destroy = symbol(lib.handle, "ng_graph_destroy");
    *(void **)&lib.axis = symbol(lib.handle, "ng_axis");
    *(void **)&lib.placeholder = symbol(lib.handle, "ng_placeholder");
    *(void **)&lib.tanh_op = symbol(lib.handle, "ng_tanh");
    *(void **)&lib.add = symbol(lib.handle, "ng_add");
    *(void **)&lib.transformer_create = symbol(lib.handle, "ng_transformer_create");
    *(void **)&lib.set_num_threads = symbol(lib.handle, "ng_transformer_set_num_threads");
    *(void **)&lib.transformer_destroy = symbol(lib.handle, "ng_transformer_destroy");
    *(void **)&lib.computation_create = symbol(lib.handle, "ng_computation_create");
    *(void **)&lib.computation_run = symbol(lib.handle, "ng_computation_run");
    *(void **)&lib.computation_destroy = symbol(lib.handle, "ng_computation_destroy");
    *(void **)&lib.tensor_from_data = symbol(lib.handle, "ng_tensor_from_data");
    *(void **)&lib.tensor_read = symbol(lib.handle, "ng_tensor_read");
    *(void **)&lib.tensor_release = symbol(lib.handle, "ng_tensor_release");
    *(void **)&lib.last_error = symbol(lib.handle, "ng_last_error");
    return lib;
}

/* Threads of this process named `name` (from /proc/self/task/<tid>/comm). OpenBLAS's own
 * threads are not counted: they live as long as OpenBLAS is loaded, whatever nanograph does. */
static int threads_named(const char *name) {
    DIR *dir = opendir("/proc/self/task");
    assert_non_null(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue; /* the thread ended while we looked */
        if (fgets(comm, sizeof comm, f)) comm[strcspn(comm, "\n")] = '\0';
        fclose(f);
        if (strcmp(comm, name) == 0) ++n;
    }
    closedir(dir);
    return n;
}

enum { N = 1 << 18 }; /* large enough that the kernel splits the work over the pool */
static const char kPoolName[] = "nanograph-pool"; /* ng_transformer_create() names its workers so */

static void run_once(const library_t *lib, const float *x, float *y) {
    ng_graph_t *g = lib->graph_create();
    const ng_axis_t *axis = lib->axis(g, "N", N);
    ng_op_t *px = lib->placeholder(g, NG_FLOAT32, &axis, 1, NULL);
    ng_op_t *result = lib->add(g, lib->tanh_op(g, px), px);
    assert_non_null(result);

    assert_int_equal(threads_named(kPoolName), 0);
    ng_transformer_t *t = lib->transformer_create(NULL);
    assert_non_null(t);
    assert_int_equal(lib->set_num_threads(t, 2), NG_OK);
    ng_computation_t *c = lib->computation_create(t, &result, 1, &px, 1);
    if (!c) fail_msg("ng_computation_create: %s", lib->last_error());
    ng_tensor_t *input = lib->tensor_from_data(NG_FLOAT32, (const int64_t[]){N}, 1, x);
    ng_tensor_t *output = NULL;
    assert_int_equal(lib->computation_run(c, &input, 1, &output, 1), NG_OK);
    assert_int_equal(lib->tensor_read(output, y, sizeof(float) * N), NG_OK);
    assert_int_equal(threads_named(kPoolName), 1); /* 2 threads: the caller and one worker */
    lib->tensor_release(output);
    lib->tensor_release(input);
    lib->computation_destroy(c);
    lib->transformer_destroy(t);
    assert_int_equal(threads_named(kPoolName), 0);
    lib->graph_destroy(g);
}

static void test_load_run_unload_three_times(void **state) {
    (void)state;
    static float x[N], y[N];
    for (int i = 0; i < N; ++i) x[i] = (float)((i % 2001) - 1000) / 250.0f;
    for (int cycle = 0; cycle < 3; ++cycle) {
        library_t lib = load();
        run_once(&lib, x, y);
        for (int i = 0; i < N; ++i) {
            const double want = tanh((double)x[i]) + x[i];
            if (fabs(y[i] - want) > 1e-5 * (1 + fabs(want)))
                fail_msg("cycle %d: y[%d] = %.9g, expected %.9g", cycle, i, (double)y[i], want);
        }
        assert_int_equal(dlclose(lib.handle), 0);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_LIBNANOGRAPH\n", argv[0]);
        return 2;
    }
    g_library_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_run_unload_three_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
