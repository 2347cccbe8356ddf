/* DLPack descriptors decoded from the input: device, dtype (code, bits, lanes), ndim, shape,
 * strides (or none) and byte offset. A descriptor whose elements all lie in a small buffer is
 * imported with that buffer, then read, copied, sliced and exported again; any other is imported
 * with memory the library must not read (it may only refuse it or describe it). Whatever the
 * descriptor, the import must return a status and the deleter must run exactly once when the
 * import succeeds and never when it fails. */
#include <stdlib.h>

#include <dlpack/dlpack.h>

#include "fuzz_input.h"
#include "nanograph/tensor.h"

enum { kMaxRank = 5, kBuffer = 2048 };

typedef struct {
    DLManagedTensor managed;
    int64_t shape[kMaxRank], strides[kMaxRank];
    unsigned char buffer[kBuffer] __attribute__((aligned(64)));
    int deleted;
} descriptor;

static void count_deletion(DLManagedTensor *m) {
    ((descriptor *)m->manager_ctx)->deleted++;
}

/* Whether every element the descriptor reaches lies in the buffer (so the library may read it),
 * and there are few enough of them (broadcast strides of 0 reach many elements in a small buffer)
 * that copying them all under the sanitizers takes milliseconds, not the fuzzer's timeout. */
static int fits(const descriptor *d) {
    const DLTensor *t = &d->managed.dl_tensor;
    const int64_t limit = (int64_t)1 << 22;
    if (t->byte_offset >= kBuffer) return 0;
    if (t->ndim < 0 || t->ndim > kMaxRank || t->dtype.bits == 0 || t->dtype.bits % 8) return 0;
    int64_t element = t->dtype.bits / 8 * (t->dtype.lanes ? t->dtype.lanes : 1);
    int64_t low = 0, high = 0, row_major = 1;
    for (int32_t i = t->ndim - 1; i >= 0; --i) {
        int64_t n = t->shape[i];
        if (n < 0) return 0;
        if (n == 0) return 1; /* no elements: nothing is read */
        if (n > limit) return 0;
        int64_t stride = t->strides ? t->strides[i] : row_major;
        if (stride > limit || stride < -limit) return 0;
        int64_t reach = (n - 1) * stride;
        if (reach < 0)
            low += reach;
        else
            high += reach;
        row_major *= n;
        if (row_major > limit) return 0;
    }
    int64_t first = (int64_t)t->byte_offset + low * element;
    int64_t past = (int64_t)t->byte_offset + (high + 1) * element;
    return t->byte_offset < kBuffer && first >= 0 && past <= kBuffer;
}

static void exercise(ng_tensor_t *t, unsigned char *scratch) {
    ng_tensor_numel(t);
    ng_tensor_read(t, scratch, kBuffer);
    ng_tensor_t *copy = ng_tensor_copy(t);
    ng_tensor_release(copy);
    ng_tensor_t *reversed = ng_tensor_slice(t, 0, INT64_MAX, INT64_MIN, -1);
    ng_tensor_release(reversed);
    DLManagedTensor *out = NULL;
    if (ng_tensor_to_dlpack(t, &out) == NG_OK) out->deleter(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = fuzz_begin(data, size);
    descriptor *d = calloc(1, sizeof *d);
    if (!d) return 0;
    static unsigned char scratch[kBuffer];
    DLTensor *t = &d->managed.dl_tensor;
    uint8_t device = fuzz_u8(&in);
    t->device.device_type = device < 200 ? kDLCPU : (DLDeviceType)(device % 16);
    t->device.device_id = (int32_t)fuzz_below(&in, 2);
    t->dtype.code = (uint8_t)fuzz_below(&in, 8);
    static const uint8_t bits[] = {8, 16, 32, 64, 1, 0, 128, 24};
    t->dtype.bits = bits[fuzz_below(&in, 8)];
    t->dtype.lanes = (uint16_t)(fuzz_u8(&in) < 240 ? 1 : fuzz_below(&in, 4));
    t->ndim = (int32_t)fuzz_below(&in, kMaxRank + 2) - 1;
    for (int i = 0; i < kMaxRank; ++i) d->shape[i] = fuzz_dim(&in);
    uint8_t layout = fuzz_u8(&in);
    for (int i = 0; i < kMaxRank; ++i) d->strides[i] = fuzz_dim(&in);
    t->shape = (layout & 3) == 3 ? NULL : d->shape;
    t->strides = (layout & 4) ? d->strides : NULL;
    t->byte_offset = (layout & 8) ? (uint64_t)fuzz_dim(&in) : 0;
    t->data = (layout & 16) ? NULL : d->buffer;
    d->managed.manager_ctx = d;
    d->managed.deleter = (layout & 32) ? NULL : count_deletion;
    int readable = t->shape != NULL && t->data != NULL && fits(d);

    ng_tensor_t *imported = ng_tensor_from_dlpack(&d->managed);
    if (imported) {
        if (readable)
            exercise(imported, scratch);
        else
            ng_tensor_numel(imported);
        ng_tensor_release(imported);
        if (d->managed.deleter && d->deleted != 1) abort();
    } else if (d->deleted != 0) {
        abort();
    }
    free(d);
    return 0;
}
