// The level-1 primitives, written once and instantiated per instruction set. Only the
// vector_ops_<isa>.cpp files include this header, each with its instruction set's compiler flags.
//
// Everything here has internal linkage (anonymous namespace) or is a template on the xsimd
// architecture, so no function compiled with AVX flags can be merged by the linker with a
// baseline copy of the same name. For the same reason this code calls no standard-library
// template that could be emitted out of line (no std::min, std::vector, error formatting):
// argument checks and error messages live in dispatch.cpp, which validated every request
// before it reaches a table.
#pragma once

// Every intrinsic, whatever this file's flags: load_first and store_first name AVX2 and AVX-512.
#include <immintrin.h>
#include <xsimd/xsimd.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/streaming.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {
namespace {

template <class T>
using Unsigned = std::make_unsigned_t<T>;

// ---- loop skeletons ----------------------------------------------------------------------------

// Calls body(i, unit_a, unit_b) with the steps as compile-time constants, so every combination of
// array / broadcast operands gets its own tight loop.
template <class Body>
inline void with_steps(int a_step, int b_step, Body &&body) {
    if (a_step && b_step)
        body(std::true_type{}, std::true_type{});
    else if (a_step)
        body(std::true_type{}, std::false_type{});
    else if (b_step)
        body(std::false_type{}, std::true_type{});
    else
        body(std::false_type{}, std::false_type{});
}

// The first n (0 < n < W) elements at p as a vector whose other lanes are zero, and the store of
// a vector's first n lanes: masked loads and stores on AVX2 and AVX-512, whose masked-off lanes
// are neither read nor written (nothing past the array's end is touched), a padded copy on SSE2.
// A tail of a few values takes a handful of instructions instead of two copy loops.
// first_lanes: the masks of the first n lanes, an AVX2 vector of all-ones lanes or AVX-512 bits.
template <class Arch, class T>
inline auto first_lanes(int64_t n) {
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>)
        return (1u << n) - 1;
    else if constexpr (std::is_same_v<T, float>)
        return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)),
                                  _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    else
        return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}

template <class Arch, class T>
inline xsimd::batch<T, Arch> load_first(const T *p, int64_t n) {
    using B = xsimd::batch<T, Arch>;
    constexpr bool is_float = std::is_same_v<T, float>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        if constexpr (is_float)
            return _mm512_maskz_loadu_ps(__mmask16(first_lanes<Arch, T>(n)), p);
        else
            return _mm512_maskz_loadu_pd(__mmask8(first_lanes<Arch, T>(n)), p);
    } else if constexpr (std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>) {
        if constexpr (is_float)
            return _mm256_maskload_ps(p, first_lanes<Arch, T>(n));
        else
            return _mm256_maskload_pd(p, first_lanes<Arch, T>(n));
    } else {
        alignas(64) T lanes[B::size] = {};
        for (int64_t j = 0; j < n; ++j) lanes[j] = p[j];
        return B::load_aligned(lanes);
    }
}

template <class Arch, class T>
inline void store_first(T *p, int64_t n, xsimd::batch<T, Arch> v) {
    using B = xsimd::batch<T, Arch>;
    constexpr bool is_float = std::is_same_v<T, float>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        if constexpr (is_float)
            _mm512_mask_storeu_ps(p, __mmask16(first_lanes<Arch, T>(n)), v);
        else
            _mm512_mask_storeu_pd(p, __mmask8(first_lanes<Arch, T>(n)), v);
    } else if constexpr (std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>) {
        if constexpr (is_float)
            _mm256_maskstore_ps(p, first_lanes<Arch, T>(n), v);
        else
            _mm256_maskstore_pd(p, first_lanes<Arch, T>(n), v);
    } else {
        alignas(64) T lanes[B::size];
        v.store_aligned(lanes);
        for (int64_t j = 0; j < n; ++j) p[j] = lanes[j];
    }
}

// v's first n (0 < n < W) lanes, the others `fill`: a tail's padding set to what the code after
// it needs (a max's -inf, zeros in a sum). A blend on AVX2, a masked move on AVX-512.
template <class Arch, class T>
inline xsimd::batch<T, Arch> keep_first(xsimd::batch<T, Arch> v, int64_t n, T fill) {
    using B = xsimd::batch<T, Arch>;
    constexpr bool is_float = std::is_same_v<T, float>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        if constexpr (is_float)
            return _mm512_mask_mov_ps(B(fill), __mmask16(first_lanes<Arch, T>(n)), v);
        else
            return _mm512_mask_mov_pd(B(fill), __mmask8(first_lanes<Arch, T>(n)), v);
    } else if constexpr (std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>) {
        if constexpr (is_float)
            return _mm256_blendv_ps(B(fill), v, _mm256_castsi256_ps(first_lanes<Arch, T>(n)));
        else
            return _mm256_blendv_pd(B(fill), v, _mm256_castsi256_pd(first_lanes<Arch, T>(n)));
    } else {
        alignas(64) T lanes[B::size];
        v.store_aligned(lanes);
        for (int64_t j = n; j < int64_t(B::size); ++j) lanes[j] = fill;
        return B::load_aligned(lanes);
    }
}

// The first n (0 < n < W) elements at p with the other lanes `fill`, reading only those n.
template <class Arch, class T>
inline xsimd::batch<T, Arch> load_first_or(const T *p, int64_t n, T fill) {
    using B = xsimd::batch<T, Arch>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        if constexpr (std::is_same_v<T, float>)
            return _mm512_mask_loadu_ps(B(fill), __mmask16(first_lanes<Arch, T>(n)), p);
        else
            return _mm512_mask_loadu_pd(B(fill), __mmask8(first_lanes<Arch, T>(n)), p);
    } else {
        return keep_first<Arch>(load_first<Arch>(p, n), n, fill);
    }
}

// The lanes of v folded by op halves onto halves (lane j + W/2 onto lane j, then j + W/4 onto j,
// ...): for sums, a tree over the lanes; for a max or a min of lanes without NaN, any order gives
// the same value.
template <class Arch, class T, class Op>
inline T fold_lanes(xsimd::batch<T, Arch> v, Op op) {
    constexpr int64_t W = xsimd::batch<T, Arch>::size;
    alignas(64) T lanes[W];
    v.store_aligned(lanes);
    for (int64_t width = W / 2; width >= 1; width /= 2)
        for (int64_t j = 0; j < width; ++j) lanes[j] = op(lanes[j], lanes[j + width]);
    return lanes[0];
}

template <class Arch, class T, class F>
inline void map_unary(int64_t n, const T *x, T *out, F f) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    int64_t i = 0;
    for (; i + W <= n; i += W) f(B::load_unaligned(x + i)).store_unaligned(out + i);
    if (i == n) return;
    // The tail goes through the same vector code, zero-padded, so every element gets the same
    // rounding whatever its position.
    store_first<Arch>(out + i, n - i, f(load_first<Arch>(x + i, n - i)));
}

// The loop bodies below copy the pointers and the length into locals first: xsimd's stores go
// through may-alias vector types (and bytes alias anything), so through the captured references
// the compiler reloaded every pointer after each store (16 instructions per vector of a product
// instead of 5).
template <class Arch, class T, class F>
inline void map_binary(int64_t n, const T *a, int a_step, const T *b, int b_step, T *out, F f) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    with_steps(a_step, b_step, [&](auto a_array, auto b_array) {
        const T *pa = a, *pb = b;
        T *po = out;
        const int64_t len = n;
        auto load = [](const T *p, int64_t i, auto is_array) {
            if constexpr (decltype(is_array)::value)
                return B::load_unaligned(p + i);
            else
                return B(*p);
        };
        int64_t i = 0;
        for (; i + W <= len; i += W)
            f(load(pa, i, a_array), load(pb, i, b_array)).store_unaligned(po + i);
        if (i == len) return;
        auto load_tail = [&](const T *p, auto is_array) {
            if constexpr (decltype(is_array)::value)
                return load_first<Arch>(p + i, len - i);
            else
                return B(*p);
        };
        store_first<Arch>(po + i, len - i, f(load_tail(pa, a_array), load_tail(pb, b_array)));
    });
}

// Plain elementwise loop for what has no vector form (integers, bytes); the compiler vectorises it
// with this translation unit's instruction set.
template <class T, class R, class F>
inline void scalar_binary(int64_t n, const T *a, int a_step, const T *b, int b_step, R *out, F f) {
    with_steps(a_step, b_step, [&](auto a_array, auto b_array) {
        const T *pa = a, *pb = b;
        R *po = out;
        const int64_t len = n;
        for (int64_t i = 0; i < len; ++i) po[i] = f(pa[a_array ? i : 0], pb[b_array ? i : 0]);
    });
}

template <class T, class F>
inline void scalar_unary(int64_t n, const T *x, T *out, F f) {
    for (int64_t i = 0; i < n; ++i) out[i] = f(x[i]);
}

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
// The fitted q and the one-part reduction take 12% off the time of a vector of tanh on an
// AVX-512 Zen 4 core. The reduction is given |x| rather than 2|x| (reduce_by_ln2's Half), so the
// polynomial runs on s = r / 2 and gives expm1(r) / 2 = s + s^2 2q(2s): q's coefficient of r^i
// times 2^(i+1), each step the exact half or a power-of-two multiple of the step in r, so the
// result is the same bits as from r with one instruction fewer.
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
// 2^(j/8) without a mask to clear j. One instruction fewer per vector: softmax of 4096 rows of
// 1024 floats at one thread took 2.6 to 5.7% less time (bench_ab, AVX-512 Zen 4 core, four
// processes, both orders, when AVX-512 took this path too), the same bits.
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
// where the polynomial of exp_nonpositive_float takes nine: 25% less time for softmax's
// exponentials and their sum on an AVX-512 Zen 4 core. r = x - K ln2 / N with one constant in one
// fused operation: the float ln2 is off by 1.9e-9, so r is off by at most |K| / N times that
// (2.4e-7 at x = -87), far inside softmax's own error (a float sum of n values, and x - max
// rounded to eps |x - max|). Within 1.1 ulp of exp in double for -5 <= x <= 0 and 5 ulp down to
// -87, with either table. A NaN x gives NaN through r.
//
// On AVX-512 any x <= 0 will do, wherever the result is finite: below -87 vscalefps rounds the
// result into the subnormals, and below -104 to 0. Far below (under about -17,000) the reduction
// itself breaks down, but the result still comes out as 0 unless it overflows: +inf or NaN for
// -inf and for x below about -1e20. kClampLow raises x to -104 first, where every result is
// right; it costs one vector operation, which made softmax of 4096 rows of 1024 floats at one
// thread take 3 to 10% more time (bench_ab, AVX-512 Zen 4 core, six processes, both orders).
template <class Arch, bool kClampLow = false>
inline xsimd::batch<float, Arch> exp_narrow_float(xsimd::batch<float, Arch> x) {
    static_assert(kFusedMultiplyAdd<Arch>, "unfused, k ln2 would be rounded to 2^-18 of 87");
    using B = xsimd::batch<float, Arch>;
    using I = xsimd::batch<int32_t, Arch>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        // Adding 1.5 * 2^19, whose float's last bit is 1/16, rounds x / ln2 to K / 16 = k + j / 16
        // and leaves j in the sum's low four bits. 2^(j/16) (1 + r q) is scaled by 2^k last
        // (vscalefps takes the floor of K / 16): one instruction fewer than building 2^k 2^(j/16)
        // first, as AVX2 does below; softmax of 4096 rows of 1024 floats at one thread took 0.956
        // to 1.001 of the time (bench_ab, AVX-512 Zen 4 core, six processes, both orders). The
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

// A non-temporal store of v to p (aligned to a vector): the line goes to memory through a
// write-combining buffer, without the cache first reading it. Weakly ordered: a writer fences
// (fence_streamed_stores) before anything else may read what it wrote.
template <class Arch, class T>
inline void store_streaming(T *p, xsimd::batch<T, Arch> v) {
    constexpr bool is_float = std::is_same_v<T, float>;
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) {
        if constexpr (is_float)
            _mm512_stream_ps(p, v);
        else
            _mm512_stream_pd(p, v);
    } else if constexpr (std::is_same_v<Arch, xsimd::sse2>) {
        if constexpr (is_float)
            _mm_stream_ps(p, v);
        else
            _mm_stream_pd(p, v);
    } else {
        if constexpr (is_float)
            _mm256_stream_ps(p, v);
        else
            _mm256_stream_pd(p, v);
    }
}

