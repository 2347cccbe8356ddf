// Tensors at the boundary: the ng_tensor handle (capi/handles.hpp) is a reference count around an
// ng::Tensor. Every C API file that takes or returns tensors goes through these helpers, so
// validation and ownership live in one place.
#pragma once

#include <cstdint>

#include "capi/handles.hpp"
#include "core/tensor.hpp"
#include "nanograph/tensor.h"

namespace ng::capi {

// The tensor behind a handle; NG_ERR_INVALID_ARGUMENT naming `arg_name` unless it is a live
// tensor handle.
inline ng::Tensor &tensor_of(ng_tensor_t *h, const char *arg_name) {
    return checked(h, arg_name)->tensor;
}
inline const ng::Tensor &tensor_of(const ng_tensor_t *h, const char *arg_name) {
    return checked(h, arg_name)->tensor;
}
// Element i of an array of tensor handles, refused as "array_name[i]".
inline ng::Tensor &tensor_at(ng_tensor_t *const *array, size_t i, const char *array_name) {
    return checked_at(array, i, array_name)->tensor;
}

// A new handle with one reference, owning `t` (a view keeps its storage alive). Throws
// std::bad_alloc; `t` is destroyed if the handle cannot be made.
ng_tensor_t *new_tensor_handle(ng::Tensor t);

// For tensors that take ownership of caller memory (wrap, DLPack import): the handle is made
// before `make()` runs, because once make() returns, the storage owns the memory and nothing
// may fail any more (a failed call must never run the caller's deleter).
template <class Make>
ng_tensor_t *new_owning_tensor_handle(Make &&make);

// Drops one reference; the last one frees the handle. Safe from any thread; NULL is ignored.
void release_tensor_handle(ng_tensor_t *h) noexcept;

// A shape or permutation argument as a vector: `count` entries of `array` (NULL only when
// count is 0). Throws naming `name` / `count_name` for a negative count or a NULL array.
ng::Dims dims_argument(const int64_t *array, int32_t count, const char *name,
                       const char *count_name);

}  // namespace ng::capi

template <class Make>
ng_tensor_t *ng::capi::new_owning_tensor_handle(Make &&make) {
    ng_tensor_t *handle = new_tensor_handle(ng::Tensor());
    try {
        handle->tensor = make();
    } catch (...) {
        release_tensor_handle(handle);
        throw;
    }
    return handle;
}
