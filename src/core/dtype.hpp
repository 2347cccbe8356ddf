// Element types: sizes, names and the C++ type behind each code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "nanograph/base.h"

namespace ng {

using DType = ng_dtype_t;

bool dtype_valid(DType dt) noexcept;
size_t dtype_size(DType dt) noexcept;       // 0 for an invalid dtype
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
