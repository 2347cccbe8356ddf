// Tensor views: each returns a new handle over the same storage.
#include "capi/boundary.hpp"
#include "capi/tensor_handle.hpp"
#include "nanograph/tensor.h"

using ng::capi::call_returning;
using ng::capi::dims_argument;
using ng::capi::new_tensor_handle;
using ng::capi::tensor_of;

namespace {

// Wraps a view-making body: a handle for the view, NULL on failure.
template <class MakeView>
ng_tensor_t *view_entry(const char *function, MakeView &&make_view) {
    return call_returning(function, (ng_tensor_t *)nullptr,
                          [&] { return new_tensor_handle(make_view()); });
}

}  // namespace

extern "C" {

NG_API ng_tensor_t *ng_tensor_reshape(ng_tensor_t *t, const int64_t *shape, int32_t rank) {
    return view_entry("ng_tensor_reshape", [&] {
        const ng::Tensor &tensor = tensor_of(t, "t");
        return tensor.reshape(dims_argument(shape, rank, "shape", "rank"));
    });
}

NG_API ng_tensor_t *ng_tensor_permute(ng_tensor_t *t, const int32_t *order, int32_t rank) {
    return view_entry("ng_tensor_permute", [&] {
        const ng::Tensor &tensor = tensor_of(t, "t");
        ng::capi::require_array(order, rank, "order", "rank");
        return tensor.permute(std::vector<int32_t>(order, order + rank));
    });
}

NG_API ng_tensor_t *ng_tensor_transpose(ng_tensor_t *t) {
    return view_entry("ng_tensor_transpose", [&] { return tensor_of(t, "t").transpose(); });
}

NG_API ng_tensor_t *ng_tensor_slice(ng_tensor_t *t, int32_t dim, int64_t start, int64_t stop,
                                    int64_t step) {
    return view_entry("ng_tensor_slice",
                      [&] { return tensor_of(t, "t").slice(dim, start, stop, step); });
}

NG_API ng_tensor_t *ng_tensor_broadcast(ng_tensor_t *t, const int64_t *shape, int32_t rank) {
    return view_entry("ng_tensor_broadcast", [&] {
        const ng::Tensor &tensor = tensor_of(t, "t");
        return tensor.broadcast(dims_argument(shape, rank, "shape", "rank"));
    });
}

}  // extern "C"