// ---- softmax rows ------------------------------------------------------------------------------

// The widest spread max - min of a float softmax row for exp_narrow_float.
constexpr float kNarrowSoftmaxRange = 87.f;

// The exponentials of a softmax row: every x - max of any row (Full), or, where fused
// multiply-adds exist, of a float row whose values lie within kNarrowSoftmaxRange of its max or,
// on AVX-512, of any float row whose exponentials come out finite (Narrow); on AVX-512, of any
// float row (NarrowClamped).
enum class RowExp { Full, Narrow, NarrowClamped };

// Where softmax takes a float row's exponentials by exp_narrow_float whatever the row's range:
// with AVX-512's vscalefps. A row goes unclamped, and again clamped only when its sum is not
// finite (-inf among its values, or values more than about 1e20 below its max; a NaN row stays
// NaN either way), so that no row needs its smallest value. Without the smallest value, softmax
// of 4096 rows of 1024 floats at one thread took 8 to 14% less time (bench_ab, AVX-512 Zen 4
// core, six processes, both orders). The results are the same bits whether a row went clamped or
// not (clamped, values below -104 give exactly 0, as they do unclamped when the sum is finite), so
// they do not depend on how threads split the rows.
template <class Arch, class T>
constexpr bool kSoftmaxNarrowAnyRow =
    std::conjunction_v<std::is_same<Arch, xsimd::avx512f>, std::is_same<T, float>>;

// Whether a softmax row's range needs its smallest value: where the narrow exponential takes only
// rows within kNarrowSoftmaxRange of their max (AVX2 with fused multiply-adds). Double rows and
// rows without fused multiply-adds take the full exponential.
template <class Arch, class T>
constexpr bool kSoftmaxRowMin =
    kFusedMultiplyAdd<Arch> && !kSoftmaxNarrowAnyRow<Arch, T> && std::is_same_v<T, float>;

// exp(d) for d = x - shift <= 0 (or NaN): the float exp above, xsimd's (kept in its domain) for
// double.
template <class Arch, class T>
inline xsimd::batch<T, Arch> exp_nonpositive(xsimd::batch<T, Arch> d) {
    if constexpr (std::is_same_v<T, float>)
        return exp_nonpositive_float<Arch>(d);
    else
        return exp_double<Arch>(d);
}

template <class Arch, class T, RowExp Kind>
inline xsimd::batch<T, Arch> row_exp(xsimd::batch<T, Arch> d) {
    if constexpr (Kind == RowExp::Narrow) {
        static_assert(std::is_same_v<T, float>, "the narrow exponential is float's");
        return exp_narrow_float<Arch>(d);
    } else if constexpr (Kind == RowExp::NarrowClamped) {
        static_assert(kSoftmaxNarrowAnyRow<Arch, T>, "only vscalefps takes any row");
        return exp_narrow_float<Arch, true>(d);
    } else {
        return exp_nonpositive<Arch, T>(d);
    }
}

// The largest and, where kSoftmaxRowMin, the smallest of x[0..n), NaN ignored (-inf and +inf when
// every value is NaN or n is 0; min is -inf when not computed): the x86 max and min return their
// second operand when either is NaN, and the accumulators are always the second. A NaN still
// makes the whole softmax row NaN, through its exponential in the sum.
template <class T>
struct RowRange {
    T max, min;
};
//
// The same loop also runs a row's last pass: finish_vector(i) on the values [i, i + W) of every
// whole vector and finish_one(i) on each of the rest, over another row of n values. A row's
// last pass is bound by its stores and the next row's range by its loads and comparisons, so
// together they take little more than the stores alone: 256 softmax rows of 1024 floats in the
// cache took 0.072 ms instead of 0.081 (medians) on an AVX-512 Zen 4 core, where the range alone
// took 2.3 cycles per vector of the 17 that a row took.
template <class Arch, class T, class FinishVector, class FinishOne>
inline RowRange<T> row_range_finishing(const T *x, int64_t n, FinishVector finish_vector,
                                       FinishOne finish_one) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr T inf = std::numeric_limits<T>::infinity();
    constexpr bool kMin = kSoftmaxRowMin<Arch, T>;
    B hi0(-inf), hi1(-inf), lo0(inf), lo1(inf);
    int64_t i = 0;
    for (; i + 2 * W <= n; i += 2 * W) {
        const B a = B::load_unaligned(x + i), b = B::load_unaligned(x + i + W);
        finish_vector(i);
        finish_vector(i + W);
        hi0 = xsimd::max(a, hi0);
        hi1 = xsimd::max(b, hi1);
        if constexpr (kMin) {
            lo0 = xsimd::min(a, lo0);
            lo1 = xsimd::min(b, lo1);
        }
    }
    for (; i + W <= n; i += W) {
        const B a = B::load_unaligned(x + i);
        finish_vector(i);
        hi0 = xsimd::max(a, hi0);
        if constexpr (kMin) lo0 = xsimd::min(a, lo0);
    }
    if (i < n) {  // the tail padded with values that change neither the max nor the min
        hi1 = xsimd::max(load_first_or<Arch>(x + i, n - i, -inf), hi1);
        if constexpr (kMin) lo1 = xsimd::min(load_first_or<Arch>(x + i, n - i, inf), lo1);
        for (; i < n; ++i) finish_one(i);
    }
    // The accumulators hold no NaN, so the order the lanes are folded in does not matter.
    const auto larger = [](T a, T b) { return b > a ? b : a; };
    const auto smaller = [](T a, T b) { return b < a ? b : a; };
    RowRange<T> r{fold_lanes<Arch>(xsimd::max(hi0, hi1), larger), -inf};
    if constexpr (kMin) r.min = fold_lanes<Arch>(xsimd::min(lo0, lo1), smaller);
    return r;
}

template <class Arch, class T>
inline RowRange<T> row_range(const T *x, int64_t n) {
    const auto nothing = [](int64_t) {};
    return row_range_finishing<Arch>(x, n, nothing, nothing);
}

// Sums of blocks combined pairwise, as a binary counter: the sum of 2^k blocks waits at level k
// until a second one of the same size arrives, so the rounding error grows with the log of the
// number of blocks (as in pairwise_sum) while the values are visited once, in order.
template <class B>
struct PairwiseBlocks {
    B level[48];
    uint64_t count = 0;
    void add(B s) {
        int k = 0;
        for (uint64_t c = count; c & 1; c >>= 1) s = level[k++] + s;
        level[k] = s;
        ++count;
    }
    B total() const {
        B s(typename B::value_type(0));
        bool any = false;
        for (int k = 0; k < 48 && (count >> k) != 0; ++k)
            if (count >> k & 1) {
                s = any ? level[k] + s : level[k];
                any = true;
            }
        return s;
    }
};

// Sum of exp(x[i] - m) over the row; writes the exponentials to e unless it is null. Blocks of
// kSumBlock values go to two vector accumulators, blocks are combined pairwise. `fetch`: null or
// a row read later (n values of T), fetched into the cache one line per line of x; with it,
// `fetch_out`: null or the row written next, fetched for writing. along(i) runs once for each
// whole vector [i, i + W) of the row, in order, in the same loop: another row's work at the same
// positions (softmax_rows_pipelined's last pass over the row before). kStores: whether e is set,
// known when the loop is compiled (see row_exp_sum below).
template <class Arch, class T, RowExp Kind, bool kStores, class Along>
inline T row_exp_sum_storing(const T *x, int64_t n, T m, T *e, const T *fetch, const T *fetch_out,
                             Along along) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr int64_t kSumBlock = 256;
    static_assert(kSumBlock % (2 * W) == 0, "a block is whole pairs of vectors");
    constexpr int64_t kLine = 64 / int64_t(sizeof(T));
    const B shift(m);
    PairwiseBlocks<B> blocks;
    int64_t i = 0;
    for (; i + kSumBlock <= n; i += kSumBlock) {
        B s0(T(0)), s1(T(0));
        for (int64_t j = i; j < i + kSumBlock; j += 2 * W) {
            if (fetch)
                for (int64_t l = 0; l < 2 * W; l += kLine) {
                    __builtin_prefetch(fetch + j + l);
                    if (fetch_out) __builtin_prefetch(fetch_out + j + l, 1);
                }
            B v0 = row_exp<Arch, T, Kind>(B::load_unaligned(x + j) - shift);
            B v1 = row_exp<Arch, T, Kind>(B::load_unaligned(x + j + W) - shift);
            along(j);
            along(j + W);
            if constexpr (kStores) {
                v0.store_unaligned(e + j);
                v1.store_unaligned(e + j + W);
            }
            s0 += v0;
            s1 += v1;
        }
        blocks.add(s0 + s1);
    }
    if (fetch)
        for (int64_t l = i; l < n; l += kLine) {
            __builtin_prefetch(fetch + l);
            if (fetch_out) __builtin_prefetch(fetch_out + l, 1);
        }
    // The last partial block: whole vectors, then the tail padded with m (a value both
    // exponentials take) through the same vector code, the padding's exponentials set to 0.
    if (i < n) {
        B s(T(0));
        for (; i + W <= n; i += W) {
            B v = row_exp<Arch, T, Kind>(B::load_unaligned(x + i) - shift);
            along(i);
            if constexpr (kStores) v.store_unaligned(e + i);
            s += v;
        }
        if (i < n) {
            const B v = keep_first<Arch>(
                row_exp<Arch, T, Kind>(load_first_or<Arch>(x + i, n - i, m) - shift), n - i, T(0));
            if constexpr (kStores) store_first<Arch>(e + i, n - i, v);
            s += v;
        }
        blocks.add(s);
    }
    return fold_lanes<Arch>(blocks.total(), std::plus<T>());  // the lanes as a tree too
}

// row_exp_sum_storing with kStores set from e: a test of e in the loop made a softmax of 128 rows
// of 1024 floats in the cache at one thread take 3 to 5% more time (AVX-512 Xeon under KVM, best
// of 20 means of 200 runs, three processes each in turn).
template <class Arch, class T, RowExp Kind, class Along>
inline T row_exp_sum(const T *x, int64_t n, T m, T *e, const T *fetch, const T *fetch_out,
                     Along along) {
    if (e) return row_exp_sum_storing<Arch, T, Kind, true>(x, n, m, e, fetch, fetch_out, along);
    return row_exp_sum_storing<Arch, T, Kind, false>(x, n, m, e, fetch, fetch_out, along);
}

// row_exp_sum over a row with the given range: most rows (a network's logits) lie within the
// narrow range, whose exponentials need neither clamping nor a two-part ln2. Not for NaN or
// infinite spreads (false here). Where kSoftmaxNarrowAnyRow, every row goes narrow: clamped when
// `clamp_rows` is set, else unclamped and, when that sum is not finite, again clamped (without
// `along`, which has run), setting `clamp_rows` for the call's later rows (masked rows tend to
// come together: each then costs the clamp rather than two passes).
template <class Arch, class T, class Along>
inline T row_exp_sum_in(RowRange<T> range, const T *x, int64_t n, T *e, const T *fetch,
                        const T *fetch_out, Along along, bool &clamp_rows) {
    if constexpr (kSoftmaxNarrowAnyRow<Arch, T>) {
        if (!clamp_rows) {
            const T total =
                row_exp_sum<Arch, T, RowExp::Narrow>(x, n, range.max, e, fetch, fetch_out, along);
            if (std::isfinite(total)) return total;
            clamp_rows = true;
            return row_exp_sum<Arch, T, RowExp::NarrowClamped>(x, n, range.max, e, nullptr, nullptr,
                                                               [](int64_t) {});
        }
        return row_exp_sum<Arch, T, RowExp::NarrowClamped>(x, n, range.max, e, fetch, fetch_out,
                                                           along);
    } else if constexpr (kSoftmaxRowMin<Arch, T>) {
        if (range.max - range.min <= kNarrowSoftmaxRange)
            return row_exp_sum<Arch, T, RowExp::Narrow>(x, n, range.max, e, fetch, fetch_out,
                                                        along);
    }
    return row_exp_sum<Arch, T, RowExp::Full>(x, n, range.max, e, fetch, fetch_out, along);
}

