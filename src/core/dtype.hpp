// Element types: sizes, names and the C++ type behind each code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "nanograph/base.h"

namespace ng {

using DType = ng_dtype_t;

bool dtype_valid(DType dt) noexcept;
// 0 for an invalid dtype. Inline: every strided address computation asks it.
inline size_t dtype_size(DType dt) noexcept {
    switch (dt) {
    case NG_BOOL:
    case NG_UINT8: return 1;
    case NG_INT32:
    case NG_FLOAT32: return 4;
    case NG_INT64:
    case NG_FLOAT64: return 8;
    default: return 0;
    }
}
const char *dtype_name(DType dt) noexcept;  // "invalid" for an invalid dtype
bool dtype_is_float(DType dt) noexcept;
bool dtype_is_integer(DType dt) noexcept;  // int32, int64, uint8 (not bool)

// Throws NG_ERR_DTYPE naming `what` when dt is not a known dtype.
void check_dtype(DType dt, const char *what);

// Calls f(T{}) with the C++ element type of dt; bool is stored as uint8_t.
template <class F>
decltype(auto) visit_dtype(DType dt, F &&f);

}  // namespace ng

#include "core/dtype_visit.hpp"
