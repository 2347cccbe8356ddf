// Message building for ng::Error: concatenates strings and numbers without iostream overhead
// at every call site.
#pragma once

#include <sstream>
#include <string>

namespace ng {

template <class... Parts>
std::string concat(const Parts &...parts) {
    std::ostringstream out;
    (out << ... << parts);
    return out.str();
}

template <class... Parts>
Error invalid_argument(const Parts &...parts) {
    return Error(NG_ERR_INVALID_ARGUMENT, concat(parts...));
}
template <class... Parts>
Error axes_error(const Parts &...parts) {
    return Error(NG_ERR_AXES, concat(parts...));
}
template <class... Parts>
Error dtype_error(const Parts &...parts) {
    return Error(NG_ERR_DTYPE, concat(parts...));
}
template <class... Parts>
Error unsupported(const Parts &...parts) {
    return Error(NG_ERR_UNSUPPORTED, concat(parts...));
}
template <class... Parts>
Error state_error(const Parts &...parts) {
    return Error(NG_ERR_STATE, concat(parts...));
}
template <class... Parts>
Error not_found(const Parts &...parts) {
    return Error(NG_ERR_NOT_FOUND, concat(parts...));
}
template <class... Parts>
Error io_error(const Parts &...parts) {
    return Error(NG_ERR_IO, concat(parts...));
}
template <class... Parts>
Error format_error(const Parts &...parts) {
    return Error(NG_ERR_FORMAT, concat(parts...));
}
template <class... Parts>
Error internal_error(const Parts &...parts) {
    return Error(NG_ERR_INTERNAL, concat(parts...));
}

}  // namespace ng
