// The allocator entry points: process-wide (base.h) and per transformer (exec.h).
#include <cstddef>
#include <optional>

#include "capi/boundary.hpp"
#include "capi/sized_struct.hpp"
#include "capi/transformer_handle.hpp"
#include "core/allocator.hpp"
#include "nanograph/base.h"
#include "nanograph/exec.h"

namespace {

// The functions of an ng_allocator_t argument (copied); none for NULL. Refuses a struct_size
// smaller than the first published struct and a missing function.
std::optional<ng::Allocator> allocator_argument(const ng_allocator_t *allocator) {
    if (allocator == nullptr) return std::nullopt;
    constexpr size_t kMinSize = offsetof(ng_allocator_t, ctx) + sizeof(void *);
    const ng_allocator_t defaults{};
    const ng_allocator_t given = ng::capi::read_sized(*allocator, kMinSize, defaults, "allocator");
    if (!given.allocate || !given.deallocate)
        throw ng::invalid_argument("allocator->", given.allocate ? "deallocate" : "allocate",
                                   " is NULL");
    ng::Allocator a;
    a.allocate = given.allocate;
    a.deallocate = given.deallocate;
    a.ctx = given.ctx;
    return a;
}

}  // namespace

extern "C" {

NG_API ng_status_t ng_set_allocator(const ng_allocator_t *allocator) {
    return ng::capi::call("ng_set_allocator", [&] {
        // The default-constructed Allocator is posix_memalign.
        ng::set_allocator(allocator_argument(allocator).value_or(ng::Allocator{}));
    });
}

NG_API ng_status_t ng_transformer_set_allocator(ng_transformer_t *t,
                                                const ng_allocator_t *allocator) {
    return ng::capi::call("ng_transformer_set_allocator", [&] {
        ng::Transformer &transformer = ng::capi::transformer_of(t, "t");
        transformer.set_allocator(allocator_argument(allocator));
    });
}

}  // extern "C"