// Softmax (or log-softmax) of `rows` rows of n contiguous values: row r reads x + r * x_stride
// and writes y + r * y_stride (y may be x). Three passes over a row that stays in the cache: the
// max; exp(x - max) into y with its sum; y times the reciprocal of the sum (one division and n
// products, within an ulp of n divisions), or for log-softmax (x - max) - log(sum). Each row
// fetches a later one into the cache while it computes its exponentials (the row about
// kSoftmaxFetchBytes on, at least the next), and its last pass runs in one loop with the next
// row's first (row_range_finishing) unless its output overlaps the next row (rows closer than n
// apart, in place: then the next row reads what this one wrote).
//
// stream_out (an output of at least half the last-level cache, kernels/streaming.hpp): a row of
// at most kStreamedRowBytes whose output is aligned to a vector keeps its exponentials in a
// buffer on the stack instead of y, and the last pass writes y with stores that bypass the cache,
// so that the cache never reads y's lines (a third of the memory traffic); a fence at the end.
// On AVX-512 and AVX2, streamed rows of at most half that whose outputs all start on a vector go
// through softmax_rows_pipelined instead.
constexpr int64_t kStreamedRowBytes = 16384;

// How far ahead a softmax row fetches: the row this many bytes of values on (at least the next).
// Fetching the next row, a softmax of 4096 rows of 1024 floats at one thread took 6 to 21% more
// time (bench_ab, AVX-512 Zen 4 core, four processes, both orders); 12 and 16 KiB were slower
// than 8 KiB for rows of 256 to 2048 floats.
constexpr int64_t kSoftmaxFetchBytes = 8192;

// Softmax of rows whose outputs are streamed, with two rows' exponentials at a time in `buffer`
// (kStreamedRowBytes): row r's exponentials run in one loop with row r - 1's last pass (its
// exponentials times the reciprocal of its sum, streamed to y), so that the stores spread over
// the arithmetic instead of following it; then row r + 1's range, alone. The same bits as
// softmax_rows_typed's other paths. A softmax of 4096 rows of 1024 floats at one thread took 1.2
// to 8.3% less time than with each row's last pass beside the next row's range (bench_ab,
// AVX-512 Zen 4 core, six processes, both orders).
template <class Arch, class T>
void softmax_rows_pipelined(int64_t rows, int64_t n, const T *x, int64_t x_stride, T *y,
                            int64_t y_stride, int64_t fetch_rows, T *buffer) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    const int64_t whole = n / W * W;
    T *const exps[2] = {buffer, buffer + (n + W - 1) / W * W};
    // The row before: its exponentials, its output and the reciprocal of its sum. Its last pass
    // takes them by value: taken by reference, they escaped into the out-of-line instances of the
    // exponentials' loop, which then reloaded them after every streamed store (softmax of 4096
    // rows of 1024 floats at one thread took 7 to 11% more time, bench_ab, AVX-512 Zen 4 core).
    struct LastRow {
        const T *exps;
        T *y;
        T inv;
    };
    const auto finish_vectors = [](LastRow last) {
        return [last](int64_t i) {
            store_streaming<Arch>(last.y + i, B::load_aligned(last.exps + i) * B(last.inv));
        };
    };
    const auto finish_tail = [whole, n](LastRow last) {
        for (int64_t i = whole; i < n; ++i) last.y[i] = last.exps[i] * last.inv;
    };
    LastRow last{nullptr, nullptr, T(0)};
    bool clamp_rows = false;
    RowRange<T> range = row_range<Arch>(x, n);
    for (int64_t r = 0; r < rows; ++r) {
        const T *xr = x + r * x_stride;
        const T *fetch = r + fetch_rows < rows ? xr + fetch_rows * x_stride : nullptr;
        T *e = exps[r % 2];
        T total;
        if (last.y) {
            total = row_exp_sum_in<Arch, T>(range, xr, n, e, fetch, nullptr, finish_vectors(last),
                                            clamp_rows);
            finish_tail(last);
        } else {
            total = row_exp_sum_in<Arch, T>(
                range, xr, n, e, fetch, nullptr, [](int64_t) {}, clamp_rows);
        }
        last = {e, y + r * y_stride, T(1) / total};
        if (r + 1 < rows) range = row_range<Arch>(xr + x_stride, n);
    }
    const auto finish_last = finish_vectors(last);
    for (int64_t i = 0; i < whole; i += W) finish_last(i);
    finish_tail(last);
}

// The bytes [first, end) that `rows` rows of n values of T, `stride` apart, span.
template <class T>
inline std::pair<uintptr_t, uintptr_t> rows_span(const T *p, int64_t rows, int64_t n,
                                                 int64_t stride) {
    const auto first = reinterpret_cast<uintptr_t>(p);
    const auto last = reinterpret_cast<uintptr_t>(p + (rows - 1) * stride);
    return {std::min(first, last), std::max(first, last) + uintptr_t(n) * sizeof(T)};
}

// Whether softmax pipelines its rows (softmax_rows_pipelined) on this instruction set: AVX-512
// and AVX2 with fused multiply-adds. On an AVX2 Zen 3 core a softmax of 4096 rows of 1024 floats
// at one thread took 0.947 to 0.989 of the time of the passes apart (bench_ab, eight processes of
// eight, both orders; ahead in 19 of 22 in all). The AVX2 table forced on the AVX-512 Zen 4 core
// had found it 4.5 to 10% slower there, but a core with AVX-512 never runs that table.
template <class Arch>
constexpr bool kSoftmaxPipelined = std::disjunction_v<std::is_same<Arch, xsimd::avx512f>,
                                                      std::is_same<Arch, xsimd::fma3<xsimd::avx2>>>;

// Whether softmax_rows_pipelined takes these streamed rows: two rows' exponentials fit its
// buffer, every output row starts on a vector, and no row's output is an input read after it
// (outputs apart from the inputs, or in place with rows at least n apart).
template <class Arch, class T>
bool softmax_pipelines(int64_t rows, int64_t n, const T *x, int64_t x_stride, const T *y,
                       int64_t y_stride) {
    constexpr auto kVector = sizeof(xsimd::batch<T, Arch>);
    if (2 * n * int64_t(sizeof(T)) > kStreamedRowBytes ||
        reinterpret_cast<uintptr_t>(y) % kVector != 0 ||
        uint64_t(y_stride) * sizeof(T) % kVector != 0)
        return false;
    if (y == x && y_stride == x_stride) return x_stride >= n || x_stride <= -n;
    const auto in = rows_span(x, rows, n, x_stride), out = rows_span(y, rows, n, y_stride);
    return out.second <= in.first || in.second <= out.first;
}

template <class Arch, class T>
void softmax_rows_typed(bool log, int64_t rows, int64_t n, const T *x, int64_t x_stride, T *y,
                        int64_t y_stride, bool stream_out) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    if (rows <= 0) return;
    alignas(64) T row_buffer[kStreamedRowBytes / sizeof(T)];
    const bool stream_rows = stream_out && n * int64_t(sizeof(T)) <= kStreamedRowBytes;
    const int64_t fetch_rows =
        std::max<int64_t>(1, kSoftmaxFetchBytes / std::max<int64_t>(1, n * int64_t(sizeof(T))));
    if constexpr (kSoftmaxPipelined<Arch>)
        if (stream_rows && !log && softmax_pipelines<Arch>(rows, n, x, x_stride, y, y_stride)) {
            softmax_rows_pipelined<Arch>(rows, n, x, x_stride, y, y_stride, fetch_rows, row_buffer);
            fence_streamed_stores();
            return;
        }
    bool clamp_rows = false;
    RowRange<T> range = row_range<Arch>(x, n);
    for (int64_t r = 0; r < rows; ++r) {
        const T *xr = x + r * x_stride;
        T *yr = y + r * y_stride;
        const T *ahead = r + 1 < rows ? xr + x_stride : nullptr;
        const T m = range.max;
        const int64_t to_line = elements_to_line(yr, sizeof(T));
        const bool aligned = reinterpret_cast<uintptr_t>(yr) % sizeof(B) == 0;
        const bool stream = stream_rows && (aligned || (to_line != 0 && to_line < n));
        T *e = log ? nullptr : stream ? row_buffer : yr;
        const T *fetch = r + fetch_rows < rows ? xr + fetch_rows * x_stride : nullptr;
        const T *fetch_out = fetch && !stream ? yr + y_stride : nullptr;
        const T total = row_exp_sum_in<Arch>(
            range, xr, n, e, fetch, fetch_out, [](int64_t) {}, clamp_rows);
        // The last pass over this row, in one loop with the next row's range.
        const auto finish = [&](auto finish_vector, auto finish_one) {
            const auto out_at = reinterpret_cast<uintptr_t>(yr);
            const auto next_at = reinterpret_cast<uintptr_t>(ahead);
            const auto bytes = uintptr_t(n) * sizeof(T);
            if (ahead && (next_at + bytes <= out_at || out_at + bytes <= next_at)) {
                range = row_range_finishing<Arch>(ahead, n, finish_vector, finish_one);
                return;
            }
            int64_t i = 0;
            for (; i + W <= n; i += W) finish_vector(i);
            for (; i < n; ++i) finish_one(i);
            if (ahead) range = row_range<Arch>(ahead, n);
        };
        // A streamed row whose output starts inside a line is written rotated by `lead`: what the
        // last pass computes for i goes to i + lead, so that its vectors land on vector
        // boundaries, and the values past the row's end wrap to its start, one at a time. Each
        // value is computed alone, so no bit changes. Into an output 16 bytes past a line, a
        // softmax of 4096 rows of 1024 floats ran at a median 73.5% of a copy of its input,
        // against 68.8% stored as usual (one thread, AVX-512 Zen 4 core, ten runs each).
        //
        // The loop's lambdas take what they use by value, and whether the row streams picks a loop
        // rather than being tested in it. Taken by reference, the row's pointers, its reciprocal
        // and that test were reloaded from the stack for every vector with the AVX-512 table: a
        // softmax of 128 rows of 1024 floats in the cache at one thread took 26.8 to 27.8 us, now
        // 22.1 to 22.8 (best of 20 means of 200 runs, four processes each in turn; Xeon under
        // KVM), and of 4096 such rows 0.91 to 0.95 of the time (bench_ab, four processes, both
        // orders).
        const int64_t lead = stream && !aligned ? to_line : 0;
        const auto last_pass = [&, yr, n](auto vector_at, auto value_at) {
            const auto one = [yr, value_at](int64_t i) { yr[i] = value_at(i); };
            if (!stream) {
                finish([yr, vector_at](int64_t i) { vector_at(i).store_unaligned(yr + i); }, one);
                return;
            }
            if (lead == 0) {  // a separate loop: the rotation's index arithmetic cost 4 to 7%
                finish([yr, vector_at](int64_t i) { store_streaming<Arch>(yr + i, vector_at(i)); },
                       one);
                return;
            }
            const auto at = [lead, n](int64_t i) { return i + lead < n ? i + lead : i + lead - n; };
            finish(
                [yr, vector_at, value_at, lead, n, at](int64_t i) {
                    if (i + lead + W <= n)
                        store_streaming<Arch>(yr + i + lead, vector_at(i + lead));
                    else
                        for (int64_t k = i; k < i + W; ++k) yr[at(k)] = value_at(at(k));
                },
                [yr, value_at, at](int64_t i) { yr[at(i)] = value_at(at(i)); });
        };
        if (!log) {
            const T inv_one = T(1) / total;
            const B inv(inv_one);
            last_pass([e, inv](int64_t j) { return B::load_unaligned(e + j) * inv; },
                      [e, inv_one](int64_t j) { return e[j] * inv_one; });
        } else {
            const T lse = T(__builtin_log(double(total)));
            const B shift(m), sub(lse);
            last_pass(
                [xr, shift, sub](int64_t j) { return (B::load_unaligned(xr + j) - shift) - sub; },
                [xr, m, lse](int64_t j) { return (xr[j] - m) - lse; });
        }
    }
    if (stream_rows) fence_streamed_stores();
}

