// visit_dtype: the single place that maps a runtime dtype code to a C++ type.
#pragma once

#include "core/error.hpp"

namespace ng {

template <class F>
decltype(auto) visit_dtype(DType dt, F &&f) {
    switch (dt) {
    case NG_BOOL: return f(uint8_t{});
    case NG_UINT8: return f(uint8_t{});
    case NG_INT32: return f(int32_t{});
    case NG_INT64: return f(int64_t{});
    case NG_FLOAT32: return f(float{});
    case NG_FLOAT64: return f(double{});
    default: throw dtype_error("unknown dtype ", dt);
    }
}

}  // namespace ng
