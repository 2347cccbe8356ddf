#include "kernels/iteration.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "core/checked_math.hpp"
#include "core/error.hpp"

namespace ng::kernels {

void IterationSpace::assign(const char *driver, const std::vector<int64_t> &shape,
                            std::initializer_list<const Strided *> first,
                            const std::vector<Strided> &rest) {
    reset(driver, shape);
    for (const Strided *s : first) add_operand(driver, s->strides);
    for (const Strided &s : rest) add_operand(driver, s.strides);
}

namespace {
template <class Body>
void by_size(size_t size, Body &&body) {
    switch (size) {
    case 1: return body(uint8_t{});
    case 4: return body(uint32_t{});
    case 8: return body(uint64_t{});
    default: throw internal_error("strided copy of ", size, "-byte elements");
    }
}
}  // namespace

void gather(size_t size, int64_t n, const void *src, int64_t src_stride, void *dst) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        auto s = static_cast<const T *>(src);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i] = s[i * src_stride];
    });
}

void scatter(size_t size, int64_t n, const void *src, void *dst, int64_t dst_stride) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        auto s = static_cast<const T *>(src);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = s[i];
    });
}

void broadcast(size_t size, int64_t n, const void *value, void *dst, int64_t dst_stride) {
    by_size(size, [&](auto tag) {
        using T = decltype(tag);
        T v;
        std::memcpy(&v, value, sizeof v);
        auto d = static_cast<T *>(dst);
        for (int64_t i = 0; i < n; ++i) d[i * dst_stride] = v;
    });
}

}  // namespace ng::kernels
