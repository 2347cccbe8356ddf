// Elementwise dtype conversion (rules in convert.hpp). Plain loops: conversions are memory-bound
// and the compiler vectorises the common ones.
#include <cstring>

#include "core/error.hpp"
#include "kernels/convert.hpp"
#include "kernels/kernels.hpp"

namespace ng::kernels {

void cast(DType from, DType to, int64_t n, const void *x, void *out) {
    check_dtype(from, "cast source");
    check_dtype(to, "cast target");
    if (n < 0) throw invalid_argument("cast: negative length ", n);
    if (from == to) {
        if (n > 0 && out != x) std::memmove(out, x, static_cast<size_t>(n) * dtype_size(from));
        return;
    }
    visit_dtype(from, [&](auto from_tag) {
        using From = decltype(from_tag);
        auto src = static_cast<const From *>(x);
        visit_dtype(to, [&](auto to_tag) {
            using To = decltype(to_tag);
            auto dst = static_cast<To *>(out);
            if (to == NG_BOOL || from == NG_BOOL)  // any nonzero byte of a bool is true
                for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(src[i] != From(0));
            else
                for (int64_t i = 0; i < n; ++i) dst[i] = convert_value<To>(src[i]);
        });
    });
}

}  // namespace ng::kernels
