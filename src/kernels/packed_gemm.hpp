// Float32 matrix products in nanograph's own kernel. For a right-hand matrix that many products
// share (a layer's weights from run to run), op(B) is packed once into column panels
// (PackedPanels), and each product multiplies A, read in place, by every panel
// (VectorTable::gemm_panel); for one that changes (training's), panel_gemm packs each panel as
// it goes. With the packing paid once, a layer's product runs close to the core's peak of
// multiply-adds, and faster than OpenBLAS, which packs both operands at every call (compare
// bench_train --threads 1 --only mlp_infer_b128 with bench_limits --only mlp_infer_b128).
#pragma once

#include <cstdint>
#include <memory>

#include "core/storage.hpp"

namespace ng {
class ThreadPool;
}

namespace ng::kernels {

// op(B), depth x cols, as column panels of the CPU's panel width: panel j holds columns
// [j w, j w + w) as `depth` rows of w floats, zero past the last column.
class PackedPanels {
public:
    // Whether this CPU's kernels have the panel product.
    static bool available();
    // Packs op(B): B stored depth x cols (row-major, leading dimension ldb), or cols x depth when
    // transpose_b. Reuses the memory of an earlier packing when it is large enough; new memory
    // comes from the allocator in force (Storage). Throws invalid_argument for negative sizes or
    // a leading dimension shorter than a stored row, unsupported where available() is false.
    void pack(bool transpose_b, int64_t depth, int64_t cols, const float *b, int64_t ldb,
              ThreadPool *pool);

    int64_t depth() const { return depth_; }
    int64_t cols() const { return cols_; }
    int64_t panels() const { return panels_; }
    int32_t width() const { return width_; }
    const float *panel(int64_t j) const {
        return static_cast<const float *>(storage_->data()) + j * depth_ * width_;
    }

private:
    std::shared_ptr<Storage> storage_;
    int64_t depth_ = 0, cols_ = 0, panels_ = 0;
    int32_t width_ = 0;
};

// What packed_gemm does with each product before it stores it: C = alpha * product (+ bias[j]
// on column j when bias is not null, b.cols() values) + beta * C, then max(C, 0) when relu (NaN
// stays NaN). beta = 0 ignores what C held.
struct ProductEpilogue {
    float alpha = 1, beta = 0;
    const float *bias = nullptr;
    bool relu = false;
};

// Whether float32 products whose right-hand matrix changes from run to run (training's) should go
// to panel_gemm rather than OpenBLAS: when this CPU's table has the panel product with AVX-512
// while OpenBLAS runs kernels of a narrower instruction set. OpenBLAS picks its kernels from the
// CPU models its build knows and gives a newer CPU an older core's (OpenBLAS 0.3.21 runs its AVX2
// sgemm on AVX-512 cores it does not know), and the panel product, packing each panel as it goes,
// then runs a training step's products much faster (bench_train --threads 1 --only sgd_step).
bool panel_product_outruns_openblas();

// C = op(A) * op(B) through `epilogue`, as packed_gemm, for op(B) of k x n given as stored (B
// k x n, or n x k when transpose_b; leading dimension ldb): each thread packs one panel of op(B)
// at a time into its scratch and multiplies rows of A by it, so that no packed copy of B outlives
// the call (k panel widths of floats per thread). Throws invalid_argument for negative sizes or
// leading dimensions shorter than a stored row, unsupported where PackedPanels::available() is
// false.
void panel_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float *a,
                int64_t lda, const float *b, int64_t ldb, const ProductEpilogue &epilogue, float *c,
                int64_t ldc, ThreadPool *pool);

// C = op(A) * op(B) through `epilogue`, for op(A) of m x b.depth() (A stored m x depth, or
// depth x m when transpose_a; leading dimension lda) and op(B) packed in `b`. Rows of C have
// leading dimension ldc. Throws invalid_argument for a negative m or a leading dimension shorter
// than a stored row.
void packed_gemm(bool transpose_a, int64_t m, const float *a, int64_t lda, const PackedPanels &b,
                 const ProductEpilogue &epilogue, float *c, int64_t ldc, ThreadPool *pool);

}  // namespace ng::kernels
