#include "capi/tensor_handle.hpp"

#include <string>
#include <utility>

#include "capi/boundary.hpp"

namespace ng::capi {

namespace {

template <class Handle>
Handle *checked_handle(Handle *h, const char *arg_name) {
    require(h, arg_name);
    if (h->magic != kTensorMagic) throw invalid_argument(arg_name, " is not a live tensor handle");
    return h;
}

}  // namespace

ng::Tensor &tensor_of(ng_tensor_t *h, const char *arg_name) {
    return checked_handle(h, arg_name)->tensor;
}

const ng::Tensor &tensor_of(const ng_tensor_t *h, const char *arg_name) {
    return checked_handle(h, arg_name)->tensor;
}

ng::Tensor &tensor_at(ng_tensor_t *const *array, size_t i, const char *array_name) {
    ng_tensor_t *h = array[i];
    if (h != nullptr && h->magic == kTensorMagic) return h->tensor;
    // Only a failure pays for the name.
    const std::string name = std::string(array_name) + "[" + std::to_string(i) + "]";
    return tensor_of(h, name.c_str());
}

ng_tensor_t *new_tensor_handle(ng::Tensor t) {
    return new ng_tensor{kTensorMagic, {1}, std::move(t)};
}

void release_tensor_handle(ng_tensor_t *h) noexcept {
    if (h == nullptr || h->magic != kTensorMagic) return;
    // acq_rel: the thread that frees must see every write other owners made before releasing.
    if (h->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    h->magic = kDeadMagic;
    delete h;
}

ng::Dims dims_argument(const int64_t *array, int32_t count, const char *name,
                       const char *count_name) {
    require_array(array, count, name, count_name);
    return count == 0 ? ng::Dims{} : ng::Dims(array, array + count);
}

}  // namespace ng::capi
