// gemm: OpenBLAS for float32/float64, a plain triple loop (wrapping arithmetic) for integers.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <type_traits>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "kernels/parallel.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {
namespace {

// Row-major op(X) of rows x cols has leading dimension >= its stored row length, within BLAS's int.
void check_leading(const char *name, int64_t ld, bool transposed, int64_t rows, int64_t cols) {
    check_leading_dimension("gemm", name, ld, transposed ? rows : cols);
    if (ld > INT_MAX)
        throw unsupported("gemm: leading dimension ", name, " = ", ld, " exceeds BLAS's int range");
}

template <class T>
void integer_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t alpha, const T *a,
                  int64_t lda, const T *b, int64_t ldb, int64_t beta, T *c, int64_t ldc) {
    using U = uint64_t;  // wrapping arithmetic: overflow is defined, as for the elementwise ops
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            U acc = 0;
            for (int64_t p = 0; p < k; ++p) {
                T x = ta ? a[p * lda + i] : a[i * lda + p];
                T y = tb ? b[j * ldb + p] : b[p * ldb + j];
                acc += U(int64_t(x)) * U(int64_t(y));
            }
            T &out = c[i * ldc + j];
            U previous =
                beta == 0 ? 0 : U(int64_t(out)) * U(beta);  // beta = 0 ignores C, as BLAS does
            out = static_cast<T>(U(alpha) * acc + previous);
        }
}

int64_t integral(const char *name, double v) {
    if (!(v >= -9.2e18 && v <= 9.2e18) || static_cast<double>(static_cast<int64_t>(v)) != v)
        throw invalid_argument("gemm: integer ", name, " must be a whole number, got ", v);
    return static_cast<int64_t>(v);
}

// OpenBLAS (0.3.x, default build) runs a gemv on all its threads once the matrix has
// kMatrixSplitAt elements or more. On products of a few hundred thousand elements (a batch-1 layer
// of a network) waking those threads costs more than it saves: a 784x512 gemv is slower on two
// of them than on one (bench_train --threads 2 --only mlp_infer_b1). Such a product (up to
// kPiecewiseUpTo elements, 2 MiB of float32; past that OpenBLAS's threads gain and the product
// goes to it whole) runs on the calling thread or, from kParallelMinElements elements, on
// nanograph's pool when the caller gives one:
// - transposed with a contiguous y (y = W^T x with W stored inputs x outputs), in the level-1
//   gemv_transposed, which reads a and y once and keeps up with OpenBLAS on one thread (a
//   784 x 512 layer: bench_train --threads 1 --only mlp_infer_b1), in slices of columns over the
//   pool;
// - otherwise in pieces of fewer than kMatrixSplitAt elements, which OpenBLAS runs on the thread
//   that calls it, when a piece has at least kMinPieceRows rows: in order on the calling thread
//   when OpenBLAS has several threads (with one it takes the product whole); without a transpose
//   each piece makes its own slice of y, so blocks of them can go over the pool.
constexpr int64_t kMatrixSplitAt = 9216;
constexpr int64_t kPiecewiseUpTo = int64_t(1) << 19;
constexpr int64_t kMinPieceRows = 4;  // fewer rows per piece: the calls cost more than threads

// How a gemv of op(a) (rows x cols, row-major) into y (a stride incy apart) runs: OpenBLAS on the
// whole, the level-1 kernel, or pieces of rows, each making its own slice of y (no transpose) or
// adding its share to all of y (transposed).
enum class GemvRoute { Whole, Columns, SlicePieces, SharedPieces };

GemvRoute gemv_route(CBLAS_TRANSPOSE trans, int64_t rows, int64_t cols, int64_t incy) {
    const int64_t elements = rows * cols;
    if (elements < kMatrixSplitAt || elements > kPiecewiseUpTo) return GemvRoute::Whole;
    if (trans == CblasTrans && incy == 1) return GemvRoute::Columns;
    if ((kMatrixSplitAt - 1) / cols < kMinPieceRows) return GemvRoute::Whole;
    return trans == CblasNoTrans ? GemvRoute::SlicePieces : GemvRoute::SharedPieces;
}

// Columns per slice of the level-1 kernel's output over a pool: a multiple of every table's four
// vectors (of float or double), so that each column is summed by the same code, and in the same
// order, as when the product runs whole.
constexpr int64_t kColumnsPerItem = 64;