// ---- float unary -----------------------------------------------------------------------------

template <class T>
inline void copy_elements(int64_t n, const T *x, T *out) {
    if (out != x) __builtin_memmove(out, x, static_cast<size_t>(n) * sizeof(T));
}

// One float unary function on a batch: float_unary's passes and run_chain's steps both apply
// these, so a chain rounds exactly as the passes do.
template <UnaryFn F, class Arch, class T>
inline xsimd::batch<T, Arch> unary_value(xsimd::batch<T, Arch> v) {
    using B = xsimd::batch<T, Arch>;
    if constexpr (F == UnaryFn::Negative) {
        return -v;
    } else if constexpr (F == UnaryFn::Absolute) {
        return xsimd::abs(v);
    } else if constexpr (F == UnaryFn::Sign) {
        // Keeps NaN and the sign of zero, like NumPy's sign.
        return xsimd::select(v > B(T(0)), B(T(1)), xsimd::select(v < B(T(0)), B(T(-1)), v));
    } else if constexpr (F == UnaryFn::Exp) {
        return exp_any<Arch>(v);
    } else if constexpr (F == UnaryFn::Log) {
        return xsimd::log(v);
    } else if constexpr (F == UnaryFn::Sqrt) {
        return xsimd::sqrt(v);
    } else if constexpr (F == UnaryFn::Square) {
        return v * v;
    } else if constexpr (F == UnaryFn::Reciprocal) {
        return B(T(1)) / v;
    } else if constexpr (F == UnaryFn::Sigmoid) {
        // exp(-|x|) never overflows: 1/(1+e) for x >= 0 and e/(1+e) for x < 0 are both exact
        // to a few ulp and saturate cleanly to 1 and 0.
        B e = exp_any<Arch>(-xsimd::abs(v));
        B r = B(T(1)) / (B(T(1)) + e);
        return xsimd::select(v >= B(T(0)), r, e * r);
    } else if constexpr (F == UnaryFn::Relu) {
        // NaN stays NaN (a select on `v < 0` rather than max(v, 0)).
        return xsimd::select(v < B(T(0)), B(T(0)), v);
    } else if constexpr (F == UnaryFn::Sin || F == UnaryFn::Cos) {
        return sin_or_cos<F == UnaryFn::Sin, Arch>(v);
    } else {
        static_assert(F == UnaryFn::Tanh, "no batch form");
        if constexpr (std::is_same_v<T, float>)
            return tanh_float<Arch>(v);
        else
            return tanh_double<Arch>(v);
    }
}

template <class Arch, class T>
void float_unary(UnaryFn f, int64_t n, const T *x, T *out) {
    using B = xsimd::batch<T, Arch>;
    switch (f) {
    case UnaryFn::Copy: return copy_elements(n, x, out);
#define NG_UNARY_PASS(Name) \
    case UnaryFn::Name:     \
        return map_unary<Arch>(n, x, out, [](B v) { return unary_value<UnaryFn::Name, Arch>(v); });
        NG_UNARY_PASS(Negative)
        NG_UNARY_PASS(Absolute)
        NG_UNARY_PASS(Sign)
        NG_UNARY_PASS(Exp)
        NG_UNARY_PASS(Log)
        NG_UNARY_PASS(Sqrt)
        NG_UNARY_PASS(Square)
        NG_UNARY_PASS(Reciprocal)
        NG_UNARY_PASS(Sigmoid)
        NG_UNARY_PASS(Relu)
        NG_UNARY_PASS(Sin)
        NG_UNARY_PASS(Cos)
        NG_UNARY_PASS(Tanh)
#undef NG_UNARY_PASS
    }
    bad_kernel_request("unary");
}

// ---- integer unary (wrapping two's-complement arithmetic, no undefined behaviour) ---------------

template <class T>
inline T wrap_negate(T v) {
    return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(v));
}

template <class T>
void integer_unary(UnaryFn f, int64_t n, const T *x, T *out) {
    switch (f) {
    case UnaryFn::Copy: return copy_elements(n, x, out);
    case UnaryFn::Negative: return scalar_unary(n, x, out, [](T v) { return wrap_negate(v); });
    case UnaryFn::Absolute:
        if constexpr (std::is_signed_v<T>)
            return scalar_unary(n, x, out, [](T v) { return v < 0 ? wrap_negate(v) : v; });
        else
            return copy_elements(n, x, out);
    case UnaryFn::Sign:
        return scalar_unary(n, x, out, [](T v) { return static_cast<T>((v > 0) - (v < T(0))); });
    case UnaryFn::Square:
        return scalar_unary(n, x, out, [](T v) {
            auto u = static_cast<Unsigned<T>>(v);
            return static_cast<T>(u * u);
        });
    case UnaryFn::Relu: return scalar_unary(n, x, out, [](T v) { return v < T(0) ? T(0) : v; });
    default: break;
    }
    bad_kernel_request("unary");
}

// ---- binary ----------------------------------------------------------------------------------

// One float binary function (not Power) on batches, shared by float_binary and run_chain.
template <BinaryFn F, class B>
inline B binary_value(B x, B y) {
    if constexpr (F == BinaryFn::Add) {
        return x + y;
    } else if constexpr (F == BinaryFn::Subtract) {
        return x - y;
    } else if constexpr (F == BinaryFn::Multiply) {
        return x * y;
    } else if constexpr (F == BinaryFn::Divide) {
        return x / y;
    } else if constexpr (F == BinaryFn::Maximum) {
        return maximum_nan(x, y);
    } else {
        static_assert(F == BinaryFn::Minimum, "no batch form");
        return minimum_nan(x, y);
    }
}

template <class Arch, class T>
void float_binary(BinaryFn f, int64_t n, const T *a, int as, const T *b, int bs, T *out) {
    using B = xsimd::batch<T, Arch>;
    switch (f) {
#define NG_BINARY_PASS(Name)                          \
    case BinaryFn::Name:                              \
        return map_binary<Arch>(n, a, as, b, bs, out, \
                                [](B x, B y) { return binary_value<BinaryFn::Name>(x, y); });
        NG_BINARY_PASS(Add)
        NG_BINARY_PASS(Subtract)
        NG_BINARY_PASS(Multiply)
        NG_BINARY_PASS(Divide)
        NG_BINARY_PASS(Maximum)
        NG_BINARY_PASS(Minimum)
#undef NG_BINARY_PASS
    case BinaryFn::Power:
        // xsimd's pow is exp(y*log|x|): tens of ulp off for large results and wrong at pow(0, 0).
        // libm's pow is correctly rounded in practice; float goes through double.
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) {
            return static_cast<T>(__builtin_pow(double(x), double(y)));
        });
    }
    bad_kernel_request("binary");
}

template <class T>
inline T integer_power(T base, T exponent) {
    if constexpr (std::is_signed_v<T>) {
        // Truncated 1 / base^|e|: only 1 and -1 survive.
        if (exponent < 0)
            return base == 1 ? T(1) : base == T(-1) ? ((exponent & 1) ? T(-1) : T(1)) : T(0);
    }
    Unsigned<T> result = 1, factor = static_cast<Unsigned<T>>(base);
    for (auto e = static_cast<Unsigned<T>>(exponent); e != 0; e >>= 1) {
        if (e & 1) result = static_cast<Unsigned<T>>(result * factor);
        factor = static_cast<Unsigned<T>>(factor * factor);
    }
    return static_cast<T>(result);
}

template <class T>
inline T integer_divide(T a, T b) {
    if (b == 0) return 0;  // defined as 0 rather than a trap
    if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return wrap_negate(a);  // INT_MIN / -1 wraps
    }
    return static_cast<T>(a / b);
}

template <class T>
void integer_binary(BinaryFn f, int64_t n, const T *a, int as, const T *b, int bs, T *out) {
    using U = Unsigned<T>;
    switch (f) {
    case BinaryFn::Add:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) + U(y)); });
    case BinaryFn::Subtract:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) - U(y)); });
    case BinaryFn::Multiply:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) * U(y)); });
    case BinaryFn::Divide:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return integer_divide(x, y); });
    case BinaryFn::Power:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return integer_power(x, y); });
    case BinaryFn::Maximum:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return x < y ? y : x; });
    case BinaryFn::Minimum:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return y < x ? y : x; });
    }
    bad_kernel_request("binary");
}

template <class T>
void compare_typed(CompareFn f, int64_t n, const T *a, int as, const T *b, int bs, uint8_t *out) {
    switch (f) {
    case CompareFn::Equal:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x == y); });
    case CompareFn::NotEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x != y); });
    case CompareFn::Less:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x < y); });
    case CompareFn::LessEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x <= y); });
    case CompareFn::Greater:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x > y); });
    case CompareFn::GreaterEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x >= y); });
    }
    bad_kernel_request("compare");
}

template <class T>
void select_typed(int64_t n, const uint8_t *cond, const T *a, int as, const T *b, int bs, T *out) {
    // Both values are loaded before the choice: a branch on the condition mispredicts on data
    // like a ReLU mask (half the time, ~4 ns a value); a blend does not, and vectorises.
    with_steps(as, bs, [&](auto a_array, auto b_array) {
        const T *pa = a, *pb = b;
        const uint8_t *pc = cond;
        T *po = out;
        const int64_t len = n;
        for (int64_t i = 0; i < len; ++i) {
            const T x = pa[a_array ? i : 0], y = pb[b_array ? i : 0];
            po[i] = pc[i] ? x : y;
        }
    });
}

// ---- reductions --------------------------------------------------------------------------------

template <class T>
constexpr T identity_of(ReduceFn f) {
    using L = std::numeric_limits<T>;
    switch (f) {
    case ReduceFn::Sum: return T(0);
    case ReduceFn::Prod: return T(1);
    case ReduceFn::Max: return L::has_infinity ? -L::infinity() : L::lowest();
    case ReduceFn::Min: return L::has_infinity ? L::infinity() : L::max();
    }
    return T(0);
}

// body(integral_constant<ReduceFn, F>) for the run-time f: one instantiation per reduction in a
// kernel whose loop is specialised for it; an unknown f is refused, naming the kernel.
template <class Body>
void by_reduce_fn(ReduceFn f, const char *kernel, Body body) {
    switch (f) {
    case ReduceFn::Sum: return body(std::integral_constant<ReduceFn, ReduceFn::Sum>{});
    case ReduceFn::Prod: return body(std::integral_constant<ReduceFn, ReduceFn::Prod>{});
    case ReduceFn::Max: return body(std::integral_constant<ReduceFn, ReduceFn::Max>{});
    case ReduceFn::Min: return body(std::integral_constant<ReduceFn, ReduceFn::Min>{});
    }
    bad_kernel_request(kernel);
}

// The batch operation of a reduction, one instantiation per ReduceFn.
template <ReduceFn F>
struct Combine {
    template <class B>
    B operator()(B a, B b) const {
        if constexpr (F == ReduceFn::Sum)
            return a + b;
        else if constexpr (F == ReduceFn::Prod)
            return a * b;
        else if constexpr (F == ReduceFn::Max)
            return maximum_nan(a, b);
        else
            return minimum_nan(a, b);
    }
};

