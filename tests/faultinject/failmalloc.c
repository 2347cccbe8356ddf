/* An LD_PRELOAD allocator wrapper for fault injection: malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, memalign and valloc go to glibc's own entry points (__libc_*), except that while
 * the wrapper is armed it counts them and makes the Nth one fail (NULL, ENOMEM). At all times it
 * counts the blocks live in the process (allocated and not yet freed), so a program can compare
 * that count before and after some work: a difference that does not go away is a leak. While
 * failmalloc_fail_threads(1) is in effect, pthread_create fails with EAGAIN (what glibc returns
 * when there is no memory for a thread).
 *
 * A program finds the control functions with dlsym(RTLD_DEFAULT, "failmalloc_arm") and so on;
 * without the wrapper preloaded they are absent. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

#define EXPORT __attribute__((visibility("default")))

static atomic_long live_blocks, counted, fail_at;
static atomic_int armed, threads_fail;

/* Arms the wrapper: allocation number `n` (1-based; 0: none) from now fails. */
EXPORT void failmalloc_arm(long n) {
    atomic_store(&counted, 0);
    atomic_store(&fail_at, n);
    atomic_store(&armed, 1);
}

/* Disarms it; returns the allocations counted since failmalloc_arm. */
EXPORT long failmalloc_disarm(void) {
    atomic_store(&armed, 0);
    return atomic_load(&counted);
}

/* The blocks allocated and not freed, process-wide. */
EXPORT long failmalloc_live_blocks(void) {
    return atomic_load(&live_blocks);
}

/* While `on`, pthread_create fails with EAGAIN. */
EXPORT void failmalloc_fail_threads(int on) {
    atomic_store(&threads_fail, on);
}

/* Counts one allocation; returns 0 when it must fail. */
static int admit(void) {
    if (!atomic_load_explicit(&armed, memory_order_relaxed)) return 1;
    if (atomic_fetch_add(&counted, 1) + 1 == atomic_load(&fail_at)) {
        errno = ENOMEM;
        return 0;
    }
    return 1;
}

static void *counted_block(void *p) {
    if (p) atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

EXPORT void *malloc(size_t n) {
    return admit() ? counted_block(__libc_malloc(n)) : NULL;
}

EXPORT void *calloc(size_t count, size_t n) {
    return admit() ? counted_block(__libc_calloc(count, n)) : NULL;
}

EXPORT void free(void *p) {
    if (p) atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
    __libc_free(p);
}

EXPORT void *realloc(void *p, size_t n) {
    if (p == NULL) return malloc(n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    if (!admit()) return NULL;   /* the old block stays valid */
    return __libc_realloc(p, n); /* on success one block replaces another */
}

EXPORT void *memalign(size_t alignment, size_t n) {
    return admit() ? counted_block(__libc_memalign(alignment, n)) : NULL;
}

EXPORT void *aligned_alloc(size_t alignment, size_t n) {
    return memalign(alignment, n);
}

EXPORT void *valloc(size_t n) {
    return memalign(4096, n);
}

EXPORT int posix_memalign(void **out, size_t alignment, size_t n) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1))) return EINVAL;
    void *p = memalign(alignment, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg) {
    static create_fn real;
    if (atomic_load(&threads_fail)) return EAGAIN;
    if (!real) real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
    return real ? real(thread, attr, start, arg) : EAGAIN;
}
