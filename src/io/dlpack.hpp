// DLPack (0.6) exchange: zero-copy export of a Tensor and import of a DLManagedTensor.
#pragma once

#include <dlpack/dlpack.h>

#include "core/tensor.hpp"

namespace ng::io {

// A managed tensor viewing t's storage, which it keeps alive until the consumer calls its
// deleter. Throws NG_ERR_DTYPE for a dtype DLPack 0.6 cannot describe (bool).
DLManagedTensor *export_dlpack(const Tensor &t);

// A tensor over m's memory. Validates everything first; only if it returns does the tensor own
// m (m->deleter(m) runs when the last view of the storage goes). On a throw the caller still
// owns m.
Tensor import_dlpack(DLManagedTensor *m);

}  // namespace ng::io
