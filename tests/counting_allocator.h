/* An ng_allocator_t for tests that counts what it is asked: blocks made and given back, the
 * bytes live, requests with a bad alignment; it can be told to fail every allocation. */
#ifndef NG_TESTS_COUNTING_ALLOCATOR_H
#define NG_TESTS_COUNTING_ALLOCATOR_H

#include <stdint.h>
#include <stdlib.h>

#include "nanograph/nanograph.h"

typedef struct {
    int64_t allocations, frees, live_bytes;
    /* Allocations asked for an alignment that is not a power of two >= 64, and blocks given
     * back at an address that is not a multiple of the alignment stated. */
    int64_t misaligned;
    int fail; /* nonzero: allocate returns NULL */
} counts_t;

static inline void *counting_allocate(size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx;
    if (c->fail) return NULL;
    void *p = NULL;
    if (posix_memalign(&p, alignment, bytes) != 0) return NULL;
    c->allocations++;
    c->live_bytes += (int64_t)bytes;
    if (alignment < 64 || (alignment & (alignment - 1)) != 0) c->misaligned++;
    return p;
}

static inline void counting_deallocate(void *p, size_t bytes, size_t alignment, void *ctx) {
    counts_t *c = ctx;
    if ((uintptr_t)p % alignment != 0) c->misaligned++;
    c->frees++;
    c->live_bytes -= (int64_t)bytes;
    free(p);
}

/* An allocator counting into *c (zero it first). */
static inline ng_allocator_t counting(counts_t *c) {
    ng_allocator_t a = {sizeof a, counting_allocate, counting_deallocate, c};
    return a;
}

#endif
