// Transformers at the boundary; the ng_transformer handle itself is in capi/handles.hpp.
#pragma once

#include "capi/handles.hpp"
#include "runtime/transformer.hpp"

namespace ng::capi {

// The transformer behind a handle; NG_ERR_INVALID_ARGUMENT naming `arg` unless it is a live
// transformer handle.
inline ng::Transformer &transformer_of(const ng_transformer_t *t, const char *arg) {
    return *checked(t, arg)->impl;
}

}  // namespace ng::capi
