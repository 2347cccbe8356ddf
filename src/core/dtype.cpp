#include "core/dtype.hpp"

namespace ng {

bool dtype_valid(DType dt) noexcept {
    return dt >= NG_BOOL && dt <= NG_FLOAT64;
}

const char *dtype_name(DType dt) noexcept {
    switch (dt) {
    case NG_BOOL: return "bool";
    case NG_UINT8: return "uint8";
    case NG_INT32: return "int32";
    case NG_INT64: return "int64";
    case NG_FLOAT32: return "float32";
    case NG_FLOAT64: return "float64";
    default: return "invalid";
    }
}

bool dtype_is_float(DType dt) noexcept {
    return dt == NG_FLOAT32 || dt == NG_FLOAT64;
}
bool dtype_is_integer(DType dt) noexcept {
    return dt == NG_INT32 || dt == NG_INT64 || dt == NG_UINT8;
}

void check_dtype(DType dt, const char *what) {
    if (!dtype_valid(dt)) throw dtype_error(what, " has unknown dtype ", dt);
}

}  // namespace ng
