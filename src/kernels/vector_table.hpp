// The level-1 primitives of one instruction set, as a table of function pointers. Each
// instruction set's table is built in its own translation unit (vector_ops_<isa>.cpp, compiled
// with that set's flags by cmake/SimdSources.cmake) and dispatch.cpp picks one, once, from what
// the CPU reports. Code compiled for AVX2 or AVX-512 is reachable only through these tables.
#pragma once

#include <cstdint>

#include "kernels/kernels.hpp"

namespace ng::kernels {

// One column panel of a float32 matrix product, for VectorTable::gemm_panel:
// C[rows x cols] = alpha * op(A)[rows x depth] * P[depth x cols] (+ bias[j] on column j when bias
// is not null) + beta * C, then max(C, 0) when relu (NaN stays NaN). P is packed: `depth` rows of
// the table's panel_width floats, 64-byte aligned, zero past `cols` (cols <= panel_width).
// beta = 0 ignores what C held.
struct PanelProduct {
    int64_t rows = 0, depth = 0;
    int32_t cols = 0;
    const float *a = nullptr;  // op(A)'s element (i, d): a[i * lda + d], transposed a[d * lda + i]
    int64_t lda = 0;
    bool transpose_a = false;
    const float *panel = nullptr;
    float alpha = 1, beta = 0;
    const float *bias = nullptr;  // cols values, or null
    bool relu = false;
    float *c = nullptr;
    int64_t ldc = 0;
};

struct VectorTable {
    const char *name;
    void (*unary)(UnaryFn f, DType dt, int64_t n, const void *x, void *out);
    void (*binary)(BinaryFn f, DType dt, int64_t n, const void *a, int a_step, const void *b,
                   int b_step, void *out);
    void (*compare)(CompareFn f, DType dt, int64_t n, const void *a, int a_step, const void *b,
                    int b_step, uint8_t *out);
    void (*select)(DType dt, int64_t n, const uint8_t *cond, const void *a, int a_step,
                   const void *b, int b_step, void *out);
    void (*reduce_all)(ReduceFn f, DType dt, int64_t n, const void *x, void *result);
    void (*reduce_rows)(ReduceFn f, DType dt, int64_t rows, int64_t n, int64_t tile, const void *x,
                        int64_t x_stride, void *out, int64_t out_stride);
    void (*accumulate)(ReduceFn f, DType dt, int64_t n, const void *x, void *acc);
    void (*accumulate_rows)(ReduceFn f, DType dt, int64_t n, const void *const *rows, int32_t count,
                            void *acc);
    void (*accumulate_lanes)(ReduceFn f, DType dt, int64_t n, int64_t rows,
                             const void *const *starts, int32_t lanes, void *acc);
    void (*exp_shifted)(DType dt, int64_t n, const void *x, const void *shift, int shift_step,
                        void *out);
    void (*softmax_rows)(DType dt, bool log, int64_t rows, int64_t n, const void *x,
                         int64_t x_stride, void *y, int64_t y_stride, bool stream_out);
    void (*chain)(DType dt, int64_t n, const ChainStep *code, int32_t count,
                  const void *const *inputs, const int *input_steps, int32_t input_count,
                  int32_t leaf_count, void *out, bool stream_out);
    void (*chain_sum)(DType dt, int64_t n, const ChainStep *code, int32_t count,
                      const void *const *inputs, const int *input_steps, int32_t input_count,
                      int32_t leaf_count, void *sum);
    void (*gemv_transposed)(DType dt, int64_t rows, int64_t n, double alpha, const void *a,
                            int64_t lda, const void *x, int64_t incx, double beta, void *y);
    int32_t panel_width;  // columns of a packed panel: two vectors of float
    void (*gemm_panel)(const PanelProduct &product);  // null: float32 products stay with OpenBLAS
};

extern const VectorTable vector_table_sse2;
extern const VectorTable vector_table_avx2;
extern const VectorTable vector_table_avx512;

// Thrown from the tables for a request dispatch.cpp should have rejected (an internal error).
[[noreturn]] void bad_kernel_request(const char *what);

// The table for this CPU, chosen at first use.
const VectorTable &vector_table();

}  // namespace ng::kernels
