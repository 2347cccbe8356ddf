// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the elementwise
// math functions on vectors that xsimd lacks or gets wrong: NaN-propagating extrema, exp, tanh,
// sin and cos kept inside xsimd's defined domain, fused multiply-adds, the fast float exp and tanh.
#pragma once

#include <immintrin.h>
#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>

namespace ng::kernels {
namespace {

// ---- NaN-propagating extrema (NumPy's maximum/minimum)
// -------------------------------------------

template <class B>
inline B maximum_nan(B a, B b) {
    return xsimd::select(xsimd::isnan(a), a, xsimd::select(a > b, a, b));
}
template <class B>
inline B minimum_nan(B a, B b) {
    return xsimd::select(xsimd::isnan(a), a, xsimd::select(a < b, a, b));
}

// ---- double exp and tanh, kept inside xsimd's defined domain ----------------------------------

// xsimd's double exp converts round(x / ln2) to int64 one lane at a time where the instruction
// set has no vector conversion (SSE2, AVX2): for NaN, or |x| beyond 2^63 ln2, that conversion is
// undefined behaviour. exp is 0 below -746 and inf above 710, so the argument is clipped to
// +-1000 and NaN lanes are computed from 0, then put back.
template <class Arch>
inline xsimd::batch<double, Arch> exp_double(xsimd::batch<double, Arch> v) {
    using B = xsimd::batch<double, Arch>;
    const auto nan = xsimd::isnan(v);
    const B r = xsimd::exp(xsimd::select(nan, B(0.), xsimd::clip(v, B(-1000.), B(1000.))));
    return xsimd::select(nan, v, r);
}

// The same for xsimd's double tanh, which calls exp(2|x|): tanh is exactly +-1 in double beyond
// |x| = 20, so +-40 changes no result.
template <class Arch>
inline xsimd::batch<double, Arch> tanh_double(xsimd::batch<double, Arch> v) {
    using B = xsimd::batch<double, Arch>;
    const auto nan = xsimd::isnan(v);
    const B r = xsimd::tanh(xsimd::select(nan, B(0.), xsimd::clip(v, B(-40.), B(40.))));
    return xsimd::select(nan, v, r);
}

// sin or cos. Beyond 64 pi (float) or 2^18 pi (double), and for NaN, xsimd reduces the argument
// lane by lane with a routine that shifts negative integers left (undefined behaviour) for
// arguments below 2^23; such batches go to libm lane by lane instead, as xsimd would have gone
// lane by lane anyway.
template <bool Sin, class Arch, class T>
inline xsimd::batch<T, Arch> sin_or_cos(xsimd::batch<T, Arch> v) {
    using B = xsimd::batch<T, Arch>;
    if (xsimd::all(xsimd::abs(v) <= xsimd::constants::mediumpi<B>()))
        return Sin ? xsimd::sin(v) : xsimd::cos(v);
    alignas(64) T lanes[B::size];
    v.store_aligned(lanes);
    for (T &x : lanes)
        x = static_cast<T>(Sin ? __builtin_sin(double(x)) : __builtin_cos(double(x)));
    return B::load_aligned(lanes);
}

// exp for either float type (float's conversions are vector instructions everywhere).
template <class Arch, class T>
inline xsimd::batch<T, Arch> exp_any(xsimd::batch<T, Arch> v) {
    if constexpr (std::is_same_v<T, double>)
        return exp_double<Arch>(v);
    else
        return xsimd::exp(v);
}

// ---- fused multiply-adds -----------------------------------------------------------------------

// x y + z in one rounding wherever the instruction set has it (z - x y is x (-y) + z: the callers
// negate a constant, which is exact). xsimd 8.1 has its own only for the fma3 architectures: on
// avx512f its fma is a product and a sum, fused or not as the optimiser pleases (fused at -O2, not
// at the -O1 of the sanitizer builds), so AVX-512 calls the intrinsic itself. On SSE2 it is a
// product and a sum (kFusedMultiplyAdd below).
template <class Arch, class T>
inline xsimd::batch<T, Arch> multiply_add(xsimd::batch<T, Arch> x, xsimd::batch<T, Arch> y,
                                          xsimd::batch<T, Arch> z) {
    if constexpr (std::is_same_v<Arch, xsimd::avx512f> && std::is_same_v<T, float>)
        return _mm512_fmadd_ps(x, y, z);
    else if constexpr (std::is_same_v<Arch, xsimd::avx512f>)
        return _mm512_fmadd_pd(x, y, z);
    else
        return xsimd::fma(x, y, z);
}

// ---- float tanh ------------------------------------------------------------------------------

// Whether multiply_add is fused on Arch (one rounding): so on the AVX2 (fma3) and AVX-512 tables,
// emulated by a product and a sum on SSE2.
template <class Arch>
constexpr bool kFusedMultiplyAdd = !std::is_same_v<Arch, xsimd::sse2>;

// t = k ln2 + r with |r| <= ln2/2 (Cody-Waite: k * ln2_hi is exact for |k| < 2^15, ln2_hi has
// 9 significant bits) and 2^k, for the float exp-like functions below, for t whose k lies in
// [-127, 128] (2^-127 comes out as +0). k is rounded by adding 1.5 * 2^23 + 127 (a float of that
// size has no fraction bits), which leaves k + 127 in the low bits of the sum, ready to be shifted
// into the exponent field: two instructions fewer than a conversion to integers and back.
// OnePart, where multiply-adds are fused: r = t - k ln2 in one fused operation with the float ln2
// instead (k ln2 is not rounded, and the float ln2 is 1.9e-9 off, so r is off by k 1.9e-9), for
// callers that this error does not reach; unfused (SSE2), k ln2 would be rounded, so the two
// parts stay.
// Half: t is given as its half h = t / 2, and the results are 2^(k+1) and r / 2. Every constant is
// the one above times a power of two (the bias 128 instead of 127), so k is the same and each
// result is exactly the double or the half of the one above, bit for bit, without the operation
// that would make t = h + h: one instruction fewer for tanh, whose expm1 takes 2|x|.
template <class Arch>
struct Ln2Reduced {
    xsimd::batch<float, Arch> two_k;  // 2^k, or 2^(k+1) for Half
    xsimd::batch<float, Arch> r;      // r, or r / 2 for Half
};
template <class Arch, bool OnePart = false, bool Half = false>
inline Ln2Reduced<Arch> reduce_by_ln2(xsimd::batch<float, Arch> t) {
    using B = xsimd::batch<float, Arch>;
    using I = xsimd::batch<int32_t, Arch>;
    constexpr float scale = Half ? 2.f : 1.f;  // of t's multiplier; r's constants are divided by it
    const B magic(12582912.f + (Half ? 128.f : 127.f));
    const B biased = multiply_add(t, B(scale * 1.44269504088896341f), magic);
    const B k = biased - magic;
    B r;
    if constexpr (OnePart && kFusedMultiplyAdd<Arch>) {
        r = multiply_add(k, B(-0.693147180559945309f / scale), t);
    } else {
        r = multiply_add(k, B(-0.693359375f / scale), t);
        r = multiply_add(k, B(2.12194440e-4f / scale), r);
    }
    return {xsimd::bitwise_cast<B>(xsimd::bitwise_cast<I>(biased) << 23), r};
}

// tanh for float from one expm1: tanh(|x|) = e / (e + 2) with e = expm1(2|x|) >= 0, the sign put
// back at the end. Nothing cancels for small |x| (e ~ 2|x|, no 1 - 2/(...)), so one formula holds
// everywhere and no second branch is evaluated (xsimd's tanh computes a polynomial and an exp for
// every value and selects). expm1(t): t = k ln2 + r with |r| <= ln2/2 and
// expm1(t) = 2^k expm1(r) + (2^k - 1), expm1(r) = r + r^2 q(r) with q of degree 5 fitted for the
// least largest relative error of expm1 over that interval (6e-9 with q's float coefficients;
// the Taylor series needs degree 6). |x| is clamped to 20, where e / (e + 2) is already 1 in
// float and 2^k stays finite. Within 2 ulp of tanh in double over a dense sweep of float32
// (test_tanh_float_sweep).
//
// The reduction takes reduce_by_ln2's one part where multiply-adds are fused: r off by
// k 1.9e-9 moves tanh by less than 0.1 ulp for every k (tanh depends less on e the larger e is).
// The fitted q and the one-part reduction make a vector of tanh faster (in the cache:
// bench_ab --threads 1 --quick --only tanh_fma). The reduction is given |x| rather than 2|x|
// (reduce_by_ln2's Half), so the polynomial runs on s = r / 2 and gives expm1(r) / 2 =
// s + s^2 2q(2s): q's coefficient of r^i times 2^(i+1), each step the exact half or a
// power-of-two multiple of the step in r, so the result is the same bits as from r with one
// instruction fewer.
template <class Arch>
inline xsimd::batch<float, Arch> tanh_float(xsimd::batch<float, Arch> x) {
    using B = xsimd::batch<float, Arch>;
    // min(20, NaN) is NaN: the x86 min returns its second operand when either is NaN, and NaN
    // then flows through every step below.
    const Ln2Reduced<Arch> red =
        reduce_by_ln2<Arch, true, true>(xsimd::min(B(20.f), xsimd::abs(x)));
    const B s = red.r;
    // 2q(2s) by Estrin's scheme: three independent pairs of terms combined in s^2, so that the
    // longest chain of dependent operations is three multiply-adds after s^2 instead of five.
    const B s2 = s * s;
    const B q45 = multiply_add(B(0x1.9fed72p-7f), s, B(0x1.6d42b0p-5f));
    const B q23 = multiply_add(B(0x1.11119cp-3f), s, B(0x1.5554eap-2f));
    const B q01 = multiply_add(B(0x1.555556p-1f), s, B(1.f));
    const B q = multiply_add(multiply_add(q45, s2, q23), s2, q01);
    const B half_p = multiply_add(q, s2, s);  // expm1(r) / 2
    const B two_k1 = red.two_k;               // 2^(k+1)
    B e = multiply_add(two_k1, half_p, multiply_add(two_k1, B(0.5f), B(-1.f)));
    // e / (e + 2) has its sign bit clear (e >= +0, and a NaN from |x| keeps a clear sign), so
    // x's sign goes on with one xor: copysign would clear the bit first.
    return (e / (e + B(2.f))) ^ (x & B(-0.f));
}

// exp(x) for float x <= 0 or NaN (softmax's x - max): x = k ln2 + r, |r| <= ln2/2, exp(r) =
// 1 + r q(r) with q of degree 5 fitted for the least largest relative error over that interval
// (2e-9, evaluated in float within 1.2 ulp of exp in double, as the Taylor series to r^7 but in
// six fused multiply-adds instead of eight operations), times 2^k. x is raised to -88 first,
// where k = -127 makes 2^k the bits of +0: results below the smallest normal float (1.2e-38) come
// out as 0 or within 1.2e-38 of their value, and -inf gives 0. About half the instructions of
// xsimd's exp, which also handles overflow and subnormal results.
template <class Arch>
inline xsimd::batch<float, Arch> exp_nonpositive_float(xsimd::batch<float, Arch> x) {
    using B = xsimd::batch<float, Arch>;
    // max(-88, NaN) is NaN (the x86 max returns its second operand when either is NaN).
    const Ln2Reduced<Arch> red = reduce_by_ln2(xsimd::max(B(-88.f), x));
    const B r = red.r;
    B q = B(1.3843588531017303e-3f);
    q = multiply_add(q, r, B(8.374194614589214e-3f));
    q = multiply_add(q, r, B(4.166800528764725e-2f));
    q = multiply_add(q, r, B(1.6666430234909058e-1f));
    q = multiply_add(q, r, B(4.999999403953552e-1f));
    q = multiply_add(q, r, B(1.f));
    return multiply_add(q, r, B(1.f)) * red.two_k;
}

// 2^(j/16) for j = 0..15, each rounded to float.
alignas(64) constexpr float kExp2Sixteenths[16] = {
    0x1p+0f,        0x1.0b5586p+0f, 0x1.172b84p+0f, 0x1.2387a6p+0f, 0x1.306fe0p+0f, 0x1.3dea64p+0f,
    0x1.4bfdaep+0f, 0x1.5ab07ep+0f, 0x1.6a09e6p+0f, 0x1.7a1148p+0f, 0x1.8ace54p+0f, 0x1.9c4918p+0f,
    0x1.ae89fap+0f, 0x1.c199bep+0f, 0x1.d5818ep+0f, 0x1.ea4afap+0f};

// The table of exp_narrow_float on AVX2 (eight lanes): entry j holds the bits of 2^(j/8) (the
// even sixteenths) less j << 20. exp_narrow_float adds the bits of K = 8 k + j shifted by 20,
// which are k in the exponent field plus that same j below it, so the sum is the bits of 2^k
// 2^(j/8) without a mask to clear j: one instruction fewer per vector, the same bits, and a
// faster softmax (bench_ab --threads 1 --only softmax, against a build with the mask).
struct Exp2EighthsBits {
    static constexpr int kShift = 20;
    alignas(32) int32_t bits[8] = {};
    constexpr Exp2EighthsBits() {
        for (int j = 0; j < 8; ++j)
            bits[j] = int32_t(__builtin_bit_cast(uint32_t, kExp2Sixteenths[2 * j]) -
                              (uint32_t(j) << kShift));
    }
};
inline constexpr Exp2EighthsBits kExp2EighthsBits{};

// exp(x) for float -87 <= x <= 0 or NaN, where softmax knows the row's values lie within 87 of
// its max. x = K ln2 / N + r with K = N k + j the integer nearest N x / ln2 and |r| <= ln2 / 2N,
// so exp(x) = 2^k 2^(j/N) exp(r): 2^(j/N) from a table in a register, 2^k (k >= -126) applied
// exactly, exp(r) = 1 + r q(r) from the Taylor series. AVX-512: N = 16, the series to r^3
// (truncation below 1e-8 relative), 2^k by vscalefps at the end. AVX2: N = 8, |r| <= ln2 / 16, the
// series to r^4, 2^k added to the table entry's exponent. Six fused multiply-adds and products
// where the polynomial of exp_nonpositive_float takes nine, which makes softmax's exponentials
// and their sum faster (bench_ab --threads 1 --only softmax). r = x - K ln2 / N with one
// constant in one fused operation: the float ln2 is off by 1.9e-9, so r is off by at most |K| / N
// times that (2.4e-7 at x = -87), far inside softmax's own error (a float sum of n values, and
// x - max rounded to eps |x - max|). Within 1.1 ulp of exp in double for -5 <= x <= 0 and 5 ulp
// down to -87, with either table. A NaN x gives NaN through r.
//
// On AVX-512 any x <= 0 will do, wherever the result is finite: below -87 vscalefps rounds the
// result into the subnormals, and below -104 to 0. Far below (under about -17,000) the reduction
// itself breaks down, but the result still comes out as 0 unless it overflows: +inf or NaN for
// -inf and for x below about -1e20. kClampLow raises x to -104 first, where every result is
// right; it costs one vector operation, which makes softmax slower (bench_ab --threads 1 --only
// softmax, against a build that clamps every row): softmax clamps only rows that need it.
template <class Arch, bool kClampLow = false>
inline xsimd::batch<float, Arch> exp_narrow_float(xsimd::batch<float, Arch> x) {
    static_assert(kFusedMultiplyAdd<Arch>, "unfused, k ln2 would be rounded to 2^-18 of 87");
    using B = xsimd::batch<float, Arch>;
    using I = xsimd::batch<int32_t, Arch>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        // Adding 1.5 * 2^19, whose float's last bit is 1/16, rounds x / ln2 to K / 16 = k + j / 16
        // and leaves j in the sum's low four bits. 2^(j/16) (1 + r q) is scaled by 2^k last
        // (vscalefps takes the floor of K / 16): one instruction fewer than building 2^k 2^(j/16)
        // first, as AVX2 does below, and no slower (bench_ab --threads 1 --only softmax). The
        // same bits wherever 2^k 2^(j/16) r is a normal float; over every float from -87 to 0,
        // 31,756 results differ, all below -80.5, where that product was subnormal.
        const B magic(786432.f);
        // max(-104, NaN) is NaN (the x86 max returns its second operand when either is NaN).
        if constexpr (kClampLow) x = xsimd::max(B(-104.f), x);
        const B biased = multiply_add(x, B(1.44269504088896341f), magic);
        const B sixteenths = biased - magic;
        const B r = multiply_add(sixteenths, B(-0.693147180559945309f), x);
        const B fraction =
            _mm512_permutexvar_ps(xsimd::bitwise_cast<I>(biased), B::load_aligned(kExp2Sixteenths));
        B q = multiply_add(B(1.f / 6), r, B(0.5f));  // (exp(r) - 1) / r
        q = multiply_add(q, r, B(1.f));
        return _mm512_scalef_ps(multiply_add(fraction * r, q, fraction), sixteenths);
    } else {
        static_assert(std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>, "AVX-512 or AVX2 only");
        static_assert(!kClampLow, "AVX2 builds 2^k from bits: it takes x >= -87 only");
        // Adding 1.5 * 2^23 rounds 8 x / ln2 to the integer 8 k + j, which it leaves in the low
        // bits of the sum.
        const B magic(12582912.f);
        const B biased = multiply_add(x, B(8.f * 1.44269504088896341f), magic);
        const B r = multiply_add(biased - magic, B(-0.693147180559945309f / 8.f), x);
        const I bits = xsimd::bitwise_cast<I>(biased);
        // bits shifted so that j ends just below the exponent field: k in the exponent field (the
        // magic's own bits shift out of the word) and j below it, which the table's entry takes
        // back.
        const I shifted = bits << Exp2EighthsBits::kShift;
        const B scale = xsimd::bitwise_cast<B>(
            I(_mm256_permutevar8x32_epi32(I::load_aligned(kExp2EighthsBits.bits), bits)) + shifted);
        B q = multiply_add(B(1.f / 24), r, B(1.f / 6));  // (exp(r) - 1) / r
        q = multiply_add(q, r, B(0.5f));
        q = multiply_add(q, r, B(1.f));
        return multiply_add(scale * r, q, scale);
    }
}
}  // namespace
}  // namespace ng::kernels
