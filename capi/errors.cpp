// Version, status and dtype entry points, and the thread-local error state behind
// ng_last_status() / ng_last_error().
#include <cstdio>
#include <cstring>

#include "capi/boundary.hpp"
#include "core/dtype.hpp"
#include "nanograph/base.h"

namespace {

// The calling thread's last error: plain data, constant-initialised. A thread_local with a
// destructor (a std::string) would register that destructor on first use, which allocates (and
// glibc aborts when it cannot) and keeps the library mapped after dlclose() for as long as the
// thread lives. Messages longer than the buffer are cut, ending in "...".
struct ThreadError {
    ng_status_t status;
    char message[1024];
};

thread_local ThreadError thread_error = {NG_OK, {0}};

}  // namespace

namespace ng::capi {

void set_error(ng_status_t status, const char *function, const char *message) noexcept {
    ThreadError &e = thread_error;
    e.status = status;
    const int n = std::snprintf(e.message, sizeof e.message, "%s: %s", function, message);
    if (n >= static_cast<int>(sizeof e.message))
        std::memcpy(e.message + sizeof e.message - 4, "...", 4);
    else if (n < 0)
        e.message[0] = '\0';
}

void clear_error() noexcept {
    thread_error.status = NG_OK;
    thread_error.message[0] = '\0';
}

}  // namespace ng::capi

extern "C" {

NG_API int32_t ng_version_number(void) {
    return NG_VERSION_MAJOR * 10000 + NG_VERSION_MINOR * 100 + NG_VERSION_PATCH;
}

NG_API const char *ng_version_string(void) {
    return NG_VERSION_STRING;
}

NG_API ng_status_t ng_last_status(void) {
    return thread_error.status;
}

NG_API const char *ng_last_error(void) {
    return thread_error.message;
}

NG_API const char *ng_status_string(ng_status_t status) {
    switch (status) {
    case NG_OK: return "NG_OK";
    case NG_ERR_INVALID_ARGUMENT: return "NG_ERR_INVALID_ARGUMENT";
    case NG_ERR_AXES: return "NG_ERR_AXES";
    case NG_ERR_DTYPE: return "NG_ERR_DTYPE";
    case NG_ERR_OUT_OF_MEMORY: return "NG_ERR_OUT_OF_MEMORY";
    case NG_ERR_NOT_FOUND: return "NG_ERR_NOT_FOUND";
    case NG_ERR_UNSUPPORTED: return "NG_ERR_UNSUPPORTED";
    case NG_ERR_STATE: return "NG_ERR_STATE";
    case NG_ERR_IO: return "NG_ERR_IO";
    case NG_ERR_FORMAT: return "NG_ERR_FORMAT";
    case NG_ERR_INTERNAL: return "NG_ERR_INTERNAL";
    default: return "NG_ERR_UNKNOWN";
    }
}

NG_API size_t ng_dtype_size(ng_dtype_t dtype) {
    return ng::capi::call_returning("ng_dtype_size", size_t{0}, [&] {
        ng::check_dtype(dtype, "dtype");
        return ng::dtype_size(dtype);
    });
}

NG_API const char *ng_dtype_name(ng_dtype_t dtype) {
    return ng::dtype_name(dtype);
}

}  // extern "C"
