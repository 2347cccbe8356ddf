// Public structs that may grow (options, stats) start with `size_t struct_size`, the size the
// caller compiled them with. The library reads and writes only that many bytes, so a program
// built against an older header (a smaller struct) and one built against a newer header (a
// larger struct) both work with this library:
// - smaller than the first published struct: refused (struct_size was not set);
// - smaller than this library's struct: the missing trailing fields keep their defaults;
// - larger: the unknown trailing bytes must be zero when read (a field this library cannot
//   honour is refused, not ignored) and are zeroed when written.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "core/error.hpp"

namespace ng::capi {

inline void check_struct_size(size_t size, size_t min_size, const char *arg) {
    if (size < min_size)
        throw invalid_argument(arg, "->struct_size is ", size, ", below the ", min_size,
                               " bytes of the smallest version of the struct (set it to sizeof "
                               "the struct)");
}

// The caller's struct as this library's T: fields it did not have keep `defaults`.
template <class T>
T read_sized(const T &in, size_t min_size, const T &defaults, const char *arg) {
    const size_t size = in.struct_size;
    check_struct_size(size, min_size, arg);
    const auto *bytes = reinterpret_cast<const unsigned char *>(&in);
    for (size_t i = sizeof(T); i < size; ++i)
        if (bytes[i] != 0)
            throw unsupported(arg, " sets fields beyond the ", sizeof(T),
                              " bytes this version of the library knows (struct_size ", size, ")");
    T out = defaults;
    std::memcpy(&out, &in, std::min(size, sizeof(T)));
    out.struct_size = sizeof(T);
    return out;
}

// Writes `value` into the caller's struct of `size` bytes (its struct_size is set to `size`).
template <class T>
void write_sized(T *out, size_t size, size_t min_size, const T &value, const char *arg) {
    check_struct_size(size, min_size, arg);
    T copy = value;
    copy.struct_size = size;
    std::memcpy(out, &copy, std::min(size, sizeof(T)));
    if (size > sizeof(T))
        std::memset(reinterpret_cast<unsigned char *>(out) + sizeof(T), 0, size - sizeof(T));
}

}  // namespace ng::capi
