// Host tensors: creation, reference counting, accessors and dense copies in and out.
#include <utility>

#include "capi/boundary.hpp"
#include "capi/tensor_handle.hpp"
#include "core/checked_math.hpp"
#include "nanograph/tensor.h"

using ng::capi::call;
using ng::capi::call_returning;
using ng::capi::dims_argument;
using ng::capi::new_tensor_handle;
using ng::capi::tensor_of;

namespace {

// The dimension index argument `i` checked against t's rank.
int32_t checked_dim(const ng::Tensor &t, int32_t i) {
    if (i < 0 || i >= t.rank())
        throw ng::invalid_argument("i is ", i, " but the tensor has rank ", t.rank());
    return i;
}

}  // namespace

extern "C" {

NG_API ng_tensor_t *ng_tensor_create(ng_dtype_t dt, const int64_t *shape, int32_t rank) {
    return call_returning("ng_tensor_create", (ng_tensor_t *)nullptr, [&] {
        return new_tensor_handle(
            ng::Tensor::zeros(dt, dims_argument(shape, rank, "shape", "rank")));
    });
}

NG_API ng_tensor_t *ng_tensor_from_data(ng_dtype_t dt, const int64_t *shape, int32_t rank,
                                        const void *data) {
    return call_returning("ng_tensor_from_data", (ng_tensor_t *)nullptr, [&] {
        ng::Tensor t = ng::Tensor::zeros(dt, dims_argument(shape, rank, "shape", "rank"));
        if (data == nullptr && t.numel() > 0)
            throw ng::invalid_argument("data is NULL but the tensor has ", t.numel(), " elements");
        t.write(data, ng::checked_bytes(t.numel(), t.element_size(), "shape"));
        return new_tensor_handle(std::move(t));
    });
}

NG_API ng_tensor_t *ng_tensor_wrap(ng_dtype_t dt, const int64_t *shape, const int64_t *strides,
                                   int32_t rank, void *data, void (*deleter)(void *data, void *ctx),
                                   void *ctx) {
    return call_returning("ng_tensor_wrap", (ng_tensor_t *)nullptr, [&] {
        ng::Dims dims = dims_argument(shape, rank, "shape", "rank");
        ng::Dims steps =
            strides == nullptr ? ng::row_major_strides(dims) : ng::Dims(strides, strides + rank);
        return ng::capi::new_owning_tensor_handle(
            [&] { return ng::Tensor::wrap(dt, dims, steps, data, deleter, ctx); });
    });
}

NG_API void ng_tensor_retain(ng_tensor_t *t) {
    if (ng::capi::live_or_null(t)) t->refs.fetch_add(1, std::memory_order_relaxed);
}

NG_API void ng_tensor_release(ng_tensor_t *t) {
    ng::capi::release_tensor_handle(t);
}

NG_API ng_dtype_t ng_tensor_dtype(const ng_tensor_t *t) {
    return call_returning("ng_tensor_dtype", ng_dtype_t{0},
                          [&] { return tensor_of(t, "t").dtype(); });
}

NG_API int32_t ng_tensor_rank(const ng_tensor_t *t) {
    return call_returning("ng_tensor_rank", int32_t{-1}, [&] { return tensor_of(t, "t").rank(); });
}

NG_API int64_t ng_tensor_dim(const ng_tensor_t *t, int32_t i) {
    return call_returning("ng_tensor_dim", int64_t{-1}, [&] {
        const ng::Tensor &tensor = tensor_of(t, "t");
        return tensor.shape()[checked_dim(tensor, i)];
    });
}

NG_API int64_t ng_tensor_stride(const ng_tensor_t *t, int32_t i) {
    return call_returning("ng_tensor_stride", int64_t{INT64_MIN}, [&] {
        const ng::Tensor &tensor = tensor_of(t, "t");
        return tensor.strides()[checked_dim(tensor, i)];
    });
}

NG_API int64_t ng_tensor_numel(const ng_tensor_t *t) {
    return call_returning("ng_tensor_numel", int64_t{-1},
                          [&] { return tensor_of(t, "t").numel(); });
}

NG_API void *ng_tensor_data(ng_tensor_t *t) {
    return call_returning("ng_tensor_data", (void *)nullptr,
                          [&] { return tensor_of(t, "t").data(); });
}

NG_API ng_status_t ng_tensor_read(const ng_tensor_t *t, void *dst, size_t dst_bytes) {
    return call("ng_tensor_read", [&] { tensor_of(t, "t").read(dst, dst_bytes); });
}

NG_API ng_status_t ng_tensor_write(ng_tensor_t *t, const void *src, size_t src_bytes) {
    return call("ng_tensor_write", [&] { tensor_of(t, "t").write(src, src_bytes); });
}

NG_API int32_t ng_tensor_is_contiguous(const ng_tensor_t *t) {
    return call_returning("ng_tensor_is_contiguous", int32_t{-1}, [&] {
        return tensor_of(t, "t").is_contiguous() ? int32_t{1} : int32_t{0};
    });
}

NG_API ng_tensor_t *ng_tensor_copy(const ng_tensor_t *t) {
    return call_returning("ng_tensor_copy", (ng_tensor_t *)nullptr,
                          [&] { return new_tensor_handle(tensor_of(t, "t").dense_copy()); });
}

}  // extern "C"
