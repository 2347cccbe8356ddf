/* Sequences of tensor calls on a pool of handles: create, wrap, views (reshape, permute,
 * transpose, slice, broadcast), copy, read, write, DLPack round trips, retain and release, with
 * arguments decoded from the input (extreme values included). Every call must return a status
 * and never crash, overrun or leak. */
#include <stdlib.h>

#include <dlpack/dlpack.h>

#include "fuzz_input.h"
#include "nanograph/tensor.h"

enum { kSlots = 8, kMaxRank = 4, kScratch = 4096 };

typedef struct {
    ng_tensor_t *slot[kSlots];
    int64_t shape[kMaxRank], strides[kMaxRank];
    unsigned char scratch[kScratch];
} state;

static ng_dtype_t take_dtype(fuzz_input *in) {
    return (ng_dtype_t)(fuzz_below(in, 8));
}

static int32_t take_shape(fuzz_input *in, state *s) {
    int32_t rank = (int32_t)fuzz_below(in, kMaxRank + 2) - 1; /* -1 .. kMaxRank */
    for (int32_t i = 0; i < kMaxRank; ++i) s->shape[i] = fuzz_dim(in);
    return rank;
}

static void put(state *s, uint32_t at, ng_tensor_t *t) {
    ng_tensor_release(s->slot[at]);
    s->slot[at] = t;
}

/* ctx is the block: data may point inside it (negative strides start at its end). */
static void free_buffer(void *data, void *ctx) {
    (void)data;
    free(ctx);
}

/* The bytes a dense or strided tensor over s->shape reaches, and the offset of element
 * (0, ..., 0) in them; -1 when the shape is invalid or the span exceeds the scratch size. */
static int64_t span_of(const state *s, int32_t rank, size_t element, int dense, int64_t *offset) {
    const int64_t limit = (int64_t)1 << 40;
    int64_t numel = 1, low = 0, high = 0;
    *offset = 0;
    if (rank < 0 || element == 0) return -1;
    for (int32_t i = 0; i < rank; ++i) {
        if (s->shape[i] < 0) return -1;
        if (s->shape[i] == 0) return 0;
    }
    for (int32_t i = 0; i < rank; ++i) {
        if (s->shape[i] > limit || (!dense && (s->strides[i] > limit || s->strides[i] < -limit)))
            return -1;
        numel *= s->shape[i];
        if (numel > kScratch) return -1;
        if (!dense) {
            int64_t reach = (s->shape[i] - 1) * s->strides[i];
            if (reach < 0)
                low += reach;
            else
                high += reach;
        }
    }
    int64_t elements = dense ? numel : high - low + 1;
    if (elements > kScratch / (int64_t)element) return -1;
    *offset = -low * (int64_t)element;
    return elements * (int64_t)element;
}

/* Wrapped memory must cover every element the strides reach: only descriptors that fit a small
 * buffer are wrapped with memory; the others are wrapped with none (the library must refuse
 * them unless they have no elements). */
static void wrap(fuzz_input *in, state *s, uint32_t at) {
    ng_dtype_t dt = take_dtype(in);
    int32_t rank = take_shape(in, s);
    int dense = fuzz_u8(in) & 1;
    for (int32_t i = 0; i < kMaxRank; ++i) s->strides[i] = fuzz_dim(in);
    const int64_t *strides = dense ? NULL : s->strides;
    int64_t offset = 0;
    int64_t span = span_of(s, rank, ng_dtype_size(dt), dense, &offset);
    if (span <= 0) {
        put(s, at, ng_tensor_wrap(dt, s->shape, strides, rank, NULL, NULL, NULL));
        return;
    }
    unsigned char *block = calloc(1, (size_t)span);
    if (!block) return;
    ng_tensor_t *t =
        ng_tensor_wrap(dt, s->shape, strides, rank, block + offset, free_buffer, block);
    if (!t) free(block);
    put(s, at, t);
}

static void dlpack_round_trip(state *s, uint32_t at) {
    DLManagedTensor *m = NULL;
    if (ng_tensor_to_dlpack(s->slot[at], &m) != NG_OK) return;
    ng_tensor_t *back = ng_tensor_from_dlpack(m);
    if (!back) m->deleter(m);
    put(s, at, back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = fuzz_begin(data, size);
    state *s = calloc(1, sizeof *s);
    if (!s) return 0;
    int calls = 0;
    while (!fuzz_done(&in) && calls++ < 64) {
        uint8_t op = fuzz_u8(&in);
        uint32_t at = fuzz_below(&in, kSlots), from = fuzz_below(&in, kSlots);
        ng_tensor_t *src = s->slot[from];
        switch (op % 16) {
        case 0: {
            ng_dtype_t dt = take_dtype(&in);
            int32_t rank = take_shape(&in, s);
            put(s, at, ng_tensor_create(dt, s->shape, rank));
            break;
        }
        case 1: wrap(&in, s, at); break;
        case 2: {
            int32_t rank = take_shape(&in, s);
            put(s, at, ng_tensor_reshape(src, s->shape, rank));
            break;
        }
        case 3: {
            int32_t order[kMaxRank];
            for (int32_t i = 0; i < kMaxRank; ++i) order[i] = (int32_t)fuzz_below(&in, 6) - 1;
            put(s, at, ng_tensor_permute(src, order, (int32_t)fuzz_below(&in, kMaxRank + 1)));
            break;
        }
        case 4: put(s, at, ng_tensor_transpose(src)); break;
        case 5: {
            int32_t dim = (int32_t)fuzz_below(&in, kMaxRank + 2) - 1;
            int64_t start = fuzz_dim(&in), stop = fuzz_dim(&in), step = fuzz_dim(&in);
            put(s, at, ng_tensor_slice(src, dim, start, stop, step));
            break;
        }
        case 6: {
            int32_t rank = take_shape(&in, s);
            put(s, at, ng_tensor_broadcast(src, s->shape, rank));
            break;
        }
        case 7: put(s, at, ng_tensor_copy(src)); break;
        case 8:
            ng_tensor_read(src, s->scratch, fuzz_below(&in, 2) ? kScratch : fuzz_u8(&in));
            break;
        case 9:
            ng_tensor_write(src, s->scratch, fuzz_below(&in, 2) ? kScratch : fuzz_u8(&in));
            break;
        case 10: dlpack_round_trip(s, from); break;
        case 11:
            ng_tensor_retain(src);
            put(s, at, src);
            break;
        case 12: put(s, at, NULL); break;
        case 13:
            ng_tensor_numel(src);
            ng_tensor_is_contiguous(src);
            ng_tensor_dim(src, (int32_t)fuzz_below(&in, 6) - 1);
            ng_tensor_stride(src, (int32_t)fuzz_below(&in, 6) - 1);
            break;
        case 14: {
            ng_dtype_t dt = take_dtype(&in);
            int32_t rank = take_shape(&in, s);
            int64_t offset = 0;
            /* The library reads numel * size bytes: give it the scratch only when they fit. */
            int64_t span = span_of(s, rank, ng_dtype_size(dt), 1, &offset);
            put(s, at, ng_tensor_from_data(dt, s->shape, rank, span > 0 ? s->scratch : NULL));
            break;
        }
        default: {
            void *p = ng_tensor_data(src);
            (void)p;
            break;
        }
        }
    }
    for (int i = 0; i < kSlots; ++i) ng_tensor_release(s->slot[i]);
    free(s);
    return 0;
}