// Whether a route splits by slices of y, and the product is large enough to split over a pool.
bool worth_splitting(GemvRoute route, int64_t rows, int64_t cols) {
    return (route == GemvRoute::Columns || route == GemvRoute::SlicePieces) &&
           rows * cols >= kParallelMinElements;
}

// cblas gemv (row-major) on matrix `a` of rows x cols, y = alpha op(a) x + beta y, on the route
// gemv_route gives it, its slices of y split over `pool` when worth_splitting says so (for_items
// runs them on the calling thread without a pool of several threads). Of shared pieces, beta
// applies to the first only.
template <class T, class Gemv>
void gemv_routed(Gemv gemv, CBLAS_TRANSPOSE trans, int rows, int cols, T alpha, const T *a, int lda,
                 const T *x, int incx, T beta, T *y, int incy, ThreadPool *pool) {
    constexpr DType dt = std::is_same_v<T, float> ? NG_FLOAT32 : NG_FLOAT64;
    const GemvRoute route = gemv_route(trans, rows, cols, incy);
    ThreadPool *workers =
        pool && pool->size() > 1 && worth_splitting(route, rows, cols) ? pool : nullptr;
    const int64_t step = (kMatrixSplitAt - 1) / cols;  // rows per piece
    // With one OpenBLAS thread and no workers, OpenBLAS takes pieces of rows whole.
    const bool in_pieces = workers || openblas_get_num_threads() > 1;
    if (route == GemvRoute::Columns) {
        const int64_t items = (cols + kColumnsPerItem - 1) / kColumnsPerItem;
        for_items(workers, items, rows * kColumnsPerItem, [&](int64_t begin, int64_t end) {
            const int64_t first = begin * kColumnsPerItem;
            const int64_t count = std::min<int64_t>(end * kColumnsPerItem, cols) - first;
            vector_table().gemv_transposed(dt, rows, count, alpha, a + first, lda, x, incx, beta,
                                           y + first);
        });
    } else if (route == GemvRoute::SlicePieces && in_pieces) {
        for_items(workers, rows, cols, [&](int64_t begin, int64_t end) {
            for (int64_t r = begin; r < end; r += step)
                gemv(CblasRowMajor, trans, int(std::min<int64_t>(step, end - r)), cols, alpha,
                     a + r * lda, lda, x, incx, beta, y + r * incy, incy);
        });
    } else if (route == GemvRoute::SharedPieces && in_pieces) {
        for (int64_t r = 0; r < rows; r += step)
            gemv(CblasRowMajor, trans, int(std::min<int64_t>(step, rows - r)), cols, alpha,
                 a + r * lda, lda, x + r * incx, incx, r == 0 ? beta : T(1), y, incy);
    } else {
        gemv(CblasRowMajor, trans, rows, cols, alpha, a, lda, x, incx, beta, y, incy);
    }
}

// The matrix-vector product a product with one row (m == 1) or one column (n == 1) amounts to:
// gemv of op(matrix) of rows x cols stored row-major, into y a stride incy apart.
struct GemvForm {
    bool matrix_is_a;  // n == 1: the matrix is A and x is B's column; m == 1: B and A's row
    CBLAS_TRANSPOSE trans;
    int64_t rows, cols, incy;
};

GemvForm gemv_form(bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t ldc) {
    if (m == 1)  // c[0, :] (n) = op(B)^T x: B stored n x k (tb) or k x n
        return tb ? GemvForm{false, CblasNoTrans, n, k, 1} : GemvForm{false, CblasTrans, k, n, 1};
    // c[:, 0] (m) = op(A) x: A stored k x m (ta) or m x k
    return ta ? GemvForm{true, CblasTrans, k, m, ldc} : GemvForm{true, CblasNoTrans, m, k, ldc};
}

