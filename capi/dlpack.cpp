// DLPack export and import through the C API.
#include "capi/boundary.hpp"
#include "capi/tensor_handle.hpp"
#include "io/dlpack.hpp"
#include "nanograph/tensor.h"

extern "C" {

NG_API ng_status_t ng_tensor_to_dlpack(ng_tensor_t *t, struct DLManagedTensor **out) {
    if (out != nullptr) *out = nullptr;
    return ng::capi::call("ng_tensor_to_dlpack", [&] {
        const ng::Tensor &tensor = ng::capi::tensor_of(t, "t");
        ng::capi::require(out, "out");
        *out = ng::io::export_dlpack(tensor);
    });
}

NG_API ng_tensor_t *ng_tensor_from_dlpack(struct DLManagedTensor *m) {
    return ng::capi::call_returning("ng_tensor_from_dlpack", (ng_tensor_t *)nullptr, [&] {
        return ng::capi::new_owning_tensor_handle([&] { return ng::io::import_dlpack(m); });
    });
}

}  // extern "C"