// The whole vectors of an array, read by index for a product, max or min. On AVX-512, where the
// array starts inside a vector (a NumPy array's data starts 16 bytes into its allocation), every
// 64-byte load would cross a cache line: vector k is then assembled from the two aligned vectors it
// spans, with one permutation, except the first and the last, whose other aligned neighbour lies
// outside the array. The lanes hold the same values, so a reduction keeps its bits. When sums read
// 512-bit vectors too, a sum over the rows of a 4096 x 4096 float matrix 16 bytes past a line ran
// at a median 88.1% of a plain read of it this way, against 85.4% with loads that cross lines (one
// thread, AVX-512 Zen 4 core, bench_ab, ahead in nine processes of ten).
template <class Arch, class T>
class VectorReader {
    using B = xsimd::batch<T, Arch>;
    using Lane = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;  // an index per lane
    static constexpr int64_t W = B::size;

public:
    // Only AVX-512's loads are a line wide (and the permutation is AVX-512's).
    static constexpr bool kAssembles = std::is_same_v<Arch, xsimd::avx512f>;
    // The elements of x since the vector boundary before it, on AVX-512; 0 where x starts on a
    // boundary or inside an element, and on other instruction sets. A reader is made only for a
    // shift other than 0.
    static int64_t shift_of(const T *x) {
        static_assert(!kAssembles || sizeof(B) == 64, "an AVX-512 vector is a line");
        const int64_t to_line = elements_to_line(x, sizeof(T));
        return kAssembles && to_line != 0 ? W - to_line : 0;
    }
    // A reader of arrays that start `shift` elements past a vector boundary: lane j of an
    // assembled vector is element shift + j of the two aligned vectors side by side. Made once per
    // block of a reduction, so the indices come from a constant and one addition.
    explicit VectorReader(int64_t shift)
        : shift_(shift),
          index_(xsimd::batch<Lane, Arch>::load_aligned(kLaneNumbers) +
                 xsimd::batch<Lane, Arch>(Lane(shift))) {}
    // Vector k of x[0..n), which starts shift elements past a boundary; k < n / W.
    B operator()(const T *x, int64_t n, int64_t k) const {
        if constexpr (kAssembles) {
            if (k > 0 && k + 2 <= n / W) {
                const T *aligned = x - shift_;
                const B low = B::load_aligned(aligned + k * W),
                        high = B::load_aligned(aligned + (k + 1) * W);
                if constexpr (sizeof(T) == 4)
                    return _mm512_permutex2var_ps(low, index_, high);
                else
                    return _mm512_permutex2var_pd(low, index_, high);
            }
        }
        return B::load_unaligned(x + k * W);
    }

private:
    alignas(64) static constexpr Lane kLaneNumbers[16] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                          8, 9, 10, 11, 12, 13, 14, 15};
    int64_t shift_;
    xsimd::batch<Lane, Arch> index_;
};

// f over x[0..n) for a product, max or min, with four independent vector accumulators (latency
// hiding); the tail is padded with the identity.
template <class Arch, class T, ReduceFn F, bool Assembled>
T reduce_block(const T *x, int64_t n) {
    static_assert(F != ReduceFn::Sum, "sums are pairwise_sum's");
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr T identity = identity_of<T>(F);
    Combine<F> op;
    // The vectors come from `vector(k)`: loaded as they lie, or assembled from aligned loads
    // (VectorReader) where x starts inside a vector.
    const auto lanes_of = [&](auto vector) {
        B acc0(identity), acc1(identity), acc2(identity), acc3(identity);
        int64_t i = 0;
        for (; i + 4 * W <= n; i += 4 * W) {
            acc0 = op(acc0, vector(i / W));
            acc1 = op(acc1, vector(i / W + 1));
            acc2 = op(acc2, vector(i / W + 2));
            acc3 = op(acc3, vector(i / W + 3));
        }
        for (; i + W <= n; i += W) acc0 = op(acc0, vector(i / W));
        if (i < n) acc1 = op(acc1, load_first_or<Arch>(x + i, n - i, identity));
        return op(op(acc0, acc1), op(acc2, acc3));
    };
    B acc;
    if constexpr (Assembled) {
        const VectorReader<Arch, T> read(VectorReader<Arch, T>::shift_of(x));
        acc = lanes_of([&](int64_t k) { return read(x, n, k); });
    } else
        acc = lanes_of([x](int64_t k) { return B::load_unaligned(x + k * W); });
    alignas(64) T lanes[W];
    acc.store_aligned(lanes);
    B folded(lanes[0]);
    for (int64_t j = 1; j < W; ++j) folded = op(folded, B(lanes[j]));
    return folded.get(0);
}

// The instruction set a float sum reads with: 256-bit vectors on AVX-512 too. A sum over the rows
// of a 4096 x 4096 float matrix in the loop of cascade_sum ran at 87 to 90% of a plain read of the
// matrix with 512-bit loads and at 92 to 95% with 256-bit loads, side by side in one process (one
// thread, AVX-512 Zen 4 core, bench_ab), and at 98 to 99% from an array 16 bytes past a line,
// where half the 256-bit loads cross one.
template <class Arch>
using SumArch =
    std::conditional_t<std::is_same_v<Arch, xsimd::avx512f>, xsimd::fma3<xsimd::avx2>, Arch>;

// Values per chunk of cascade_sum: 16 steps of four vectors.
template <class Arch, class T>
constexpr int64_t kSumChunk = 64 * int64_t(xsimd::batch<T, Arch>::size);

// The sums of K arrays x[k][0..n), n at most four chunks, each as a cascade: four vector
// accumulators (latency hiding) take a chunk, 16 vectors each, and are then added to four of the
// next level; the levels and the lanes are added as trees at the end. Rounding chains of at most
// 16 + 4 additions before the trees. The K arrays are read side by side, vector by vector, and each
// sum gets the bits it gets alone. The loop stays rolled, one step of four loads per array after
// another: a sum over the rows of a matrix read as 256-value blocks, each unrolled and folded to
// one value, ran at 88 to 91% of a plain read with 256-bit loads.
template <class Arch, class T, int K>
void cascade_sums(const T *const *x, int64_t n, T *sums) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    const B zero(T(0));
    B level[K][4];
    for (auto &levels : level)
        for (B &v : levels) v = zero;
    int64_t i = 0;
    for (; i + kSumChunk<Arch, T> <= n;) {
        B acc[K][4];
        for (auto &lanes : acc)
            for (B &v : lanes) v = zero;
        for (int step = 0; step < 16; ++step, i += 4 * W)
            for (int lane = 0; lane < 4; ++lane)
                for (int k = 0; k < K; ++k) acc[k][lane] += B::load_unaligned(x[k] + i + lane * W);
        for (int k = 0; k < K; ++k)
            for (int lane = 0; lane < 4; ++lane) level[k][lane] += acc[k][lane];
    }
    for (int k = 0; k < K; ++k) {
        // The last partial chunk: its whole vectors, then the rest padded with zeros.
        B rest = zero;
        int64_t j = i;
        for (; j + W <= n; j += W) rest += B::load_unaligned(x[k] + j);
        if (j < n) rest += load_first<Arch>(x[k] + j, n - j);
        // xsimd's hadd adds halves to halves: a tree over the lanes too.
        sums[k] = xsimd::hadd(((level[k][0] + level[k][1]) + (level[k][2] + level[k][3])) + rest);
    }
}

template <class Arch, class T>
T cascade_sum(const T *x, int64_t n) {
    T sum;
    cascade_sums<Arch, T, 1>(&x, n, &sum);
    return sum;
}

// Values per leaf of pairwise_sum: four chunks.
template <class Arch, class T>
constexpr int64_t kSumLeaf = 4 * kSumChunk<SumArch<Arch>, T>;

template <class Arch, class T>
T pairwise_sum(const T *x, int64_t n);

// pairwise_sum above one leaf: the sums of two halves, the first a whole number of leaves. Kept
// out of line, so that pairwise_sum's leaf case inlines where it is called.
template <class Arch, class T>
[[gnu::noinline]] T pairwise_halves(const T *x, int64_t n) {
    constexpr int64_t kLeaf = kSumLeaf<Arch, T>;
    const int64_t half = (n / 2 + kLeaf - 1) / kLeaf * kLeaf;
    return pairwise_sum<Arch, T>(x, half) + pairwise_sum<Arch, T>(x + half, n - half);
}

// Pairwise summation over leaves of four chunks: the rounding error grows with log(n) instead of
// n. The same values give the same bits wherever they lie, on a line or not. A leaf is summed in
// the caller's loop: the row sums of a 4096 x 4096 matrix (two leaves a row, one thread, AVX-512
// Zen 4 core) took 0.99 of PyTorch's time on the same matrix against 1.01 through a call per leaf
// (medians of six and of eight processes).
template <class Arch, class T>
inline T pairwise_sum(const T *x, int64_t n) {
    if (n <= kSumLeaf<Arch, T>) return cascade_sum<SumArch<Arch>, T>(x, n);
    return pairwise_halves<Arch, T>(x, n);
}

// The sums of `rows` rows of n values (row r at x + r * x_stride, its sum to out[r * out_stride])
// as reduce_rows computes them for tiles of `tile` values, where every row is at most two tiles
// and a tile at most one leaf: each tile a cascade, a row's two tiles added. Row r is read side by
// side with row r + (rows + 1) / 2, two streams half the rows apart: over the rows of a 4096 x 4096
// matrix at one thread (AVX-512 Zen 4 core, bench_ab in six processes) that took 0.92 to 0.99 of
// the time of one row after another, and 0.91 to 0.97 with the AVX2 table; four streams a quarter
// apart, or three, took 1 to 4% longer than two, and two adjacent rows read side by side about 1.5
// times as long as one row after another.
template <class Arch, class T>
void paired_row_sums(int64_t rows, int64_t n, int64_t tile, const T *x, int64_t x_stride, T *out,
                     int64_t out_stride) {
    const int64_t half = (rows + 1) / 2;
    const auto sum_rows = [&](auto streams, int64_t r) {
        constexpr int K = decltype(streams)::value;
        const T *first[K], *second[K];
        T head[K], tail[K];
        for (int k = 0; k < K; ++k) {
            first[k] = x + (r + k * half) * x_stride;
            second[k] = first[k] + tile;
        }
        if (n <= tile) {
            cascade_sums<SumArch<Arch>, T, K>(first, n, head);
            for (int k = 0; k < K; ++k) out[(r + k * half) * out_stride] = head[k];
            return;
        }
        cascade_sums<SumArch<Arch>, T, K>(first, tile, head);
        cascade_sums<SumArch<Arch>, T, K>(second, n - tile, tail);
        for (int k = 0; k < K; ++k) out[(r + k * half) * out_stride] = head[k] + tail[k];
    };
    for (int64_t r = 0; r < rows - half; ++r) sum_rows(std::integral_constant<int, 2>{}, r);
    if (rows % 2) sum_rows(std::integral_constant<int, 1>{}, half - 1);
}

// A product, max or min reads its vectors one way for the whole call, chosen once: each way gets
// an instantiation of its own (a test in every block made a sum of aligned rows, when sums read
// this way, about 1% slower).
template <class Arch, class T, bool Assembled>
T float_reduce_read(ReduceFn f, const T *x, int64_t n) {
    switch (f) {
    case ReduceFn::Prod: return reduce_block<Arch, T, ReduceFn::Prod, Assembled>(x, n);
    case ReduceFn::Max: return reduce_block<Arch, T, ReduceFn::Max, Assembled>(x, n);
    case ReduceFn::Min: return reduce_block<Arch, T, ReduceFn::Min, Assembled>(x, n);
    case ReduceFn::Sum: break;  // float_reduce's
    }
    bad_kernel_request("reduce_all");
}

template <class Arch, class T>
T float_reduce(ReduceFn f, const T *x, int64_t n) {
    if (f == ReduceFn::Sum) return pairwise_sum<Arch, T>(x, n);  // the same reads anywhere
    if constexpr (VectorReader<Arch, T>::kAssembles)
        if (VectorReader<Arch, T>::shift_of(x) != 0)
            return float_reduce_read<Arch, T, true>(f, x, n);
    return float_reduce_read<Arch, T, false>(f, x, n);
}

template <class T>
inline T integer_combine(ReduceFn f, T acc, T v) {
    using U = Unsigned<T>;
    switch (f) {
    case ReduceFn::Sum: return static_cast<T>(U(acc) + U(v));
    case ReduceFn::Prod: return static_cast<T>(U(acc) * U(v));
    case ReduceFn::Max: return acc < v ? v : acc;
    case ReduceFn::Min: return v < acc ? v : acc;
    }
    return acc;
}

template <class T>
T integer_reduce(ReduceFn f, const T *x, int64_t n) {
    T acc = identity_of<T>(f);
    switch (f) {  // one loop per function so each one vectorises
    case ReduceFn::Sum:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Sum, acc, x[i]);
        break;
    case ReduceFn::Prod:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Prod, acc, x[i]);
        break;
    case ReduceFn::Max:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Max, acc, x[i]);
        break;
    case ReduceFn::Min:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Min, acc, x[i]);
        break;
    }
    return acc;
}

