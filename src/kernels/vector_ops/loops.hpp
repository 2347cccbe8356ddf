// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the loop skeletons
// every kernel is built from, and the loads and stores of a vector's first lanes that finish a
// loop's tail without touching memory past the array's end.
#pragma once

// Every intrinsic, whatever this file's flags: load_first and store_first name AVX2 and AVX-512.
#include <immintrin.h>
#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

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

// f(integral_constant<0>), ..., f(integral_constant<K-1>): code unrolled K times whose
// accumulators (a chain's, a reduction's) are separate variables the compiler keeps in registers.
template <class F, size_t... k>
__attribute__((always_inline)) inline void each_vector(F &&f, std::index_sequence<k...>) {
    (f(std::integral_constant<size_t, k>{}), ...);
}

}  // namespace
}  // namespace ng::kernels
