// Size arithmetic that cannot silently wrap: every element count and byte size in the library
// goes through these, so an overflowing shape is an error instead of a small allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace ng {

inline int64_t checked_mul(int64_t a, int64_t b, const char *what) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw invalid_argument(what, " overflows: ", a, " * ", b);
    return r;
}

inline int64_t checked_add(int64_t a, int64_t b, const char *what) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw invalid_argument(what, " overflows: ", a, " + ", b);
    return r;
}

// Element count of a shape. The one rule of what shape is valid, applied to every tensor and
// every value: no negative dimension, and the product of the dimensions counting 0 as 1 fits in
// int64 (so {0, 4, INT64_MAX} is refused everywhere, like {4, INT64_MAX}: an empty tensor has
// row-major strides and an extent like any other). Throws NG_ERR_INVALID_ARGUMENT otherwise.
int64_t checked_numel(const std::vector<int64_t> &shape, const char *what);

// numel * element size, also checked against SIZE_MAX and PTRDIFF_MAX.
size_t checked_bytes(int64_t numel, size_t elem_size, const char *what);

}  // namespace ng
