#include "kernels/packed_gemm.hpp"

#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "kernels/scratch.hpp"
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

// Rows of A per group: enough that one group stays in the core's second-level cache while
// every panel multiplies it, and at least 16.
int64_t group_rows(int64_t depth) {
    const int64_t row_bytes = std::max<int64_t>(1, depth) * int64_t(sizeof(float));
    return std::max<int64_t>(16, kRowGroupBytes / row_bytes);
}

// Rows [row, row + rows) of C, columns [j width, j width + cols), from panel j (`panel`).
void multiply_panel(bool transpose_a, int64_t row, int64_t rows, const float *a, int64_t lda,
                    const float *panel, int64_t depth, int64_t j, int32_t width, int32_t cols,
                    const ProductEpilogue &epilogue, float *c, int64_t ldc) {
    PanelProduct p;
    p.rows = rows;
    p.depth = depth;
    p.cols = cols;
    p.a = transpose_a ? a + row : a + row * lda;
    p.lda = lda;
    p.transpose_a = transpose_a;
    p.panel = panel;
    p.alpha = epilogue.alpha;
    p.beta = epilogue.beta;
    p.bias = epilogue.bias ? epilogue.bias + j * width : nullptr;
    p.relu = epilogue.relu;
    p.c = c + row * ldc + j * width;
    p.ldc = ldc;
    vector_table().gemm_panel(p);
}

void check_product(const char *fn, bool transpose_a, int64_t m, int64_t lda, int64_t depth,
                   int64_t cols, int64_t ldc) {
    if (m < 0) throw invalid_argument(fn, ": negative size m=", m);
    check_leading_dimension(fn, "lda", lda, transpose_a ? m : depth);
    check_leading_dimension(fn, "ldc", ldc, cols);
}

// Whether OpenBLAS's chosen kernels are its AVX-512 ones, by the names of its cores with them.
bool openblas_runs_avx512() {
    const char *name = openblas_get_corename();
    const std::string core = name ? name : "";
    return core == "SkylakeX" || core == "Cooperlake" || core == "Sapphirerapids";
}

}  // namespace

bool PackedPanels::available() {
    return vector_table().gemm_panel != nullptr;
}

bool panel_product_outruns_openblas() {
    static const bool outruns = &vector_table() == &vector_table_avx512 && !openblas_runs_avx512();
    return outruns;
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
    check_product("packed_gemm", transpose_a, m, lda, b.depth(), b.cols(), ldc);
    if (m == 0 || b.cols() == 0) return;
    const int64_t rows = group_rows(b.depth()), groups = (m + rows - 1) / rows;
    // Items are (group, panel) pairs, panels fastest: a thread's consecutive items share rows of A.
    for_work(pool, groups * b.panels(), m * b.depth() * b.cols(), [&](int64_t begin, int64_t end) {
        for (int64_t item = begin; item < end; ++item) {
            const int64_t group = item / b.panels(), j = item % b.panels();
            const int64_t row = group * rows;
            const int32_t cols = int32_t(std::min<int64_t>(b.width(), b.cols() - j * b.width()));
            multiply_panel(transpose_a, row, std::min(rows, m - row), a, lda, b.panel(j), b.depth(),
                           j, b.width(), cols, epilogue, c, ldc);
        }
    });
}

void panel_gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float *a,
                int64_t lda, const float *b, int64_t ldb, const ProductEpilogue &epilogue, float *c,
                int64_t ldc, ThreadPool *pool) {
    if (n < 0 || k < 0) throw invalid_argument("panel_gemm: negative size n=", n, " k=", k);
    check_product("panel_gemm", transpose_a, m, lda, k, n, ldc);
    check_leading_dimension("panel_gemm", "ldb", ldb, transpose_b ? k : n);
    if (!PackedPanels::available())
        throw unsupported("panel_gemm: this CPU's kernels have no panel product");
    if (m == 0 || n == 0) return;
    const int32_t width = vector_table().panel_width;
    const int64_t panels = (n + width - 1) / width;
    const int64_t rows = group_rows(k), groups = (m + rows - 1) / rows;
    const size_t panel_bytes = size_t(std::max<int64_t>(1, k * width)) * sizeof(float);
    // Items are (panel, group) pairs, groups fastest: a thread packs a panel once for the run of
    // its items that share it.
    for_work(pool, panels * groups, m * k * n, [&](int64_t begin, int64_t end) {
        with_scratch([&](Scratch &scratch) {
            float *panel =
                static_cast<float *>(scratch_buffer(scratch, ScratchArea::Panel, panel_bytes));
            for (int64_t item = begin, packed = -1; item < end; ++item) {
                const int64_t j = item / groups, row = item % groups * rows;
                if (j != packed) pack_panel(transpose_b, k, n, b, ldb, width, j, panel), packed = j;
                const int32_t cols = int32_t(std::min<int64_t>(width, n - j * width));
                multiply_panel(transpose_a, row, std::min(rows, m - row), a, lda, panel, k, j,
                               width, cols, epilogue, c, ldc);
            }
        });
    });
}

}  // namespace ng::kernels