template <class Arch, class T>
void float_accumulate(ReduceFn f, int64_t n, const T *x, T *acc) {
    by_reduce_fn(f, "accumulate", [&](auto fn) {
        map_binary<Arch>(n, acc, 1, x, 1, acc, Combine<decltype(fn)::value>{});
    });
}

template <class T>
void integer_accumulate(ReduceFn f, int64_t n, const T *x, T *acc) {
    switch (f) {
    case ReduceFn::Sum:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Sum, a, v); });
    case ReduceFn::Prod:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Prod, a, v); });
    case ReduceFn::Max:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Max, a, v); });
    case ReduceFn::Min:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Min, a, v); });
    }
    bad_kernel_request("accumulate");
}

// f(integral_constant<0>), ..., f(integral_constant<K-1>): code unrolled K times whose
// accumulators (a chain's, a reduction's) are separate variables the compiler keeps in registers.
template <class F, size_t... k>
__attribute__((always_inline)) inline void each_vector(F &&f, std::index_sequence<k...>) {
    (f(std::integral_constant<size_t, k>{}), ...);
}

// The vectors load(rows[Lo]) .. load(rows[Hi - 1]) combined pairwise: ((r0 r1) (r2 r3)) for four,
// (r0 r1) r2 for three.
template <int32_t Lo, int32_t Hi, class T, class Op, class Load>
auto combine_rows(const T *const *rows, Op op, Load load) {
    if constexpr (Hi - Lo == 1) {
        return load(rows[Lo]);
    } else {
        constexpr int32_t Mid = Lo + (Hi - Lo + 1) / 2;
        return op(combine_rows<Lo, Mid>(rows, op, load), combine_rows<Mid, Hi>(rows, op, load));
    }
}

// float_accumulate_rows for Count rows, a count known at compile time, with the row pointers
// copied into locals first. The loop that took the count at run time and read the pointers
// through the caller's array was slower: an outer-axis sum of a 4096 x 4096 float matrix at one
// thread read at 75 to 78% of a plain read against 79 to 82% (AVX-512 Zen 4 core, bench_ab, four
// processes), and with the AVX2 table at 64 to 74% against 76 to 85% (six processes).
template <class Arch, class T, ReduceFn F, int32_t Count>
void accumulate_rows_of(int64_t n, const T *const *rows, T *acc) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    Combine<F> op;
    const T *row[Count];
    for (int32_t r = 0; r < Count; ++r) row[r] = rows[r];
    int64_t i = 0;
    for (; i + W <= n; i += W)
        op(B::load_unaligned(acc + i),
           combine_rows<0, Count>(row, op, [i](const T *p) { return B::load_unaligned(p + i); }))
            .store_unaligned(acc + i);
    if (i == n) return;
    // The tail through the same vector code, as map_binary's.
    const int64_t m = n - i;
    const auto first = [i, m](const T *p) { return load_first<Arch>(p + i, m); };
    store_first<Arch>(acc + i, m, op(first(acc), combine_rows<0, Count>(row, op, first)));
}

// acc[i] = f(acc[i], f over rows[0..count)[i], combined pairwise) for 1 to kMaxAccumulateRows
// rows: one pass over acc for several rows (an outer-axis reduction reads and writes its
// accumulators once per group of rows instead of once per row).
template <class Arch, class T, ReduceFn F>
void float_accumulate_rows(int64_t n, const T *const *rows, int32_t count, T *acc) {
    static_assert(kMaxAccumulateRows == 8, "one case per count below");
    switch (count) {
    case 1: return accumulate_rows_of<Arch, T, F, 1>(n, rows, acc);
    case 2: return accumulate_rows_of<Arch, T, F, 2>(n, rows, acc);
    case 3: return accumulate_rows_of<Arch, T, F, 3>(n, rows, acc);
    case 4: return accumulate_rows_of<Arch, T, F, 4>(n, rows, acc);
    case 5: return accumulate_rows_of<Arch, T, F, 5>(n, rows, acc);
    case 6: return accumulate_rows_of<Arch, T, F, 6>(n, rows, acc);
    case 7: return accumulate_rows_of<Arch, T, F, 7>(n, rows, acc);
    case 8: return accumulate_rows_of<Arch, T, F, 8>(n, rows, acc);
    }
    bad_kernel_request("accumulate_rows");
}

template <class T>
void integer_accumulate_rows(ReduceFn f, int64_t n, const T *const *rows, int32_t count, T *acc) {
    for (int32_t r = 0; r < count; ++r) integer_accumulate(f, n, rows[r], acc);
}

// accumulate_lanes for Lanes lanes of `rows` rows of n values, n a whole number of vectors. Each
// lane is one stream of rows * n / W vectors, and lane j reads its vector v at step v + j, one
// vector behind lane j - 1, so that at any step the lanes read different columns. Vector v's
// column gathers lane 0's value at step v and lane j's at step v + j in registers (a ring of
// Lanes vectors), and goes into acc at step v + Lanes - 1: f(acc, ((lane 0 lane 1) lane 2) ...).
// Against one call of accumulate_rows_of per row of every lane, each call reading the lanes at
// the same column: a sum over the rows of a 4096 x 4096 float matrix at one thread (five lanes)
// took 0.928 to 0.958 of the time (bench_ab, AVX-512 Zen 4 core, six processes, both orders), and
// 0.892 to 0.910 with the AVX2 table (four processes); a likely reason, which this machine's lack
// of cache counters keeps unconfirmed: rows 16 KiB apart put the lanes' lines of one column in a
// single set of the first-level cache.
template <class Arch, class T, ReduceFn F, int32_t Lanes>
void accumulate_lanes_of(int64_t n, int64_t rows, const T *const *starts, T *acc) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    Combine<F> op;
    const T *lane[Lanes];
    for (int32_t j = 0; j < Lanes; ++j) lane[j] = starts[j];
    const int64_t per_row = n / W, vectors = rows * per_row;  // vectors per lane
    // The column of vector v gathers in slot v % Lanes of a ring of separate variables (GCC kept
    // an array of them partly in memory).
    B s0(T(0)), s1(T(0)), s2(T(0)), s3(T(0)), s4(T(0));
    static_assert(Lanes <= kMaxAccumulateLanes && kMaxAccumulateLanes == 5, "a slot per lane");
    const auto ring = [&](auto slot) -> B & {
        return std::get<decltype(slot)::value>(std::tie(s0, s1, s2, s3, s4));
    };
    int64_t column = 0;  // of the vector that completes at this step
    // Step t, Phase = t % Lanes; checked: some lane may have no vector t - j (the first and last
    // Lanes - 1 steps).
    const auto step = [&](auto phase, int64_t t, auto checked) __attribute__((always_inline)) {
        constexpr int32_t Phase = int32_t(decltype(phase)::value);
        each_vector(
            [&](auto lane_index) {
                constexpr int32_t j = int32_t(decltype(lane_index)::value);
                constexpr int32_t slot = ((Phase - j) % Lanes + Lanes) % Lanes;
                const int64_t v = t - j;
                if (decltype(checked)::value && (v < 0 || v >= vectors)) return;
                const B x = B::load_unaligned(lane[j] + v * W);
                B &sum = ring(std::integral_constant<size_t, slot>{});
                sum = j == 0 ? x : op(sum, x);
            },
            std::make_index_sequence<Lanes>{});
        const int64_t done = t - (Lanes - 1);
        if (decltype(checked)::value && (done < 0 || done >= vectors)) return;
        T *a = acc + column * W;
        op(B::load_unaligned(a), ring(std::integral_constant<size_t, (Phase + 1) % Lanes>{}))
            .store_unaligned(a);
        if (++column == per_row) column = 0;
    };
    // Every phase of a block of Lanes steps from t, a multiple of Lanes: the ring's slots stay
    // compile-time indices, so the ring stays in registers.
    const auto block = [&](int64_t t, auto checked) __attribute__((always_inline)) {
        each_vector(
            [&](auto phase) __attribute__((always_inline)) {
                step(phase, t + int64_t(decltype(phase)::value), checked);
            },
            std::make_index_sequence<Lanes>{});
    };
    const int64_t steps = vectors + Lanes - 1;
    block(0, std::true_type{});  // the first steps, where the later lanes have not started
    int64_t t = Lanes;
    // The steps where every lane has a vector: t >= Lanes - 1 and t + Lanes <= vectors.
    for (; t + Lanes <= vectors; t += Lanes) block(t, std::false_type{});
    for (; t < steps; t += Lanes) block(t, std::true_type{});
}

// acc[i] = f(acc[i], column i of every row of 1 to kMaxAccumulateLanes lanes), lane j being `rows`
// rows of n values one after another from starts[j]. Rows of a whole number of vectors go
// through accumulate_lanes_of; others one row of each lane at a time through accumulate_rows_of.
template <class Arch, class T, ReduceFn F>
void float_accumulate_lanes(int64_t n, int64_t rows, const T *const *starts, int32_t lanes,
                            T *acc) {
    constexpr int64_t W = xsimd::batch<T, Arch>::size;
    if (n % W != 0) {
        const T *row[kMaxAccumulateLanes];
        for (int64_t r = 0; r < rows; ++r) {
            for (int32_t j = 0; j < lanes; ++j) row[j] = starts[j] + r * n;
            float_accumulate_rows<Arch, T, F>(n, row, lanes, acc);
        }
        return;
    }
    static_assert(kMaxAccumulateLanes == 5, "one case per count below");
    switch (lanes) {
    case 1: return accumulate_lanes_of<Arch, T, F, 1>(n, rows, starts, acc);
    case 2: return accumulate_lanes_of<Arch, T, F, 2>(n, rows, starts, acc);
    case 3: return accumulate_lanes_of<Arch, T, F, 3>(n, rows, starts, acc);
    case 4: return accumulate_lanes_of<Arch, T, F, 4>(n, rows, starts, acc);
    case 5: return accumulate_lanes_of<Arch, T, F, 5>(n, rows, starts, acc);
    }
    bad_kernel_request("accumulate_lanes");
}

template <class T>
void integer_accumulate_lanes(ReduceFn f, int64_t n, int64_t rows, const T *const *starts,
                              int32_t lanes, T *acc) {
    for (int64_t r = 0; r < rows; ++r)
        for (int32_t j = 0; j < lanes; ++j) integer_accumulate(f, n, starts[j] + r * n, acc);
}

// ---- fused chains ------------------------------------------------------------------------------

// run_chain: the steps applied to kChainVectors vectors at a time, kept in registers from the
// first Load to the store, so every value is loaded and stored once whatever the chain's length
// and the transcendental steps of neighbouring vectors overlap. Leaf pointers advance with the
// block; broadcast values, temporaries and a padded last block live in `blocks`. One switch per
// step and block chooses the function (the case numbers are kind * 32 + fn). Eight vectors
// rather than four halve the dispatch per value (tanh_fma with AVX2: 8.2 -> 6.2 instructions per
// value under callgrind); with 16 vector registers the compiler keeps some accumulators on the
// stack around a transcendental step, which costs less than the dispatch saved.
constexpr int64_t kChainVectors = 8;

constexpr int32_t chain_case(ChainStep::Kind kind, int32_t fn) {
    return static_cast<int32_t>(kind) * 32 + fn;
}

// The functions whose vector code holds many constants and intermediate values in registers.
constexpr bool is_polynomial_step(int32_t fn) {
    return fn == static_cast<int32_t>(UnaryFn::Exp) || fn == static_cast<int32_t>(UnaryFn::Log) ||
           fn == static_cast<int32_t>(UnaryFn::Sigmoid) ||
           fn == static_cast<int32_t>(UnaryFn::Tanh);
}

// Whether a chain has only steps of a few instructions each (no is_polynomial_step function).
inline bool chain_is_cheap(const ChainStep *code, int32_t count) {
    for (int32_t s = 0; s < count; ++s)
        if (code[s].kind == ChainStep::Kind::Unary && is_polynomial_step(code[s].fn)) return false;
    return true;
}

