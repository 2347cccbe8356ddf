// Shared by the kernel tests: CMocka from C++, deterministic data, typed buffers with a chosen
// misalignment, and float comparison in ulps.
#pragma once

// Every C++ header comes before cmocka.h, whose macros (fail, ...) clash with the standard library.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <set>
#include <setjmp.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "kernels/kernel_names.hpp"
#include "kernels/kernels.hpp"
#include "support/reference_kernels.hpp"
#include "kernels/vector_table.hpp"
#include "kernels/thread_pool.hpp"

extern "C" {
#include <cmocka.h>
}

namespace kt {

using ng::DType;

// The instruction-set tables of the kernels that this CPU can run.
inline std::vector<const ng::kernels::VectorTable *> tables() {
    using namespace ng::kernels;
    std::vector<const VectorTable *> t = {&vector_table_sse2};
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        t.push_back(&vector_table_avx2);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
        t.push_back(&vector_table_avx512);
    return t;
}

inline const std::vector<DType> &all_numeric() {
    static const std::vector<DType> v = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64, NG_UINT8};
    return v;
}
inline const std::vector<int64_t> &odd_lengths() {
    static const std::vector<int64_t> v = {0, 1, 7, 1023, 4097};
    return v;
}

// Bytes for n elements of dtype dt starting `misalign` bytes past a 64-byte boundary, with room
// after the end to catch overruns (checked by guard()).
class Buffer {
public:
    Buffer(DType dt, int64_t n, size_t misalign = 0)
        : dt_(dt),
          n_(n),
          size_(ng::dtype_size(dt)),
          bytes_(64 + misalign + size_t(n) * size_ + 64, 0xA5) {
        auto base = reinterpret_cast<uintptr_t>(bytes_.data());
        start_ = (64 - base % 64) % 64 + misalign;
    }
    void *data() { return bytes_.data() + start_; }
    const void *data() const { return bytes_.data() + start_; }
    template <class T>
    T *as() {
        return reinterpret_cast<T *>(data());
    }
    int64_t size() const { return n_; }
    DType dtype() const { return dt_; }
    // The 64 bytes past the end are untouched.
    bool guard_intact() const {
        for (size_t i = start_ + size_t(n_) * size_;
             i < start_ + size_t(n_) * size_ + 64 && i < bytes_.size(); ++i)
            if (bytes_[i] != 0xA5) return false;
        return true;
    }
    // Element i as double (bool/uint8 as 0..255).
    double get(int64_t i) const {
        double v = 0;
        ng::visit_dtype(dt_, [&](auto tag) {
            using T = decltype(tag);
            T x;
            std::memcpy(&x, bytes_.data() + start_ + size_t(i) * size_, sizeof x);
            v = double(x);
        });
        return v;
    }
    void set(int64_t i, double value) {
        ng::visit_dtype(dt_, [&](auto tag) {
            using T = decltype(tag);
            // Integers wrap as the kernels' integer arithmetic does (-2 as uint8 is 254).
            T x;
            if constexpr (std::is_integral_v<T>)
                x = T(int64_t(value));
            else
                x = T(value);
            std::memcpy(bytes_.data() + start_ + size_t(i) * size_, &x, sizeof x);
        });
    }

private:
    DType dt_;
    int64_t n_;
    size_t size_;
    std::vector<unsigned char> bytes_;
    size_t start_;
};

// Deterministic values suited to a dtype: floats in [lo, hi), integers in a small symmetric
// range (non-negative for uint8) so products and powers stay meaningful. The draws are splitmix64's
// (one seed, one sequence), written with the dtype chosen once: the inputs are large, and a slower
// generator behind a per-element dtype switch took most of these tests' time under valgrind and
// the sanitizers.
inline void fill_random(Buffer &b, uint32_t seed, double lo = -4, double hi = 4) {
    uint64_t state = seed;
    auto draw = [&state] {
        uint64_t z = state += 0x9E3779B97F4A7C15u;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    };
    const DType dt = b.dtype();
    ng::visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        auto *out = static_cast<unsigned char *>(b.data());
        for (int64_t i = 0; i < b.size(); ++i) {
            T x;
            if constexpr (std::is_floating_point_v<T>)
                x = T(lo + (hi - lo) * double(draw() >> 11) * 0x1p-53);
            else if (dt == NG_UINT8)
                x = T(draw() % 256);
            else if (dt == NG_BOOL)
                x = T(draw() % 2);
            else
                x = T(int64_t(draw() % 2001) - 1000);
            std::memcpy(out + size_t(i) * sizeof x, &x, sizeof x);  // b may be misaligned for T
        }
    });
}

// Distance in units in the last place between two floats of type T (0 for equal values, for
// two NaNs and for +0/-0).
template <class T>
int64_t ulp_distance(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
    if (a == b) return 0;
    using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
    I ia, ib;
    std::memcpy(&ia, &a, sizeof a);
    std::memcpy(&ib, &b, sizeof b);
    // Map the sign-magnitude representation onto a monotonic integer line.
    int64_t la = ia < 0 ? int64_t(std::numeric_limits<I>::min()) - ia : ia;
    int64_t lb = ib < 0 ? int64_t(std::numeric_limits<I>::min()) - ib : ib;
    return la > lb ? la - lb : lb - la;
}

// Element i of two buffers of the same dtype agree: bitwise for integers, within `ulps` for
// floats. Reports the first mismatch with context and fails the test.
inline void expect_same(const Buffer &got, const Buffer &want, int64_t ulps,
                        const std::string &what) {
    assert_int_equal(got.size(), want.size());
    for (int64_t i = 0; i < got.size(); ++i) {
        int64_t d = 0;
        ng::visit_dtype(got.dtype(), [&](auto tag) {
            using T = decltype(tag);
            T a, b;
            std::memcpy(&a, static_cast<const char *>(got.data()) + i * sizeof(T), sizeof a);
            std::memcpy(&b, static_cast<const char *>(want.data()) + i * sizeof(T), sizeof b);
            if constexpr (std::is_floating_point_v<T>)
                d = ulp_distance(a, b);
            else
                d = a == b ? 0 : INT64_MAX;
        });
        if (d > ulps)
            fail_msg("%s: element %lld of %lld: got %.17g, want %.17g (%lld ulp > %lld)",
                     what.c_str(), (long long)i, (long long)got.size(), got.get(i), want.get(i),
                     (long long)d, (long long)ulps);
    }
    if (!got.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
}

inline void expect_near(double got, double want, double rel, const char *what) {
    if (std::isnan(want) && std::isnan(got)) return;
    double err = std::fabs(got - want), bound = rel * std::max(1.0, std::fabs(want));
    if (!(err <= bound))
        fail_msg("%s: got %.17g, want %.17g (error %.3g > %.3g)", what, got, want, err, bound);
}

// Runs f and checks it throws ng::Error with `status`; returns the message.
template <class F>
std::string expect_error(ng_status_t status, F &&f) {
    try {
        f();
    } catch (const ng::Error &e) {
        if (e.status() != status) fail_msg("status %d, want %d: %s", e.status(), status, e.what());
        return e.what();
    }
    fail_msg("no error thrown (want status %d)", status);
    return "";
}

inline void expect_contains(const std::string &text, const char *part) {
    if (text.find(part) == std::string::npos)
        fail_msg("\"%s\" does not mention \"%s\"", text.c_str(), part);
}

}  // namespace kt
