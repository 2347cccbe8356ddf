// gemm: OpenBLAS for float32/float64, a plain triple loop (wrapping arithmetic) for integers.
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <type_traits>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
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
// of a network) waking those threads costs more than it saves: with two of them a 784x512 gemv
// takes ~1.5x the time of one thread. Such a product is given to OpenBLAS in pieces of fewer
// elements, which it then runs on the calling thread alone; past kPiecewiseUpTo elements (2 MiB of
// float32, beyond the caches) its threads gain and the product goes whole.
constexpr int64_t kMatrixSplitAt = 9216;
constexpr int64_t kPiecewiseUpTo = int64_t(1) << 19;
constexpr int64_t kMinPieceRows = 4;  // fewer rows per piece: the calls cost more than threads

// Rows per piece of a rows x cols gemv matrix, or 0 when the product should go whole.
int64_t piece_rows(int64_t rows, int64_t cols) {
    if (rows * cols < kMatrixSplitAt || rows * cols > kPiecewiseUpTo) return 0;
    if (openblas_get_num_threads() < 2) return 0;
    int64_t per_piece = (kMatrixSplitAt - 1) / cols;
    return per_piece >= kMinPieceRows ? per_piece : 0;
}

// cblas gemv (row-major) on matrix `a` of rows x cols, in pieces of rows when piece_rows says so
// (transposed with a contiguous y: the level-1 gemv_transposed instead): y = alpha op(a) x + beta
// y. Without transpose each piece makes its own slice of y; transposed, each piece adds its rows'
// share to all of y (beta applies to the first piece only).
template <class T, class Gemv>
void gemv_pieces(Gemv gemv, CBLAS_TRANSPOSE trans, int rows, int cols, T alpha, const T *a, int lda,
                 const T *x, int incx, T beta, T *y, int incy) {
    int64_t step = piece_rows(rows, cols);
    if (step == 0) {
        gemv(CblasRowMajor, trans, rows, cols, alpha, a, lda, x, incx, beta, y, incy);
        return;
    }
    // Transposed, the pieces would each read and write all of y: the level-1 kernel reads a and y
    // once on the calling thread instead (a 784 x 512 layer: 17.5 us against 19.5 us in pieces
    // and 17.7 us for OpenBLAS on one thread, on an AVX-512 Zen 4 core).
    if (trans == CblasTrans && incy == 1) {
        constexpr DType dt = std::is_same_v<T, float> ? NG_FLOAT32 : NG_FLOAT64;
        vector_table().gemv_transposed(dt, rows, cols, alpha, a, lda, x, incx, beta, y);
        return;
    }
    for (int64_t r = 0; r < rows; r += step) {
        int count = int(std::min<int64_t>(step, rows - r));
        const T *piece = a + r * lda;
        if (trans == CblasNoTrans)
            gemv(CblasRowMajor, trans, count, cols, alpha, piece, lda, x, incx, beta, y + r * incy,
                 incy);
        else
            gemv(CblasRowMajor, trans, count, cols, alpha, piece, lda, x + r * incx, incx,
                 r == 0 ? beta : T(1), y, incy);
    }
}

// A product with one row (m == 1) or one column (n == 1) is a matrix-vector product: OpenBLAS's
// gemv reads the matrix once at full speed, where its gemm packs it first (several times slower
// for a single row). Returns false when the shape is not one of these.
template <class T, class Gemv>
bool as_gemv(Gemv gemv, bool ta, bool tb, int m, int n, int k, T alpha, const T *a, int lda,
             const T *b, int ldb, T beta, T *c, int ldc) {
    if (m != 1 && n != 1) return false;
    // beta = 0 ignores c, as gemm does; some BLAS versions' gemv scale c by 0 and keep its NaNs.
    if (beta == T(0)) {
        if (m == 1)
            std::fill(c, c + n, T(0));
        else
            for (int i = 0; i < m; ++i) c[int64_t(i) * ldc] = T(0);
    }
    if (m == 1) {  // c[0, :] (n) = alpha * op(B)^T x + beta * c, x = the row op(A)[0, :] (k)
        int incx = ta ? lda : 1;
        if (tb)  // B is stored n x k
            gemv_pieces<T>(gemv, CblasNoTrans, n, k, alpha, b, ldb, a, incx, beta, c, 1);
        else  // B is stored k x n
            gemv_pieces<T>(gemv, CblasTrans, k, n, alpha, b, ldb, a, incx, beta, c, 1);
    } else {  // c[:, 0] (m) = alpha * op(A) x + beta * c, x = the column op(B)[:, 0] (k)
        int incx = tb ? 1 : ldb;
        if (ta)  // A is stored k x m
            gemv_pieces<T>(gemv, CblasTrans, k, m, alpha, a, lda, b, incx, beta, c, ldc);
        else  // A is stored m x k
            gemv_pieces<T>(gemv, CblasNoTrans, m, k, alpha, a, lda, b, incx, beta, c, ldc);
    }
    return true;
}

}  // namespace

void check_leading_dimension(const char *fn, const char *name, int64_t ld, int64_t row_length) {
    if (ld < std::max<int64_t>(1, row_length))
        throw invalid_argument(fn, ": leading dimension ", name, " = ", ld, " is less than ",
                               row_length);
}

void gemm(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
          double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
          void *c, int64_t ldc) {
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
                           int(ldb), float(beta), static_cast<float *>(c), int(ldc)))
            return;
        cblas_sgemm(CblasRowMajor, ta, tb, im, in, ik, float(alpha), static_cast<const float *>(a),
                    int(lda), static_cast<const float *>(b), int(ldb), float(beta),
                    static_cast<float *>(c), int(ldc));
        return;
    case NG_FLOAT64:
        if (k > 0 && as_gemv<double>(cblas_dgemv, transpose_a, transpose_b, im, in, ik, alpha,
                                     static_cast<const double *>(a), int(lda),
                                     static_cast<const double *>(b), int(ldb), beta,
                                     static_cast<double *>(c), int(ldc)))
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
