/* ONNX model bytes, untrusted: the whole input is a serialized ModelProto handed to
 * ng_onnx_import_bytes, with the symbolic dimension "N" bound to 3 (and, for inputs of odd size,
 * float initializers imported as variables). Whatever the bytes, the import must return a graph or
 * a status, reading and allocating only what the checked sizes allow. An imported graph is
 * exported again, which must also return a status. */
#include <stdlib.h>

#include "nanograph/nanograph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *names[1] = {"N"};
    const int64_t lengths[1] = {3};
    uint32_t options = (size & 1) ? NG_ONNX_TRAINABLE : 0;
    ng_graph_t *g = ng_onnx_import_bytes(data, size, names, lengths, 1, options);
    if (!g) return 0;
    /* The outputs of the seeds' models are named "y"; others are simply not found. */
    ng_op_t *y = ng_graph_find(g, "y"), *x = ng_graph_find(g, "x");
    if (y) {
        void *bytes = NULL;
        size_t n = 0;
        if (ng_onnx_export_bytes(g, &y, 1, x ? &x : NULL, x ? 1 : 0, &bytes, &n) == NG_OK)
            ng_free(bytes);
    }
    ng_graph_destroy(g);
    return 0;
}
