// The ng_transformer handle, shared by the C API files that take transformers (exec, ONNX export).
#pragma once

#include <memory>

#include "capi/boundary.hpp"
#include "core/error.hpp"
#include "graph/op.hpp"
#include "nanograph/exec.h"
#include "runtime/transformer.hpp"

struct ng_transformer {
    uint32_t magic = ng::kTransformerMagic;
    std::shared_ptr<ng::Transformer> impl;
};

namespace ng::capi {

// The transformer behind a handle; NG_ERR_INVALID_ARGUMENT naming `arg` for NULL or another type.
inline ng::Transformer &transformer_of(const ng_transformer_t *t, const char *arg) {
    require(t, arg);
    if (t->magic != ng::kTransformerMagic)
        throw ng::invalid_argument(arg, " is not a transformer handle");
    return *t->impl;
}

}  // namespace ng::capi