// A product with one row (m == 1) or one column (n == 1) is a matrix-vector product: OpenBLAS's
// gemv reads the matrix once at full speed, where its gemm packs it first (several times slower
// for a single row). Returns false when the shape is not one of these.
template <class T, class Gemv>
bool as_gemv(Gemv gemv, bool ta, bool tb, int m, int n, int k, T alpha, const T *a, int lda,
             const T *b, int ldb, T beta, T *c, int ldc, ThreadPool *pool) {
    if (m != 1 && n != 1) return false;
    // beta = 0 ignores c, as gemm does; some BLAS versions' gemv scale c by 0 and keep its NaNs.
    if (beta == T(0)) {
        if (m == 1)
            std::fill(c, c + n, T(0));
        else
            for (int i = 0; i < m; ++i) c[int64_t(i) * ldc] = T(0);
    }
    const GemvForm f = gemv_form(ta, tb, m, n, k, ldc);
    // x: the row op(A)[0, :] or the column op(B)[:, 0], k elements.
    const T *x = f.matrix_is_a ? b : a;
    const int incx = f.matrix_is_a ? (tb ? 1 : ldb) : (ta ? lda : 1);
    gemv_routed<T>(gemv, f.trans, int(f.rows), int(f.cols), alpha, f.matrix_is_a ? a : b,
                   f.matrix_is_a ? lda : ldb, x, incx, beta, c, int(f.incy), pool);
    return true;
}

}  // namespace

void check_leading_dimension(const char *fn, const char *name, int64_t ld, int64_t row_length) {
    if (ld < std::max<int64_t>(1, row_length))
        throw invalid_argument(fn, ": leading dimension ", name, " = ", ld, " is less than ",
                               row_length);
}

GemmThreads gemm_threads(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n,
                         int64_t k, int64_t ldc) {
    if (dt != NG_FLOAT32 && dt != NG_FLOAT64) return GemmThreads::Caller;
    if ((m != 1 && n != 1) || k < 1) return GemmThreads::OpenBlas;
    const GemvForm f = gemv_form(transpose_a, transpose_b, m, n, k, ldc);
    const GemvRoute route = gemv_route(f.trans, f.rows, f.cols, f.incy);
    if (worth_splitting(route, f.rows, f.cols)) return GemmThreads::Pool;
    if (route != GemvRoute::Whole || f.rows * f.cols < kMatrixSplitAt) return GemmThreads::Caller;
    return GemmThreads::OpenBlas;
}

void gemm(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
          double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
          void *c, int64_t ldc, ThreadPool *pool) {
    check_dtype(dt, "gemm");
    if (m < 0 || n < 0 || k < 0)
        throw invalid_argument("gemm: negative size m=", m, " n=", n, " k=", k);
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
        throw unsupported("gemm: size m=", m, " n=", n, " k=", k, " exceeds BLAS's int range");
    check_leading("lda", lda, transpose_a, m, k);
    check_leading("ldb", ldb, transpose_b, k, n);
    check_leading("ldc", ldc, false, m, n);
    if (m == 0 || n == 0) return;

    auto ta = transpose_a ? CblasTrans : CblasNoTrans;
    auto tb = transpose_b ? CblasTrans : CblasNoTrans;
    int im = int(m), in = int(n), ik = int(k);
    switch (dt) {
    case NG_FLOAT32:
        if (k > 0 &&
            as_gemv<float>(cblas_sgemv, transpose_a, transpose_b, im, in, ik, float(alpha),
                           static_cast<const float *>(a), int(lda), static_cast<const float *>(b),
                           int(ldb), float(beta), static_cast<float *>(c), int(ldc), pool))
            return;
        cblas_sgemm(CblasRowMajor, ta, tb, im, in, ik, float(alpha), static_cast<const float *>(a),
                    int(lda), static_cast<const float *>(b), int(ldb), float(beta),
                    static_cast<float *>(c), int(ldc));
        return;
    case NG_FLOAT64:
        if (k > 0 && as_gemv<double>(cblas_dgemv, transpose_a, transpose_b, im, in, ik, alpha,
                                     static_cast<const double *>(a), int(lda),
                                     static_cast<const double *>(b), int(ldb), beta,
                                     static_cast<double *>(c), int(ldc), pool))
            return;
        cblas_dgemm(CblasRowMajor, ta, tb, im, in, ik, alpha, static_cast<const double *>(a),
                    int(lda), static_cast<const double *>(b), int(ldb), beta,
                    static_cast<double *>(c), int(ldc));
        return;
    case NG_BOOL: throw dtype_error("gemm: bool is not a numeric dtype");
    default: break;
    }
    int64_t ia = integral("alpha", alpha), ib = integral("beta", beta);
    visit_dtype(dt, [&](auto tag) {
        using T = decltype(tag);
        integer_gemm(transpose_a, transpose_b, m, n, k, ia, static_cast<const T *>(a), lda,
                     static_cast<const T *>(b), ldb, ib, static_cast<T *>(c), ldc);
    });
}

}  // namespace ng::kernels
