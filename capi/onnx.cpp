// C API of ONNX export and import (include/nanograph/onnx.h) and ng_free.
#include <cstdlib>
#include <cstring>

#include "capi/boundary.hpp"
#include "capi/graph_handle.hpp"
#include "capi/transformer_handle.hpp"
#include "io/file_bytes.hpp"
#include "io/onnx_export.hpp"
#include "io/onnx_import.hpp"
#include "nanograph/onnx.h"

using namespace ng;
using namespace ng::capi;

namespace {

std::string export_model(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                         ng_op_t *const *params, int32_t num_params, ng_transformer_t *t) {
    Graph &graph = graph_of(g, "g");
    if (num_results < 1) throw invalid_argument("num_results is ", num_results, ", not 1 or more");
    std::vector<Op *> r = ops_in(graph, results, num_results, "results");
    std::vector<Op *> p = ops_in(graph, params, num_params, "params");
    return onnx_export(r, p, t ? &transformer_of(t, "t") : nullptr);
}

ng_graph_t *import_model(const void *bytes, size_t size, const char *const *dim_names,
                         const int64_t *dim_lengths, int32_t num_dims, uint32_t options) {
    if (size > 0) require(bytes, "bytes");
    require_array(dim_names, num_dims, "dim_names", "num_dims");
    require_array(dim_lengths, num_dims, "dim_lengths", "num_dims");
    if (options & ~NG_ONNX_TRAINABLE) throw invalid_argument("unknown options ", options);
    OnnxImportOptions o;
    o.trainable = (options & NG_ONNX_TRAINABLE) != 0;
    for (int32_t i = 0; i < num_dims; ++i)
        o.dims[require(dim_names[i], "dim_names[i]")] = dim_lengths[i];
    return adopt_graph(onnx_import(bytes, size, o));
}

ng_graph_t *import_file(const char *path, const char *const *dim_names, const int64_t *dim_lengths,
                        int32_t num_dims, uint32_t options) {
    std::string bytes = read_file_bytes(require(path, "path"));
    return import_model(bytes.data(), bytes.size(), dim_names, dim_lengths, num_dims, options);
}

}  // namespace

extern "C" {

NG_API ng_graph_t *ng_onnx_import_file(const char *path, const char *const *dim_names,
                                       const int64_t *dim_lengths, int32_t num_dims) {
    return call_returning("ng_onnx_import_file", static_cast<ng_graph_t *>(nullptr),
                          [&] { return import_file(path, dim_names, dim_lengths, num_dims, 0); });
}

NG_API ng_graph_t *ng_onnx_import_file_with(const char *path, const char *const *dim_names,
                                            const int64_t *dim_lengths, int32_t num_dims,
                                            uint32_t options) {
    return call_returning("ng_onnx_import_file_with", static_cast<ng_graph_t *>(nullptr), [&] {
        return import_file(path, dim_names, dim_lengths, num_dims, options);
    });
}

NG_API ng_graph_t *ng_onnx_import_bytes(const void *bytes, size_t size,
                                        const char *const *dim_names, const int64_t *dim_lengths,
                                        int32_t num_dims, uint32_t options) {
    return call_returning("ng_onnx_import_bytes", static_cast<ng_graph_t *>(nullptr), [&] {
        return import_model(bytes, size, dim_names, dim_lengths, num_dims, options);
    });
}

NG_API void ng_free(void *p) {
    std::free(p);
}

NG_API ng_status_t ng_onnx_export_file(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                       ng_op_t *const *params, int32_t num_params,
                                       const char *path) {
    return call("ng_onnx_export_file", [&] {
        require(path, "path");
        write_file_bytes(path, export_model(g, results, num_results, params, num_params, nullptr));
    });
}

NG_API ng_status_t ng_onnx_export_trained_file(ng_transformer_t *t, ng_graph_t *g,
                                               ng_op_t *const *results, int32_t num_results,
                                               ng_op_t *const *params, int32_t num_params,
                                               const char *path) {
    return call("ng_onnx_export_trained_file", [&] {
        require(path, "path");
        transformer_of(t, "t");
        write_file_bytes(path, export_model(g, results, num_results, params, num_params, t));
    });
}

NG_API ng_status_t ng_onnx_export_bytes(ng_graph_t *g, ng_op_t *const *results, int32_t num_results,
                                        ng_op_t *const *params, int32_t num_params, void **bytes,
                                        size_t *size) {
    if (bytes) *bytes = nullptr;
    if (size) *size = 0;
    return call("ng_onnx_export_bytes", [&] {
        require(bytes, "bytes");
        require(size, "size");
        std::string model = export_model(g, results, num_results, params, num_params, nullptr);
        void *copy = std::malloc(model.size() ? model.size() : 1);
        if (!copy) throw std::bad_alloc();
        std::memcpy(copy, model.data(), model.size());
        *bytes = copy;
        *size = model.size();
    });
}

}  // extern "C"
