// Jagged host tensors through the C API.
#include <utility>

#include "capi/boundary.hpp"
#include "capi/shape_handle.hpp"
#include "capi/tensor_handle.hpp"
#include "core/checked_math.hpp"
#include "core/jagged.hpp"
#include "nanograph/jagged.h"

using ng::capi::call;
using ng::capi::call_returning;
using ng::capi::new_shape_handle;
using ng::capi::new_tensor_handle;
using ng::capi::release_tensor_handle;
using ng::capi::require;
using ng::capi::require_array;
using ng::capi::shape_of;
using ng::capi::tensor_of;

namespace {

// Every jagged function names its jagged argument `j`.
const ng::JaggedTensor &jagged_of(const ng_jagged_t *h) {
    return ng::capi::checked(h, "j")->jagged;
}

ng_jagged_t *new_jagged_handle(ng::JaggedTensor j) {
    return new ng_jagged{ng::capi::kTag<ng_jagged_t>, {1}, std::move(j)};
}

// A shape for a jagged tensor: refused when nested.
const std::shared_ptr<const ng::Shape> &flat_shape(const ng_shape_t *s) {
    const std::shared_ptr<const ng::Shape> &shape = shape_of(s, "shape");
    if (shape->kind() == ng::ShapeKind::Nested)
        throw ng::unsupported("shape is nested: flatten it first");
    return shape;
}

}  // namespace

