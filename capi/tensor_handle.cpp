#include "capi/tensor_handle.hpp"

#include <utility>

#include "capi/boundary.hpp"

namespace ng::capi {

ng_tensor_t *new_tensor_handle(ng::Tensor t) {
    return new ng_tensor{kTag<ng_tensor_t>, {1}, std::move(t)};
}

void release_tensor_handle(ng_tensor_t *h) noexcept {
    if (live_or_null(h) == nullptr) return;
    // acq_rel: the thread that frees must see every write other owners made before releasing.
    if (h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    h->tag = 0;
    delete h;
}

ng::Dims dims_argument(const int64_t *array, int32_t count, const char *name,
                       const char *count_name) {
    require_array(array, count, name, count_name);
    return count == 0 ? ng::Dims{} : ng::Dims(array, array + count);
}

}  // namespace ng::capi
