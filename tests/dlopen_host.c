/* A host that loads nanograph with dlopen, as plugins and language bindings do, and resolves
 * nothing but ng_get_api. Each cycle loads the library, runs a computation on a transformer at
 * one thread and then at two (checking that the worker thread starts only with the run that
 * uses it), destroys everything, checks that the worker is gone (no thread named
 * "nanograph-pool" is left) and dlcloses the library.
 *
 * After the cycles, the library must be gone from the process: not listed in /proc/self/maps
 * (nothing pins it: no thread_local object with a destructor, no thread left running), no more
 * threads than before the first load, and no growth of the heap beyond a small allowance.
 *
 * usage: dlopen_host PATH_TO_LIBNANOGRAPH [CYCLES]   (default 3 cycles) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nanograph/nanograph.h"

static const char *g_library_path;
static int g_cycles = 3;

static const ng_api_t *load(void **handle) {
    *handle = dlopen(g_library_path, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) fail_msg("dlopen(%s): %s", g_library_path, dlerror());
    const ng_api_t *(*get_api)(uint32_t) = NULL;
    *(void **)&get_api = dlsym(*handle, "ng_get_api");
    if (!get_api) fail_msg("dlsym(ng_get_api): %s", dlerror());
    const ng_api_t *api = get_api(NG_API_VERSION);
    assert_non_null(api);
    return api;
}

/* Threads of this process named `name` (from /proc/self/task/<tid>/comm), or all of them when
 * name is NULL. */
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
        if (!name || strcmp(comm, name) == 0) ++n;
    }
    closedir(dir);
    return n;
}

/* Waits until exactly `expected` threads are named `name` (all threads when NULL) and returns
 * that count, or the last count seen after 10 s. pthread_join returns once the kernel has
 * cleared the thread's tid, which happens before it removes the thread from /proc/self/task: a
 * thread just joined can still be listed for a moment (seen on a loaded machine). A thread that
 * was never joined stays listed, so a leak still fails. */
static int settled_threads_named(const char *name, int expected) {
    int n = threads_named(name);
    for (int waited_ms = 0; n != expected && waited_ms < 10000; waited_ms += 5) {
        nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 5 * 1000 * 1000}, NULL);
        n = threads_named(name);
    }
    return n;
}

/* Whether /proc/self/maps lists a mapping of the file at `path` (resolved). */
static int is_mapped(const char *path) {
    char real[PATH_MAX];
    assert_non_null(realpath(path, real));
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[PATH_MAX + 128];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *file = strchr(line, '/');
        found = file && strcmp(file, real) == 0;
    }
    fclose(f);
    return found;
}

/* Bytes of the heap in use (allocated and not freed) in this process, the library's allocations
 * included: malloc's own count, so it does not move with page residency or fragmentation. */
static long heap_in_use(void) {
    const struct mallinfo2 info = mallinfo2();
    return (long)(info.uordblks + info.hblkhd);
}

enum { N = 1 << 18 }; /* large enough that the kernel splits the work over the pool */
static const char kPoolName[] = "nanograph-pool"; /* ng_transformer_create() names its workers so */

static void run_once(const ng_api_t *api, const float *x, float *y) {
    ng_graph_t *g = api->graph_create();
    const ng_axis_t *axis = api->axis(g, "N", N);
    ng_op_t *px = api->placeholder(g, NG_FLOAT32, &axis, 1, NULL);
    ng_op_t *result = api->add(g, api->tanh(g, px), px);
    assert_non_null(result);

    assert_int_equal(settled_threads_named(kPoolName, 0), 0);
    ng_transformer_t *t = api->transformer_create(NULL);
    assert_non_null(t);
    /* Workers start with the first run that uses them: none yet, and none on one thread. */
    assert_int_equal(settled_threads_named(kPoolName, 0), 0);
    assert_int_equal(api->transformer_set_num_threads(t, 1), NG_OK);
    ng_computation_t *c = api->computation_create(t, &result, 1, &px, 1);
    if (!c) fail_msg("ng_computation_create: %s", api->last_error());
    ng_tensor_t *input = api->tensor_from_data(NG_FLOAT32, (const int64_t[]){N}, 1, x);
    ng_tensor_t *output = NULL;
    assert_int_equal(api->computation_run(c, &input, 1, &output, 1), NG_OK);
    assert_int_equal(settled_threads_named(kPoolName, 0), 0);
    assert_int_equal(api->transformer_set_num_threads(t, 2), NG_OK);
    assert_int_equal(settled_threads_named(kPoolName, 0), 0);
    assert_int_equal(api->computation_run(c, &input, 1, &output, 1), NG_OK);
    assert_int_equal(api->tensor_read(output, y, sizeof(float) * N), NG_OK);
    /* 2 threads: the caller and one worker. */
    assert_int_equal(settled_threads_named(kPoolName, 1), 1);
    api->tensor_release(output);
    api->tensor_release(input);
    api->computation_destroy(c);
    api->transformer_destroy(t);
    assert_int_equal(settled_threads_named(kPoolName, 0), 0);
    api->graph_destroy(g);
}

static void cycle(int i, const float *x, float *y) {
    void *handle;
    const ng_api_t *api = load(&handle);
    run_once(api, x, y);
    for (int k = 0; k < N; ++k) {
        const double want = tanh((double)x[k]) + x[k];
        if (fabs(y[k] - want) > 1e-5 * (1 + fabs(want)))
            fail_msg("cycle %d: y[%d] = %.9g, expected %.9g", i, k, (double)y[k], want);
    }
    assert_int_equal(dlclose(handle), 0);
    if (is_mapped(g_library_path))
        fail_msg("cycle %d: %s is still mapped after dlclose", i, g_library_path);
}

static void test_load_run_unload(void **state) {
    (void)state;
    static float x[N], y[N];
    for (int i = 0; i < N; ++i) x[i] = (float)((i % 2001) - 1000) / 250.0f;
    const int threads_before = threads_named(NULL);
    /* The first cycles warm up what the process keeps (the loader's caches, malloc's arenas). */
    const int warm_up = g_cycles < 10 ? g_cycles : 10;
    for (int i = 0; i < warm_up; ++i) cycle(i, x, y);
    const long heap_warm = heap_in_use();
    for (int i = warm_up; i < g_cycles; ++i) cycle(i, x, y);
    const long grown = heap_in_use() - heap_warm;
    const int threads_after = settled_threads_named(NULL, threads_before);
    printf(
        "%d cycles: %d threads before, %d after; heap in use grew by %ld bytes after the "
        "first %d\n",
        g_cycles, threads_before, threads_after, grown, warm_up);
    assert_int_equal(threads_after, threads_before);
    /* A leak of 64 bytes per cycle would pass this over 1,000 cycles. */
    if (grown > 64 * 1024) fail_msg("the heap in use grew by %ld bytes", grown);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s PATH_TO_LIBNANOGRAPH [CYCLES]\n", argv[0]);
        return 2;
    }
    g_library_path = argv[1];
    if (argc == 3) g_cycles = atoi(argv[2]);
    if (g_cycles < 1) {
        fprintf(stderr, "%s: CYCLES must be 1 or more\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_run_unload),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