extern "C" {

NG_API ng_jagged_t *ng_jagged_create(ng_dtype_t dt, const ng_shape_t *shape) {
    return call_returning("ng_jagged_create", (ng_jagged_t *)nullptr, [&] {
        const auto &s = flat_shape(shape);
        return new_jagged_handle(ng::JaggedTensor(s, ng::Tensor::zeros(dt, {s->numel()})));
    });
}

NG_API ng_jagged_t *ng_jagged_from_data(ng_dtype_t dt, const ng_shape_t *shape,
                                        const void *values) {
    return call_returning("ng_jagged_from_data", (ng_jagged_t *)nullptr, [&] {
        const auto &s = flat_shape(shape);
        ng::Tensor v = ng::Tensor::zeros(dt, {s->numel()});
        if (values == nullptr && s->numel() > 0)
            throw ng::invalid_argument("values is NULL but the shape has ", s->numel(),
                                       " elements");
        v.write(values, ng::checked_bytes(v.numel(), v.element_size(), "shape"));
        return new_jagged_handle(ng::JaggedTensor(s, std::move(v)));
    });
}

NG_API ng_jagged_t *ng_jagged_wrap(ng_dtype_t dt, const ng_shape_t *shape, void *values,
                                   void (*deleter)(void *values, void *ctx), void *ctx) {
    return call_returning("ng_jagged_wrap", (ng_jagged_t *)nullptr, [&] {
        const auto &s = flat_shape(shape);
        // Everything that can fail happens before Tensor::wrap takes the memory.
        ng_jagged_t *h = new_jagged_handle(ng::JaggedTensor());
        try {
            h->jagged.shape = s;
            h->jagged.values = ng::Tensor::wrap(dt, {s->numel()}, {1}, values, deleter, ctx);
        } catch (...) {
            delete h;
            throw;
        }
        return h;
    });
}

NG_API ng_jagged_t *ng_jagged_from_values(const ng_shape_t *shape, ng_tensor_t *values) {
    return call_returning("ng_jagged_from_values", (ng_jagged_t *)nullptr, [&] {
        const auto &s = flat_shape(shape);
        return new_jagged_handle(ng::JaggedTensor(s, tensor_of(values, "values")));
    });
}

NG_API void ng_jagged_retain(ng_jagged_t *j) {
    if (ng::capi::live_or_null(j)) j->refs.fetch_add(1, std::memory_order_relaxed);
}

NG_API void ng_jagged_release(ng_jagged_t *j) {
    if (!ng::capi::live_or_null(j)) return;
    if (j->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    j->tag = 0;
    delete j;
}

NG_API ng_dtype_t ng_jagged_dtype(const ng_jagged_t *j) {
    return call_returning("ng_jagged_dtype", ng_dtype_t{0},
                          [&] { return jagged_of(j).values.dtype(); });
}

NG_API ng_shape_t *ng_jagged_shape(const ng_jagged_t *j) {
    return call_returning("ng_jagged_shape", (ng_shape_t *)nullptr,
                          [&] { return new_shape_handle(jagged_of(j).shape); });
}

NG_API ng_tensor_t *ng_jagged_values(ng_jagged_t *j) {
    return call_returning("ng_jagged_values", (ng_tensor_t *)nullptr,
                          [&] { return new_tensor_handle(jagged_of(j).values); });
}

NG_API ng_tensor_t *ng_jagged_row_splits(const ng_jagged_t *j, int32_t mode) {
    return call_returning("ng_jagged_row_splits", (ng_tensor_t *)nullptr, [&] {
        const ng::Shape &s = *jagged_of(j).shape;
        if (mode < 1 || mode >= s.rank())
            throw ng::invalid_argument("mode is ", mode, " but the jagged tensor has rank ",
                                       s.rank());
        std::vector<int64_t> splits = s.row_splits(mode);
        ng::Tensor t = ng::Tensor::zeros(NG_INT64, {static_cast<int64_t>(splits.size())});
        t.write(splits.data(), splits.size() * sizeof(int64_t));
        return new_tensor_handle(std::move(t));
    });
}

NG_API int64_t ng_jagged_position(const ng_jagged_t *j, const int64_t *index, int32_t n) {
    return call_returning("ng_jagged_position", int64_t{-1}, [&] {
        const ng::Shape &s = *jagged_of(j).shape;
        if (n != s.rank())
            throw ng::invalid_argument("n is ", n, " but the jagged tensor has rank ", s.rank());
        require_array(index, n, "index", "n");
        return n == 0 ? int64_t{0} : s.position(index, n);
    });
}

NG_API ng_status_t ng_jagged_read(const ng_jagged_t *j, void *dst, size_t dst_bytes) {
    return call("ng_jagged_read", [&] { jagged_of(j).values.read(dst, dst_bytes); });
}

NG_API ng_status_t ng_jagged_write(ng_jagged_t *j, const void *src, size_t src_bytes) {
    return call("ng_jagged_write", [&] {
        ng::Tensor values = jagged_of(j).values;
        values.write(src, src_bytes);
    });
}

NG_API ng_status_t ng_jagged_to_padded(const ng_jagged_t *j, ng_tensor_t **padded,
                                       ng_tensor_t **mask) {
    if (padded != nullptr) *padded = nullptr;
    if (mask != nullptr) *mask = nullptr;
    return call("ng_jagged_to_padded", [&] {
        const ng::JaggedTensor &jt = jagged_of(j);
        require(padded, "padded");
        require(mask, "mask");
        ng::Tensor p, m;
        jt.to_padded(p, m);
        ng_tensor_t *ph = new_tensor_handle(std::move(p));
        try {
            *mask = new_tensor_handle(std::move(m));
        } catch (...) {
            release_tensor_handle(ph);
            throw;
        }
        *padded = ph;
    });
}

NG_API ng_jagged_t *ng_jagged_from_padded(const ng_tensor_t *padded, const ng_tensor_t *mask) {
    return call_returning("ng_jagged_from_padded", (ng_jagged_t *)nullptr, [&] {
        return new_jagged_handle(
            ng::JaggedTensor::from_padded(tensor_of(padded, "padded"), tensor_of(mask, "mask")));
    });
}

NG_API ng_jagged_t *ng_jagged_slice(ng_jagged_t *j, int64_t start, int64_t stop) {
    return call_returning("ng_jagged_slice", (ng_jagged_t *)nullptr,
                          [&] { return new_jagged_handle(jagged_of(j).range(start, stop)); });
}

NG_API ng_jagged_t *ng_jagged_at(ng_jagged_t *j, const int64_t *prefix, int32_t n) {
    return call_returning("ng_jagged_at", (ng_jagged_t *)nullptr, [&] {
        const ng::JaggedTensor &jt = jagged_of(j);
        require_array(prefix, n, "prefix", "n");
        return new_jagged_handle(jt.at(prefix, n));
    });
}

}  // extern "C"
