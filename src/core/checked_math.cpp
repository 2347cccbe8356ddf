#include "core/checked_math.hpp"

#include <cstdint>

namespace ng {

int64_t checked_numel(const std::vector<int64_t> &shape, const char *what) {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] < 0)
            throw invalid_argument(what, " dimension ", i, " is negative (", shape[i], ")");
        n = checked_mul(n, shape[i], what);
    }
    return n;
}

size_t checked_bytes(int64_t numel, size_t elem_size, const char *what) {
    int64_t bytes = checked_mul(numel, static_cast<int64_t>(elem_size), what);
    if (static_cast<uint64_t>(bytes) > static_cast<uint64_t>(PTRDIFF_MAX))
        throw invalid_argument(what, " needs ", bytes, " bytes, more than can be addressed");
    return static_cast<size_t>(bytes);
}

}  // namespace ng
