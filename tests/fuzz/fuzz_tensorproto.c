/* TensorProto bytes, untrusted: the whole input is a message handed to ng_tensor_deserialize.
 * Whatever the bytes, it must return a tensor or a status, allocating only what the checked sizes
 * allow. A tensor it returns of at most 16 MiB is serialized again and read back: the two tensors
 * must agree in dtype, shape and bytes (the writer always uses tensor_content, so the round trip
 * is exact). Larger ones (a single typed value may fill up to 256 MiB) are not written back: the
 * message's buffers would pass the sanitizer's allocation cap, whose failure in operator new is
 * a report rather than std::bad_alloc, and such inputs would make the target slow. */
#include <stdlib.h>
#include <string.h>

#include "nanograph/nanograph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ng_tensor_t *t = ng_tensor_deserialize(data, size);
    if (!t) return 0;
    const size_t total = (size_t)ng_tensor_numel(t) * ng_dtype_size(ng_tensor_dtype(t));
    if (total > ((size_t)16 << 20)) {
        ng_tensor_release(t);
        return 0;
    }
    void *bytes = NULL;
    size_t n = 0;
    if (ng_tensor_serialize(t, &bytes, &n) != NG_OK) { /* too large for protobuf, or no memory */
        ng_tensor_release(t);
        return 0;
    }
    ng_tensor_t *back = ng_tensor_deserialize(bytes, n);
    ng_free(bytes);
    if (!back) {
        /* no memory for the copy is the only acceptable failure */
        if (ng_last_status() != NG_ERR_OUT_OF_MEMORY) abort();
        ng_tensor_release(t);
        return 0;
    }
    const int32_t rank = ng_tensor_rank(t);
    if (ng_tensor_dtype(back) != ng_tensor_dtype(t) || ng_tensor_rank(back) != rank) abort();
    for (int32_t i = 0; i < rank; ++i)
        if (ng_tensor_dim(back, i) != ng_tensor_dim(t, i)) abort();
    if (total > 0 && memcmp(ng_tensor_data(back), ng_tensor_data(t), total) != 0) abort();
    ng_tensor_release(back);
    ng_tensor_release(t);
    return 0;
}
