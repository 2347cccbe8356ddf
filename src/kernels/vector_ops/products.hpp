// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the matrix products
// of the tables: the transposed matrix-vector product (VectorTable::gemv_transposed) and the
// float32 product of a matrix and one packed column panel (VectorTable::gemm_panel).
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/vector_ops/loops.hpp"
#include "kernels/vector_ops/math.hpp"

namespace ng::kernels {
namespace {

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

// ---- one packed column panel --------------------------------------------------------------------

// A block of rows of C is kept in registers for the whole depth: each step over the depth loads
// the panel's row once (two vectors) and multiplies it by one broadcast element of each row of A,
// read in place. Rows per block fill the register file: 12 x 2 accumulators with AVX-512's 32
// registers, 6 x 2 with the 16 of AVX2 (SSE2 has no entry: its products stay with OpenBLAS).

template <class Arch>
constexpr int panel_block_rows() {
    return std::is_same_v<Arch, xsimd::avx512f> ? 12 : 6;
}

// Whether panel_block fetches the panel eight rows ahead. An AVX-512 panel (two lines a row,
// 100 KiB for a depth of 784) comes from the second-level cache, and an Intel core's own
// prefetchers left the loop waiting on its loads: fetching ahead makes batch-128 inference of a
// 784-512-256-10 network faster (bench_train --threads 1 --only mlp_infer_b128). An AVX2
// panel has half the lines, and the same inference with the AVX2 table is slower with the fetches.
template <class Arch>
constexpr bool kPrefetchPanel = std::is_same_v<Arch, xsimd::avx512f>;

template <class Arch>
constexpr int32_t panel_width() {
    return int32_t(2 * xsimd::batch<float, Arch>::size);
}

// The first `valid` (1 to W) of a vector's values at `from` (the rest 0), reading only those.
template <class Arch>
inline xsimd::batch<float, Arch> load_part(const float *from, int32_t valid) {
    using B = xsimd::batch<float, Arch>;
    if (valid == int32_t(B::size)) return B::load_unaligned(from);
    return load_first<Arch>(from, valid);
}

// C's row `out` (its first `valid` columns of one vector) = alpha * sum (+ bias) (+ beta * C),
// ReLU after. `column` is the vector's first column in the panel.
template <class Arch>
inline void store_panel_vector(xsimd::batch<float, Arch> sum, const PanelProduct &p, float *out,
                               int32_t column, int32_t valid) {
    using B = xsimd::batch<float, Arch>;
    constexpr int32_t W = int32_t(B::size);
    B result = B(p.alpha) * sum;
    if (p.bias) result += load_part<Arch>(p.bias + column, valid);
    // beta = 0 ignores C, NaNs included, as BLAS does.
    if (p.beta != 0.0f) result = multiply_add(B(p.beta), load_part<Arch>(out, valid), result);
    if (p.relu) result = xsimd::select(result < B(0.0f), B(0.0f), result);  // NaN stays NaN
    if (valid == W)
        result.store_unaligned(out);
    else
        store_first<Arch>(out, valid, result);  // a partial panel's last columns
}

// Rows [row, row + Rows) of C over the panel's first Vectors vectors.
template <class Arch, int Rows, int Vectors, bool TransposedA>
void panel_block(const PanelProduct &p, int64_t row) {
    using B = xsimd::batch<float, Arch>;
    constexpr int32_t W = int32_t(B::size);
    constexpr int64_t kPanelStep = 2 * W;  // floats per row of the panel
    constexpr int64_t kFloatsPerLine = 64 / sizeof(float);
    B sum[Rows][Vectors];
    for (int r = 0; r < Rows; ++r)
        for (int v = 0; v < Vectors; ++v) sum[r][v] = B(0.0f);
    // Element (i, d) of op(A) is a[i * row_step + d * depth_step]. One pointer per three rows,
    // the other two at one and two row steps from it: x86 addresses a base plus an index scaled
    // by 4 or 8, so twelve rows need four pointers and the row step, where twelve pointers
    // left the compiler short of registers.
    const int64_t row_step = TransposedA ? 1 : p.lda, depth_step = TransposedA ? p.lda : 1;
    constexpr int kBases = (Rows + 2) / 3;
    const float *base[kBases];
    for (int g = 0; g < kBases; ++g) base[g] = p.a + (row + 3 * g) * row_step;
    const float *panel = p.panel;
    for (int64_t d = 0; d < p.depth; ++d, panel += kPanelStep) {
        B column[Vectors];
        for (int v = 0; v < Vectors; ++v) column[v] = B::load_aligned(panel + v * W);
        if constexpr (kPrefetchPanel<Arch>)
            for (int64_t line = 0; line < kPanelStep; line += kFloatsPerLine)
                __builtin_prefetch(panel + 8 * kPanelStep + line);
#pragma GCC unroll 16
        for (int r = 0; r < Rows; ++r) {
            const B element(base[r / 3][(r % 3) * row_step]);
            for (int v = 0; v < Vectors; ++v)
                sum[r][v] = multiply_add(element, column[v], sum[r][v]);
        }
        for (int g = 0; g < kBases; ++g) base[g] += depth_step;
    }
    for (int r = 0; r < Rows; ++r) {
        float *out = p.c + (row + r) * p.ldc;
        for (int v = 0; v < Vectors; ++v) {
            const int32_t left = p.cols - v * W;
            store_panel_vector<Arch>(sum[r][v], p, out + v * W, v * W, left < W ? left : W);
        }
    }
}

// Every row of C: whole blocks, then the rest in blocks of 8, 4, 2 and 1 rows.
template <class Arch, int Vectors, bool TransposedA>
void panel_rows(const PanelProduct &p) {
    constexpr int kRows = panel_block_rows<Arch>();
    int64_t row = 0;
    for (; row + kRows <= p.rows; row += kRows)
        panel_block<Arch, kRows, Vectors, TransposedA>(p, row);
    if constexpr (kRows > 8)
        if (row + 8 <= p.rows) {
            panel_block<Arch, 8, Vectors, TransposedA>(p, row);
            row += 8;
        }
    if (row + 4 <= p.rows) {
        panel_block<Arch, 4, Vectors, TransposedA>(p, row);
        row += 4;
    }
    if (row + 2 <= p.rows) {
        panel_block<Arch, 2, Vectors, TransposedA>(p, row);
        row += 2;
    }
    if (row < p.rows) panel_block<Arch, 1, Vectors, TransposedA>(p, row);
}

// A panel of at most one vector's columns multiplies only that vector.
template <class Arch>
void float_gemm_panel(const PanelProduct &p) {
    const bool one_vector = p.cols <= int32_t(xsimd::batch<float, Arch>::size);
    if (p.transpose_a)
        one_vector ? panel_rows<Arch, 1, true>(p) : panel_rows<Arch, 2, true>(p);
    else
        one_vector ? panel_rows<Arch, 1, false>(p) : panel_rows<Arch, 2, false>(p);
}

// The table's entry: none for SSE2, whose products stay with OpenBLAS. The AVX-512 and AVX2 panels
// can outrun OpenBLAS's kernels for the same instruction sets on a network's layers (compare
// bench_train --threads 1 --only mlp_infer_b128 with bench_limits --only mlp_infer_b128).
template <class Arch>
constexpr void (*panel_product())(const PanelProduct &) {
    if constexpr (std::is_same_v<Arch, xsimd::sse2>)
        return nullptr;
    else
        return &float_gemm_panel<Arch>;
}

}  // namespace
}  // namespace ng::kernels
