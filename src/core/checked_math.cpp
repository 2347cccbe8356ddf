#include "core/checked_math.hpp"

#include <cstdint>

namespace ng {

int64_t checked_numel(const std::vector<int64_t> &shape, const char *what) {
    // The product counting 0 as 1 must fit, so an empty tensor has row-major strides like any
    // other; the element count is 0 as soon as one dimension is.
    int64_t reach = 1;
    bool empty = false;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] < 0)
            throw invalid_argument(what, " dimension ", i, " is negative (", shape[i], ")");
        if (shape[i] == 0) empty = true;
        reach = checked_mul(reach, shape[i] == 0 ? int64_t{1} : shape[i], what);
    }
    return empty ? 0 : reach;
}

size_t checked_bytes(int64_t numel, size_t elem_size, const char *what) {
    int64_t bytes = checked_mul(numel, static_cast<int64_t>(elem_size), what);
    if (static_cast<uint64_t>(bytes) > static_cast<uint64_t>(PTRDIFF_MAX))
        throw invalid_argument(what, " needs ", bytes, " bytes, more than can be addressed");
    return static_cast<size_t>(bytes);
}

}  // namespace ng