// What a chain does with its values: stores them (Store), stores them past the cache to a
// vector-aligned output (Stream, for outputs of at least half the last-level cache), or adds them
// up (Sum).
enum class ChainOut { Store, Stream, Sum };

// The vectors of a block of a chain whose values are stored (ChainOut::Store), summed
// (ChainOut::Sum) or streamed past the cache (ChainOut::Stream). The last two mostly read their
// inputs from memory, and a step reads its input's whole block before the next step reads
// another input's, so with AVX-512 their blocks are shorter than AVX2's 8 vectors (256 bytes of
// each input, which 4 AVX-512 vectors read). On an AVX-512 Zen 4 core a stand-alone loop that read
// two 64 MiB arrays 8 vectors of one, then 8 of the other, took about 1.4 times as long as one that
// read them 4 and 4; with 8, l2_diff's sum((x - y)^2) over 2^24 floats at one thread there ran at
// 67 to 78% of a plain read of the same bytes, against 78 to 95% with 4 and the same with 2
// (bench_ab, the builds in one process). On an AVX-512 Zen 5 core 2 beat 4 for that sum in each
// of eight processes (both orders): 80 to 97% of the read, against 66 to 86%. There tanh_fma's
// streamed tanh(a * b + c) * 0.5 + a, whose arithmetic is most of its time, ran at 71 to 77% of
// its bound with 2 and at 63 to 110% with 4 (over 100% in three of the four processes). So sums
// take 2 and streamed chains 4 with AVX-512. Chains stored in the cache keep 8: 4 made tanh_fma's
// in-cache runs 10% slower.
template <class Arch, ChainOut Out>
constexpr int64_t kChainBlockVectors =
    Out == ChainOut::Store || !std::is_same_v<Arch, xsimd::avx512f> ? kChainVectors
    : Out == ChainOut::Sum                                          ? 2
                                                                    : 4;

// One block of K vectors (kChainBlockVectors for its output, or 1 for the last few values): the
// steps applied to the accumulators, stored to o (Stream: past the cache, o aligned; Sum: added
// to the K aligned vectors at o). Temporaries are kChainVectors vectors apart in `temps`. The
// pointers come in as parameters (not through a closure), so stores of the accumulators do not make
// the compiler reload them at every step. Cheap: the chain is chain_is_cheap, so the block is
// compiled without the polynomial steps.
template <class Arch, int64_t K, class T, ChainOut Out = ChainOut::Store, bool Cheap = false>
void chain_block(const ChainStep *code, int32_t count, const T *const *leaf, T *temps, T *o) {
    using B = xsimd::batch<T, Arch>;
    using Kind = ChainStep::Kind;
    constexpr int64_t W = B::size;
    constexpr int64_t BW = kChainVectors * W;
    using Vectors = std::make_index_sequence<K>;
    B acc[K];  // code[0] is a Load (checked by run_chain)
    each_vector([&](auto k) { acc[k] = B::load_unaligned(leaf[code[0].leaf] + k * W); }, Vectors{});
    for (int32_t s = 1; s < count; ++s) {
        const ChainStep step = code[s];
        const T *p = leaf[step.leaf];
        switch (chain_case(step.kind, step.fn)) {
        case chain_case(Kind::Load, 0):
            each_vector([&](auto k) { acc[k] = B::load_unaligned(p + k * W); }, Vectors{});
            break;
        case chain_case(Kind::Save, 0):
            each_vector([&](auto k) { acc[k].store_aligned(temps + step.leaf * BW + k * W); },
                        Vectors{});
            break;
#define NG_CHAIN_UNARY(Name)                                                                \
    case chain_case(Kind::Unary, static_cast<int32_t>(UnaryFn::Name)):                      \
        if constexpr (Cheap && is_polynomial_step(static_cast<int32_t>(UnaryFn::Name)))     \
            bad_kernel_request("polynomial step in a cheap chain");                         \
        else                                                                                \
            each_vector([&](auto k) { acc[k] = unary_value<UnaryFn::Name, Arch>(acc[k]); }, \
                        Vectors{});                                                         \
        break;
            NG_CHAIN_UNARY(Negative)
            NG_CHAIN_UNARY(Absolute)
            NG_CHAIN_UNARY(Sign)
            NG_CHAIN_UNARY(Exp)
            NG_CHAIN_UNARY(Log)
            NG_CHAIN_UNARY(Sqrt)
            NG_CHAIN_UNARY(Square)
            NG_CHAIN_UNARY(Reciprocal)
            NG_CHAIN_UNARY(Sigmoid)
            NG_CHAIN_UNARY(Relu)
            NG_CHAIN_UNARY(Tanh)
#undef NG_CHAIN_UNARY
#define NG_CHAIN_BINARY(Name)                                                                \
    case chain_case(Kind::Binary, static_cast<int32_t>(BinaryFn::Name)):                     \
        each_vector(                                                                         \
            [&](auto k) {                                                                    \
                acc[k] = binary_value<BinaryFn::Name>(acc[k], B::load_unaligned(p + k * W)); \
            },                                                                               \
            Vectors{});                                                                      \
        break;                                                                               \
    case chain_case(Kind::BinaryReversed, static_cast<int32_t>(BinaryFn::Name)):             \
        each_vector(                                                                         \
            [&](auto k) {                                                                    \
                acc[k] = binary_value<BinaryFn::Name>(B::load_unaligned(p + k * W), acc[k]); \
            },                                                                               \
            Vectors{});                                                                      \
        break;                                                                               \
    case chain_case(Kind::BinarySelf, static_cast<int32_t>(BinaryFn::Name)):                 \
        each_vector([&](auto k) { acc[k] = binary_value<BinaryFn::Name>(acc[k], acc[k]); },  \
                    Vectors{});                                                              \
        break;
            NG_CHAIN_BINARY(Add)
            NG_CHAIN_BINARY(Subtract)
            NG_CHAIN_BINARY(Multiply)
            NG_CHAIN_BINARY(Divide)
            NG_CHAIN_BINARY(Maximum)
            NG_CHAIN_BINARY(Minimum)
#undef NG_CHAIN_BINARY
        default: bad_kernel_request("chain step");
        }
    }
    if constexpr (Out == ChainOut::Sum)
        each_vector([&](auto k) { (B::load_aligned(o + k * W) + acc[k]).store_aligned(o + k * W); },
                    Vectors{});
    else if constexpr (Out == ChainOut::Stream)
        each_vector([&](auto k) { store_streaming<Arch>(o + k * W, acc[k]); }, Vectors{});
    else
        each_vector([&](auto k) { acc[k].store_unaligned(o + k * W); }, Vectors{});
}

// The sum of `blocks` whole blocks of kChainBlockVectors<Arch, Sum> vectors, as one vector:
// chain_block inlined into one loop whose per-vector sums, and the cascade above them, the
// compiler keeps in registers from the first block to the last (with a call per block, the call,
// the sums' loads and stores and the register file's cleanup made l2_diff's sum((x - y)^2) over
// 2^24 values take 5.0 to 5.8 ms instead of 4.3 to 4.6 ms at one thread on an AVX-512 Zen 4 core).
// Every kCascadeBlocks blocks the sums are combined pairwise into a group sum, added to level 1;
// every kCascadeBlocks group sums level 1 goes into level 2, and so on: each addition adds up
// values of like size, so the rounding error grows with the log of n, as in a pairwise sum, while
// the sums stay in registers however long the run (see innermost_reduced in reduce.cpp). The leaves
// with an advance move by it after each block. A Cheap chain's loop is compiled without the
// polynomial steps: their constants and intermediate values otherwise lead the compiler to keep
// the block's values and sums on the stack around the whole switch, and the cheap chains are the
// memory-bound ones (l2_diff's sum((x - y)^2) at one thread on an AVX2 Zen 3 core: 84 to 95% of
// a plain read of the same bytes with the polynomial cases, 89 to 99% without, the two builds in
// one process, six processes).
template <class Arch, class T, bool Cheap>
[[gnu::flatten]] xsimd::batch<T, Arch> chain_sum_blocks(const ChainStep *code, int32_t count,
                                                        const T **leaf, const int64_t *advance,
                                                        int32_t leaf_count, T *temps,
                                                        int64_t blocks) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr int64_t V = kChainBlockVectors<Arch, ChainOut::Sum>;
    constexpr int64_t kCascadeBlocks = 16;
    using Vectors = std::make_index_sequence<V>;
    alignas(64) T local[V * W];
    const auto group_sum = [&] {
        B v[V];
        each_vector([&](auto k) { v[k] = B::load_aligned(local + k * W); }, Vectors{});
        for (int64_t width = V / 2; width >= 1; width /= 2)
            for (int64_t k = 0; k < width; ++k) v[k] = v[k] + v[k + width];
        each_vector([&](auto k) { B(T(0)).store_aligned(local + k * W); }, Vectors{});
        return v[0];
    };
    each_vector([&](auto k) { B(T(0)).store_aligned(local + k * W); }, Vectors{});
    B level1(T(0)), level2(T(0)), level3(T(0));
    for (int64_t b = 0; b < blocks; ++b) {
        chain_block<Arch, V, T, ChainOut::Sum, Cheap>(code, count, leaf, temps, local);
        for (int32_t l = 0; l < leaf_count; ++l) leaf[l] += advance[l];
        const int64_t done = b + 1;
        if (done % kCascadeBlocks) continue;
        level1 += group_sum();
        if (done % (kCascadeBlocks * kCascadeBlocks)) continue;
        level2 += level1;
        level1 = B(T(0));
        if (done % (kCascadeBlocks * kCascadeBlocks * kCascadeBlocks)) continue;
        level3 += level2;
        level2 = B(T(0));
    }
    return ((group_sum() + level1) + level2) + level3;
}

// Sum: out[0] = the sum of the chain's n values instead, none of them stored: the whole blocks
// summed in registers by chain_sum_blocks, the rest added to that vector, then its lanes added
// up. A reduction reads its inputs once and keeps nothing of the chain in memory (a tile
// of values stored and read back cost a third more time than the reads alone on an AVX-512
// Zen 4 core). Stream: the whole blocks go past the cache when `out` is aligned to a vector (the
// tiles of an aligned tensor are), without a fence: the caller fences once after its last tile
// (fence_streamed_stores).
template <class Arch, class T, ChainOut Out>
void float_chain(int64_t n, const ChainStep *code, int32_t count, const T *const *inputs,
                 const int *input_steps, int32_t input_count, int32_t leaf_count, T *out) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr bool Sum = Out == ChainOut::Sum;
    // The values of a whole block; a temporary's or a broadcast value's block holds kChainVectors
    // vectors (chain_block's temps), of which a summed or streamed chain's blocks read the first.
    constexpr int64_t V = kChainBlockVectors<Arch, Out>;
    constexpr int64_t BW = V * W;
    alignas(64) T blocks[kMaxChainLeaves][kChainVectors * W];
    const T *leaf[kMaxChainLeaves];
    int64_t advance[kMaxChainLeaves];
    for (int32_t l = 0; l < leaf_count; ++l) {
        leaf[l] = blocks[l];
        advance[l] = 0;
    }
    const int64_t filled = n >= BW ? BW : W;  // of a broadcast value's block that is read
    for (int32_t l = 0; l < input_count; ++l) {
        if (input_steps[l]) {
            leaf[l] = inputs[l];
            advance[l] = BW;
        } else {
            for (int64_t j = 0; j < filled; ++j) blocks[l][j] = *inputs[l];
        }
    }

    T *po = out;
    const int64_t len = n;
    B total(T(0));
    int64_t i = 0;
    const auto whole_blocks = [&](auto how) {
        for (; i + BW <= len; i += BW) {
            chain_block<Arch, V, T, decltype(how)::value>(code, count, leaf, blocks[0], po + i);
            for (int32_t l = 0; l < input_count; ++l) leaf[l] += advance[l];
        }
    };
    if constexpr (Sum) {
        const int64_t whole = len / BW;
        total = chain_is_cheap(code, count)
                    ? chain_sum_blocks<Arch, T, true>(code, count, leaf, advance, input_count,
                                                      blocks[0], whole)
                    : chain_sum_blocks<Arch, T, false>(code, count, leaf, advance, input_count,
                                                       blocks[0], whole);
        i = len / BW * BW;
    } else if (Out == ChainOut::Stream && reinterpret_cast<uintptr_t>(po) % sizeof(B) == 0) {
        whole_blocks(std::integral_constant<ChainOut, ChainOut::Stream>{});
    } else {
        whole_blocks(std::integral_constant<ChainOut, ChainOut::Store>{});
    }
    // The rest one vector at a time (short rows are common: a [128, 10] tile is 10 values), the
    // last values through the same code on a zero-padded copy of one vector of each array (its
    // leaves read memory), loaded with load_first.
    for (; i + W <= len; i += W) {
        if constexpr (Sum) {
            alignas(64) T values[W];
            chain_block<Arch, 1>(code, count, leaf, blocks[0], values);
            total += B::load_aligned(values);
        } else {
            chain_block<Arch, 1>(code, count, leaf, blocks[0], po + i);
        }
        for (int32_t l = 0; l < input_count; ++l) leaf[l] += advance[l] ? W : 0;
    }
    if (i < len) {
        const int64_t m = len - i;
        for (int32_t l = 0; l < input_count; ++l) {
            if (!advance[l]) continue;
            load_first<Arch>(inputs[l] + i, m).store_aligned(blocks[l]);
            leaf[l] = blocks[l];
        }
        alignas(64) T tail[W];
        chain_block<Arch, 1>(code, count, leaf, blocks[0], tail);
        if constexpr (Sum)
            total += keep_first<Arch>(B::load_aligned(tail), m, T(0));  // the padding's are 0
        else
            store_first<Arch>(po + i, m, B::load_aligned(tail));
    }
    if constexpr (Sum) out[0] = xsimd::hadd(total);
}

