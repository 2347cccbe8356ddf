// Matrix-vector products (one row or one column) against a double-precision loop, with OpenBLAS
// on one thread and on two. On two threads gemm gives OpenBLAS matrices of 9216 to 2^19 elements
// in pieces of fewer than 9216 elements (when a piece has at least 4 rows), so the sizes sit on
// each edge: 9215 / 9216 elements, 2^19 / just over, 4 / 3 rows per piece, a short last piece,
// with padded leading dimensions, every transpose flag that takes the path, beta = 0 and not.
#include <cblas.h>

#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;
using ng::DType;

namespace {

struct Matrix {
    int64_t rows, cols;  // the stored matrix gemv reads (B for one row, A for one column)
};

// c = alpha op(A) op(B) + beta c with one of m, n equal to 1, checked element by element against
// a double loop within a bound proportional to the sum of the terms' magnitudes.
void check_product(DType dt, bool one_row, bool transposed, const Matrix &s, double beta) {
    // One row: the matrix is B (k x n, or n x k when transposed). One column: A (m x k, or k x m).
    int64_t k = transposed == one_row ? s.cols : s.rows;
    int64_t other = transposed == one_row ? s.rows : s.cols;
    int64_t m = one_row ? 1 : other, n = one_row ? other : 1;
    bool ta = one_row ? false : transposed, tb = one_row ? transposed : false;
    int64_t lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 2, ldc = n + 1;
    Buffer a(dt, (ta ? k : m) * lda), b(dt, (tb ? n : k) * ldb), c(dt, m * ldc);
    kt::fill_random(a, 31, -2, 2), kt::fill_random(b, 32, -2, 2), kt::fill_random(c, 33, -2, 2);
    std::vector<double> old(size_t(c.size()));
    for (int64_t i = 0; i < c.size(); ++i) old[size_t(i)] = c.get(i);
    const double alpha = 1.5;
    gemm(dt, ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
    double eps = dt == NG_FLOAT32 ? 1.2e-7 : 2.3e-16;
    std::string what = std::string("gemv ") + ng::dtype_name(dt) + " m=" + std::to_string(m) +
                       " n=" + std::to_string(n) + " k=" + std::to_string(k) + (ta ? " At" : "") +
                       (tb ? " Bt" : "") + " beta=" + std::to_string(beta) +
                       " openblas threads=" + std::to_string(openblas_get_num_threads());
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double sum = 0, magnitude = 0;
            for (int64_t p = 0; p < k; ++p) {
                double term =
                    a.get(ta ? p * lda + i : i * lda + p) * b.get(tb ? j * ldb + p : p * ldb + j);
                sum += term, magnitude += std::fabs(term);
            }
            double previous = beta == 0 ? 0 : beta * old[size_t(i * ldc + j)];
            double want = alpha * sum + previous;
            double bound =
                double(k + 2) * eps * (std::fabs(alpha) * magnitude + std::fabs(previous));
            double got = c.get(i * ldc + j);
            if (!(std::fabs(got - want) <= bound))
                fail_msg("%s: c[%lld, %lld] = %.17g, want %.17g (bound %.3g)", what.c_str(),
                         (long long)i, (long long)j, got, want, bound);
        }
    // The padding between rows of c is not written.
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = n; j < ldc; ++j)
            assert_true(c.get(i * ldc + j) == old[size_t(i * ldc + j)]);
}

void test_gemv_pieces_edges(void **) {
    const Matrix sizes[] = {
        {95, 97},     // 9215 elements: whole
        {96, 96},     // 9216: pieces of 95 rows and a last piece of 1
        {1024, 512},  // 2^19: pieces of 17 rows, a last piece of 4
        {1025, 512},  // over 2^19: whole
        {9, 2303},    // 4 rows per piece (4, 4, 1)
        {9, 2304},    // 3 rows per piece would be: whole
        {784, 512},   // the batch-1 layers of the benchmark network
        {512, 256},
    };
    int saved = openblas_get_num_threads();
    for (int threads : {1, 2}) {
        openblas_set_num_threads(threads);
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (const Matrix &s : sizes)
                for (bool one_row : {true, false})
                    for (bool transposed : {false, true})
                        for (double beta : {0.0, -0.5})
                            check_product(dt, one_row, transposed, s, beta);
    }
    openblas_set_num_threads(saved);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemv_pieces_edges),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
