// Counter-based random numbers (Philox4x32-10, Salmon et al., "Parallel random numbers: as easy
// as 1, 2, 3", SC 2011): element i of a draw is a pure function of (seed, draw, stream, i), so
// values do not depend on threads or on the order elements are computed in.
#include <cmath>
#include <cstdint>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "kernels/kernels.hpp"

namespace ng::kernels {
namespace {

struct Block {
    uint32_t w[4];
};

inline void mul_hi_lo(uint32_t a, uint32_t b, uint32_t &hi, uint32_t &lo) {
    const uint64_t p = static_cast<uint64_t>(a) * b;
    hi = static_cast<uint32_t>(p >> 32);
    lo = static_cast<uint32_t>(p);
}

Block philox(Block c, uint32_t k0, uint32_t k1) {
    for (int round = 0; round < 10; ++round) {
        uint32_t hi0, lo0, hi1, lo1;
        mul_hi_lo(0xD2511F53u, c.w[0], hi0, lo0);
        mul_hi_lo(0xCD9E8D57u, c.w[2], hi1, lo1);
        c = Block{{hi1 ^ c.w[1] ^ k0, lo1, hi0 ^ c.w[3] ^ k1, lo0}};
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return c;
}

// A double in [0, 1) from 53 random bits.
inline double unit(uint32_t hi, uint32_t lo) {
    return static_cast<double>(((static_cast<uint64_t>(hi) << 32) | lo) >> 11) * 0x1p-53;
}

}  // namespace

void random_fill(RandomFn f, DType dt, int64_t n, const RandomKey &key, double a, double b,
                 void *out) {
    if (!dtype_is_float(dt)) throw dtype_error("random values need a float dtype");
    if (n < 0) throw internal_error("negative element count ", n);
    const uint32_t k0 = static_cast<uint32_t>(key.seed);
    const uint32_t k1 =
        static_cast<uint32_t>(key.seed >> 32) ^ static_cast<uint32_t>(key.draw >> 32);
    visit_dtype(dt, [&](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_floating_point_v<T>) {
            T *o = static_cast<T *>(out);
            for (int64_t i = 0; i < n; ++i) {
                const Block r = philox(
                    Block{{static_cast<uint32_t>(i),
                           static_cast<uint32_t>(static_cast<uint64_t>(i) >> 32),
                           static_cast<uint32_t>(key.draw), static_cast<uint32_t>(key.stream)}},
                    k0, k1);
                double v;
                if (f == RandomFn::Uniform) {
                    v = a + (b - a) * unit(r.w[0], r.w[1]);
                } else {
                    // Box-Muller; u1 in (0, 1] so the logarithm is finite.
                    const double u1 = 1.0 - unit(r.w[0], r.w[1]);
                    const double u2 = unit(r.w[2], r.w[3]);
                    v = a + b * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
                }
                T t = static_cast<T>(v);
                // Rounding to the dtype must not reach the excluded upper bound.
                if (f == RandomFn::Uniform && !(t < static_cast<T>(b)))
                    t = std::nextafter(static_cast<T>(b), static_cast<T>(a));
                o[i] = t;
            }
        }
    });
}

}  // namespace ng::kernels