// ---- transposed matrix-vector product -----------------------------------------------------------

// y[0..n) = alpha (x[0] a[0, :] + ... + x[rows - 1] a[rows - 1, :]) + beta y, a row-major with
// leading dimension lda, x a stride incx apart; beta = 0 does not read y. Four vectors of columns
// at a time stay in registers through every row, so a and y are each read once (a batch-1 layer of
// a network: y = W^T x with W stored [in, out]).
template <class Arch, class T>
void float_gemv_transposed(int64_t rows, int64_t n, T alpha, const T *a, int64_t lda, const T *x,
                           int64_t incx, T beta, T *y) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr int64_t kVectors = 4;
    auto finish = [&](B sum, T *out) {
        B result = B(alpha) * sum;
        if (beta != T(0)) result = multiply_add(B(beta), B::load_unaligned(out), result);
        result.store_unaligned(out);
    };
    int64_t j = 0;
    for (; j + kVectors * W <= n; j += kVectors * W) {
        B sum[kVectors];
        for (B &v : sum) v = B(T(0));
        for (int64_t r = 0; r < rows; ++r) {
            const B weight(x[r * incx]);
            const T *row = a + r * lda + j;
            for (int64_t v = 0; v < kVectors; ++v)
                sum[v] = multiply_add(weight, B::load_unaligned(row + v * W), sum[v]);
        }
        for (int64_t v = 0; v < kVectors; ++v) finish(sum[v], y + j + v * W);
    }
    for (; j + W <= n; j += W) {
        B sum(T(0));
        for (int64_t r = 0; r < rows; ++r)
            sum = multiply_add(B(x[r * incx]), B::load_unaligned(a + r * lda + j), sum);
        finish(sum, y + j);
    }
    for (; j < n; ++j) {  // the last columns, fewer than a vector
        T sum = T(0);
        for (int64_t r = 0; r < rows; ++r) sum += x[r * incx] * a[r * lda + j];
        y[j] = beta != T(0) ? alpha * sum + beta * y[j] : alpha * sum;
    }
}

}  // namespace
}  // namespace ng::kernels

#include "kernels/gemm_panels_impl.hpp"

namespace ng::kernels {
namespace {

// ---- dtype dispatch (without visit_dtype, whose error path formats a message) -------------------

template <class Body>
inline void by_dtype(DType dt, Body &&body) {
    switch (dt) {
    case NG_BOOL:
    case NG_UINT8: return body(uint8_t{});
    case NG_INT32: return body(int32_t{});
    case NG_INT64: return body(int64_t{});
    case NG_FLOAT32: return body(float{});
    case NG_FLOAT64: return body(double{});
    default: bad_kernel_request("dtype");
    }
}

template <class T>
constexpr bool is_float_v = std::is_floating_point_v<T>;

template <class Arch>
struct Primitives {
    static void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_unary<Arch>(f, n, static_cast<const T *>(x), static_cast<T *>(out));
            else
                integer_unary(f, n, static_cast<const T *>(x), static_cast<T *>(out));
        });
    }
    static void binary(BinaryFn f, DType dt, int64_t n, const void *a, int as, const void *b,
                       int bs, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto pa = static_cast<const T *>(a);
            auto pb = static_cast<const T *>(b);
            if constexpr (is_float_v<T>)
                float_binary<Arch>(f, n, pa, as, pb, bs, static_cast<T *>(out));
            else
                integer_binary(f, n, pa, as, pb, bs, static_cast<T *>(out));
        });
    }
    static void compare(CompareFn f, DType dt, int64_t n, const void *a, int as, const void *b,
                        int bs, uint8_t *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            compare_typed(f, n, static_cast<const T *>(a), as, static_cast<const T *>(b), bs, out);
        });
    }
    static void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int as,
                       const void *b, int bs, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            select_typed(n, cond, static_cast<const T *>(a), as, static_cast<const T *>(b), bs,
                         static_cast<T *>(out));
        });
    }
    static void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            *static_cast<T *>(result) = reduce_values<T>(f, static_cast<const T *>(x), n);
        });
    }
    // f over values[0..n) of one dtype: what reduce_all and reduce_rows compute.
    template <class T>
    static T reduce_values(ReduceFn f, const T *values, int64_t n) {
        if constexpr (is_float_v<T>)
            return float_reduce<Arch>(f, values, n);
        else
            return integer_reduce(f, values, n);
    }
    static void reduce_rows(ReduceFn f, DType dt, int64_t rows, int64_t n, int64_t tile,
                            const void *x, int64_t x_stride, void *out, int64_t out_stride) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            const auto reduce = [f](const T *values, int64_t count) {
                return reduce_values<T>(f, values, count);
            };
            if constexpr (is_float_v<T>)
                if (f == ReduceFn::Sum && tile <= kSumLeaf<Arch, T> && n <= 2 * tile)
                    return paired_row_sums<Arch>(rows, n, tile, static_cast<const T *>(x), x_stride,
                                                 static_cast<T *>(out), out_stride);
            T tiles[kMaxRowTiles];
            for (int64_t r = 0; r < rows; ++r) {
                const T *row = static_cast<const T *>(x) + r * x_stride;
                T *result = static_cast<T *>(out) + r * out_stride;
                if (n <= tile) {
                    *result = reduce(row, n);
                    continue;
                }
                if constexpr (is_float_v<T>)
                    if (f == ReduceFn::Sum && n <= 2 * tile) {
                        // Two tiles: what reduce gives them, inlined, and their sum, which is
                        // what reducing the two results gives (padded with zeros; a tile's sum is
                        // never -0) without passing them through memory. Every float sum of
                        // reduce_values inlined instead made this row sum 10% slower.
                        *result = pairwise_sum<Arch, T>(row, tile) +
                                  pairwise_sum<Arch, T>(row + tile, n - tile);
                        continue;
                    }
                int64_t count = 0;
                for (int64_t start = 0; start < n; start += tile)
                    tiles[count++] = reduce(row + start, std::min(tile, n - start));
                *result = reduce(tiles, count);
            }
        });
    }
    static void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_accumulate<Arch>(f, n, static_cast<const T *>(x), static_cast<T *>(acc));
            else
                integer_accumulate(f, n, static_cast<const T *>(x), static_cast<T *>(acc));
        });
    }

    static void accumulate_rows(ReduceFn f, DType dt, int64_t n, const void *const *rows,
                                int32_t count, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto r = reinterpret_cast<const T *const *>(rows);
            auto a = static_cast<T *>(acc);
            if constexpr (is_float_v<T>) {
                by_reduce_fn(f, "accumulate_rows", [&](auto fn) {
                    float_accumulate_rows<Arch, T, decltype(fn)::value>(n, r, count, a);
                });
            } else {
                integer_accumulate_rows(f, n, r, count, a);
            }
        });
    }

    static void accumulate_lanes(ReduceFn f, DType dt, int64_t n, int64_t rows,
                                 const void *const *starts, int32_t lanes, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto s = reinterpret_cast<const T *const *>(starts);
            auto a = static_cast<T *>(acc);
            if constexpr (is_float_v<T>) {
                by_reduce_fn(f, "accumulate_lanes", [&](auto fn) {
                    float_accumulate_lanes<Arch, T, decltype(fn)::value>(n, rows, s, lanes, a);
                });
            } else {
                integer_accumulate_lanes(f, n, rows, s, lanes, a);
            }
        });
    }

    static void exp_shifted(DType dt, int64_t n, const void *x, const void *shift, int shift_step,
                            void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>) {
                using B = xsimd::batch<T, Arch>;
                map_binary<Arch>(n, static_cast<const T *>(x), 1, static_cast<const T *>(shift),
                                 shift_step, static_cast<T *>(out),
                                 [](B v, B s) { return exp_nonpositive<Arch, T>(v - s); });
            } else {
                bad_kernel_request("exp_shifted");
            }
        });
    }

    static void chain(DType dt, int64_t n, const ChainStep *code, int32_t count,
                      const void *const *inputs, const int *input_steps, int32_t input_count,
                      int32_t leaf_count, void *out, bool stream_out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            const auto run = [&](auto how) {
                float_chain<Arch, T, decltype(how)::value>(
                    n, code, count, reinterpret_cast<const T *const *>(inputs), input_steps,
                    input_count, leaf_count, static_cast<T *>(out));
            };
            if constexpr (!is_float_v<T>)
                bad_kernel_request("chain");
            else if (stream_out)
                run(std::integral_constant<ChainOut, ChainOut::Stream>{});
            else
                run(std::integral_constant<ChainOut, ChainOut::Store>{});
        });
    }

    static void chain_sum(DType dt, int64_t n, const ChainStep *code, int32_t count,
                          const void *const *inputs, const int *input_steps, int32_t input_count,
                          int32_t leaf_count, void *sum) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_chain<Arch, T, ChainOut::Sum>(
                    n, code, count, reinterpret_cast<const T *const *>(inputs), input_steps,
                    input_count, leaf_count, static_cast<T *>(sum));
            else
                bad_kernel_request("chain_sum");
        });
    }

    static void gemv_transposed(DType dt, int64_t rows, int64_t n, double alpha, const void *a,
                                int64_t lda, const void *x, int64_t incx, double beta, void *y) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_gemv_transposed<Arch, T>(rows, n, T(alpha), static_cast<const T *>(a), lda,
                                               static_cast<const T *>(x), incx, T(beta),
                                               static_cast<T *>(y));
            else
                bad_kernel_request("gemv_transposed");
        });
    }

    static void softmax_rows(DType dt, bool log, int64_t rows, int64_t n, const void *x,
                             int64_t x_stride, void *y, int64_t y_stride, bool stream_out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                softmax_rows_typed<Arch>(log, rows, n, static_cast<const T *>(x), x_stride,
                                         static_cast<T *>(y), y_stride, stream_out);
            else
                bad_kernel_request("softmax_rows");
        });
    }

    static constexpr VectorTable table(const char *name) {
        return VectorTable{name,
                           &unary,
                           &binary,
                           &compare,
                           &select,
                           &reduce_all,
                           &reduce_rows,
                           &accumulate,
                           &accumulate_rows,
                           &accumulate_lanes,
                           &exp_shifted,
                           &softmax_rows,
                           &chain,
                           &chain_sum,
                           &gemv_transposed,
                           panel_width<Arch>(),
                           panel_product<Arch>()};
    }
};

}  // namespace
}  // namespace ng::kernels
