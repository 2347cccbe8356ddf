// The one mechanism every exported function goes through. An entry point is written as
//
//   ng_status_t ng_thing(...) { return ng::capi::call("ng_thing", [&] { ...; }); }
//   ng_op_t *ng_make(...)     { return ng::capi::call_returning("ng_make", (ng_op_t *)nullptr, [&]
//   { return ...; }); }
//
// Inside the body, failures are thrown as ng::Error (see core/error.hpp). The wrapper catches
// everything, maps std::bad_alloc to NG_ERR_OUT_OF_MEMORY and anything unknown to
// NG_ERR_INTERNAL, and records "function: message" as the calling thread's error. Success
// resets the thread's error. No exception ever leaves an entry point.
#pragma once

#include <new>
#include <string>

#include "core/error.hpp"

namespace ng::capi {

void set_error(ng_status_t status, const char *function, const char *message) noexcept;
void clear_error() noexcept;

// Runs a body that may throw; returns the status to hand back across the boundary.
template <class Body>
ng_status_t call(const char *function, Body &&body) noexcept {
    try {
        body();
        clear_error();
        return NG_OK;
    } catch (const Error &e) {
        set_error(e.status(), function, e.what());
        return e.status();
    } catch (const std::bad_alloc &) {
        set_error(NG_ERR_OUT_OF_MEMORY, function, "out of memory");
        return NG_ERR_OUT_OF_MEMORY;
    } catch (const std::exception &e) {
        set_error(NG_ERR_INTERNAL, function, e.what());
        return NG_ERR_INTERNAL;
    } catch (...) {
        set_error(NG_ERR_INTERNAL, function, "unknown exception");
        return NG_ERR_INTERNAL;
    }
}

// Runs a body that returns a value; on failure returns `failed` (NULL, -1, 0, ...).
template <class Result, class Body>
Result call_returning(const char *function, Result failed, Body &&body) noexcept {
    Result result = failed;
    ng_status_t status = call(function, [&] { result = body(); });
    return status == NG_OK ? result : failed;
}

// For functions without a status to return (destroy, release): swallows any failure, keeps the
// thread's error as it was.
template <class Body>
void call_silently(Body &&body) noexcept {
    try {
        body();
    } catch (...) {
    }
}

// Argument checks shared by every entry point. Each throws NG_ERR_INVALID_ARGUMENT naming the
// argument.
template <class T>
T *require(T *pointer, const char *name) {
    if (pointer == nullptr) throw invalid_argument(name, " is NULL");
    return pointer;
}

// The refusal of require_array, out of line: the check itself is inlined into every call (a run
// makes two).
[[noreturn]] void refuse_array(int64_t count, const char *name, const char *count_name);

// An array argument may be NULL only when its count is 0; counts may not be negative.
template <class T>
void require_array(const T *array, int64_t count, const char *name, const char *count_name) {
    if (count < 0 || (count > 0 && array == nullptr)) refuse_array(count, name, count_name);
}

}  // namespace ng::capi
