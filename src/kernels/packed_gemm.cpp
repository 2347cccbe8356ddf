#include "kernels/packed_gemm.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "kernels/thread_pool.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {
namespace {

// A product this small (multiply-adds) runs on the calling thread: waking a worker costs more.
constexpr int64_t kParallelMinMultiplyAdds = int64_t(1) << 21;
// Rows of A one pass over the panels reads, so that they stay in the core's second-level cache
// while every panel multiplies them (bytes of A per group).
constexpr int64_t kRowGroupBytes = int64_t(512) << 10;

// Panel j of op(B) into `out` (depth rows of width floats, zero past the last column).
void pack_panel(bool transpose_b, int64_t depth, int64_t cols, const float *b, int64_t ldb,
                int32_t width, int64_t j, float *out) {
    const int64_t first = j * width, count = std::min<int64_t>(width, cols - first);
    const size_t padding = size_t(width - count) * sizeof(float);
    if (!transpose_b) {
        for (int64_t d = 0; d < depth; ++d) {
            std::memcpy(out + d * width, b + d * ldb + first, size_t(count) * sizeof(float));
            if (padding) std::memset(out + d * width + count, 0, padding);
        }
        return;
    }
    // B stored cols x depth: column `first + c` of op(B) is row `first + c` of B.
    if (padding)
        for (int64_t d = 0; d < depth; ++d) std::memset(out + d * width + count, 0, padding);
    for (int64_t c = 0; c < count; ++c) {
        const float *row = b + (first + c) * ldb;
        for (int64_t d = 0; d < depth; ++d) out[d * width + c] = row[d];
    }
}

// body(begin, end) over [0, items), split over the pool when the work is large enough.
template <class Body>
void for_work(ThreadPool *pool, int64_t items, int64_t multiply_adds, const Body &body) {
    if (pool && pool->size() > 1 && items > 1 && multiply_adds >= kParallelMinMultiplyAdds)
        pool->parallel_for(items, 1, [&body](int64_t begin, int64_t end) { body(begin, end); });
    else
        body(0, items);
}

}  // namespace

bool PackedPanels::available() {
    return vector_table().gemm_panel != nullptr;
}

void PackedPanels::pack(bool transpose_b, int64_t depth, int64_t cols, const float *b, int64_t ldb,
                        ThreadPool *pool) {
    if (depth < 0 || cols < 0)
        throw invalid_argument("pack_panels: negative size depth=", depth, " cols=", cols);
    check_leading_dimension("pack_panels", "ldb", ldb, transpose_b ? depth : cols);
    if (!available()) throw unsupported("pack_panels: this CPU's kernels have no panel product");
    const int32_t width = vector_table().panel_width;
    const int64_t panels = (cols + width - 1) / width;
    const size_t bytes = size_t(std::max<int64_t>(1, panels * depth * width)) * sizeof(float);
    if (!storage_ || storage_->bytes() < bytes) storage_ = Storage::allocate_uninitialized(bytes);
    depth_ = depth, cols_ = cols, panels_ = panels, width_ = width;
    float *out = static_cast<float *>(storage_->data());
    for_work(pool, panels, depth * cols, [&](int64_t begin, int64_t end) {
        for (int64_t j = begin; j < end; ++j)
            pack_panel(transpose_b, depth, cols, b, ldb, width, j, out + j * depth * width);
    });
}

void packed_gemm(bool transpose_a, int64_t m, const float *a, int64_t lda, const PackedPanels &b,
                 const ProductEpilogue &epilogue, float *c, int64_t ldc, ThreadPool *pool) {
    if (m < 0) throw invalid_argument("packed_gemm: negative size m=", m);
    check_leading_dimension("packed_gemm", "lda", lda, transpose_a ? m : b.depth());
    check_leading_dimension("packed_gemm", "ldc", ldc, b.cols());
    if (m == 0 || b.cols() == 0) return;
    const int64_t row_bytes = std::max<int64_t>(1, b.depth()) * int64_t(sizeof(float));
    const int64_t group_rows = std::max<int64_t>(16, kRowGroupBytes / row_bytes);
    const int64_t groups = (m + group_rows - 1) / group_rows;
    auto one_panel = vector_table().gemm_panel;
    // Items are (group, panel) pairs, panels fastest: a thread's consecutive items share rows of A.
    for_work(pool, groups * b.panels(), m * b.depth() * b.cols(), [&](int64_t begin, int64_t end) {
        for (int64_t item = begin; item < end; ++item) {
            const int64_t group = item / b.panels(), j = item % b.panels();
            const int64_t row = group * group_rows;
            PanelProduct p;
            p.rows = std::min(group_rows, m - row);
            p.depth = b.depth();
            p.cols = int32_t(std::min<int64_t>(b.width(), b.cols() - j * b.width()));
            p.a = transpose_a ? a + row : a + row * lda;
            p.lda = lda;
            p.transpose_a = transpose_a;
            p.panel = b.panel(j);
            p.alpha = epilogue.alpha;
            p.beta = epilogue.beta;
            p.bias = epilogue.bias ? epilogue.bias + j * b.width() : nullptr;
            p.relu = epilogue.relu;
            p.c = c + row * ldc + j * b.width();
            p.ldc = ldc;
            one_panel(p);
        }
    });
}

}  // namespace ng::kernels
