// C API of TensorProto serialization (include/nanograph/serialize.h).
#include <cstdlib>
#include <cstring>
#include <new>

#include "capi/boundary.hpp"
#include "capi/tensor_handle.hpp"
#include "io/tensor_proto.hpp"
#include "nanograph/serialize.h"

extern "C" {

NG_API ng_status_t ng_tensor_serialize(const ng_tensor_t *t, void **bytes, size_t *size) {
    if (bytes) *bytes = nullptr;
    if (size) *size = 0;
    return ng::capi::call("ng_tensor_serialize", [&] {
        const ng::Tensor &tensor = ng::capi::tensor_of(t, "t");
        ng::capi::require(bytes, "bytes");
        ng::capi::require(size, "size");
        std::string message = ng::io::serialize_tensor(tensor);
        void *out = std::malloc(message.size() ? message.size() : 1);
        if (!out) throw std::bad_alloc();
        std::memcpy(out, message.data(), message.size());
        *bytes = out;
        *size = message.size();
    });
}

NG_API ng_tensor_t *ng_tensor_deserialize(const void *bytes, size_t size) {
    return ng::capi::call_returning("ng_tensor_deserialize", (ng_tensor_t *)nullptr, [&] {
        return ng::capi::new_tensor_handle(ng::io::deserialize_tensor(bytes, size));
    });
}

}  // extern "C"
