// Scalar conversion between element types, defined for every value (C++ leaves float->int out of
// range undefined): NaN -> 0, floats saturate to the integer range and truncate toward zero,
// integers wrap modulo 2^bits, anything -> bool is `!= 0` (so NaN -> true).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/dtype.hpp"

namespace ng::kernels {

template <class To, class From>
To convert_value(From v) {
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        if (v != v) return To(0);
        // The bounds as From are exact powers of two (or 0), so these comparisons are exact.
        constexpr From low = static_cast<From>(std::numeric_limits<To>::lowest());
        constexpr From past_high =
            static_cast<From>(std::numeric_limits<To>::max() / 2 + 1) * From(2);
        if (v <= low) return std::numeric_limits<To>::lowest();
        if (v >= past_high) return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    } else {
        return static_cast<To>(v);
    }
}

// Converts to the element type of `dt` (bool: v != 0).
template <class From>
void store_as(DType dt, From v, void *out) {
    if (dt == NG_BOOL) {
        *static_cast<uint8_t *>(out) = v != From(0);
        return;
    }
    visit_dtype(dt, [&](auto tag) {
        *static_cast<decltype(tag) *>(out) = convert_value<decltype(tag)>(v);
    });
}

}  // namespace ng::kernels
