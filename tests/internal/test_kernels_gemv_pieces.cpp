// Matrix-vector products (one row or one column) against a double-precision loop, with OpenBLAS
// on one thread and on two, and with a pool of two threads or none. gemm keeps matrices of 9216
// to 2^19 elements off OpenBLAS's threads: transposed with a contiguous y in its level-1 kernel,
// otherwise in pieces of fewer than 9216 elements (when a piece has at least 4 rows); given a pool
// of two threads it splits those of 65536 elements or more over it. So the sizes sit on each edge:
// 9215 / 9216 and 65535 / 65536 elements, 2^19 / just over, 4 / 3 rows per piece, a short last
// piece or slice of columns, with padded leading dimensions, every transpose flag that takes the
// path, beta = 0 and not.
#include <cblas.h>

#include <cstring>

#include "kernels/thread_pool.hpp"
#include "kernels/vector_table.hpp"
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
void check_product(DType dt, bool one_row, bool transposed, const Matrix &s, double beta,
                   ng::ThreadPool *pool) {
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
    gemm(dt, ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc, pool);
    double eps = dt == NG_FLOAT32 ? 1.2e-7 : 2.3e-16;
    std::string what = std::string("gemv ") + ng::dtype_name(dt) + " m=" + std::to_string(m) +
                       " n=" + std::to_string(n) + " k=" + std::to_string(k) + (ta ? " At" : "") +
                       (tb ? " Bt" : "") + " beta=" + std::to_string(beta) +
                       " openblas threads=" + std::to_string(openblas_get_num_threads()) +
                       " pool threads=" + std::to_string(pool ? pool->size() : 0);
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
        {784, 512},   // the batch-1 layers of the benchmark network, split over a pool
        {512, 256},   // (its second layer)
        {257, 255},   // 65535 elements: not split over a pool
        {300, 333},   // split: slices of 64 columns and one of 13, pieces of 27 rows
        {100, 2303},  // split: pieces of 4 rows
        {64, 2304},   // 3 rows per piece would be: not split without a transpose
    };
    int saved = openblas_get_num_threads();
    ng::ThreadPool two(2);
    for (int threads : {1, 2}) {
        openblas_set_num_threads(threads);
        for (ng::ThreadPool *pool : {static_cast<ng::ThreadPool *>(nullptr), &two})
            for (DType dt : {NG_FLOAT32, NG_FLOAT64})
                for (const Matrix &s : sizes)
                    for (bool one_row : {true, false})
                        for (bool transposed : {false, true})
                            for (double beta : {0.0, -0.5})
                                check_product(dt, one_row, transposed, s, beta, pool);
    }
    openblas_set_num_threads(saved);
}

// The columns of y = alpha x^T B + beta y (B stored k x n, 9216 to 2^19 elements) come out bit
// for bit as from the level-1 kernel run whole, with OpenBLAS on one thread or two and split over a
// pool or not: every slice starts at a multiple of 64 columns, so each column is summed by the
// same code in the same order.
void test_gemv_columns_bitwise(void **) {
    ng::ThreadPool two(2);
    int saved = openblas_get_num_threads();
    for (int threads : {1, 2}) {
        openblas_set_num_threads(threads);
        for (ng::ThreadPool *pool : {static_cast<ng::ThreadPool *>(nullptr), &two})
            for (DType dt : {NG_FLOAT32, NG_FLOAT64})
                for (const Matrix &s :
                     {Matrix{96, 96}, Matrix{784, 512}, Matrix{300, 333}, Matrix{1024, 512}}) {
                    const int64_t k = s.rows, n = s.cols, ldb = n + 2;
                    Buffer x(dt, k), b(dt, k * ldb), whole(dt, n), got(dt, n);
                    kt::fill_random(x, 41, -2, 2), kt::fill_random(b, 42, -2, 2);
                    kt::fill_random(whole, 43, -2, 2);
                    std::memcpy(got.data(), whole.data(), size_t(n) * ng::dtype_size(dt));
                    vector_table().gemv_transposed(dt, k, n, 1.5, b.data(), ldb, x.data(), 1, -0.5,
                                                   whole.data());
                    gemm(dt, false, false, 1, n, k, 1.5, x.data(), k, b.data(), ldb, -0.5,
                         got.data(), n, pool);
                    for (int64_t j = 0; j < n; ++j)
                        if (whole.get(j) != got.get(j))
                            fail_msg(
                                "%s %lld x %lld, %d OpenBLAS threads, pool of %d: y[%lld] = "
                                "%.17g, %.17g whole",
                                ng::dtype_name(dt), (long long)k, (long long)n, threads,
                                pool ? pool->size() : 0, (long long)j, got.get(j), whole.get(j));
                }
    }
    openblas_set_num_threads(saved);
}

// Where gemm says a product runs, for each route and at its edges.
void test_gemm_threads(void **) {
    using G = GemmThreads;
    auto route = [](DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t ldc) {
        return gemm_threads(dt, ta, tb, m, n, k, ldc);
    };
    assert_true(route(NG_FLOAT32, false, false, 1, 512, 784, 512) == G::Pool);    // x W, W in x out
    assert_true(route(NG_FLOAT64, false, true, 1, 512, 784, 512) == G::Pool);     // W out x in
    assert_true(route(NG_FLOAT32, false, false, 512, 1, 784, 1) == G::Pool);      // W x, one column
    assert_true(route(NG_FLOAT32, true, false, 512, 1, 784, 4) == G::Caller);     // y 4 apart
    assert_true(route(NG_FLOAT32, false, false, 1, 255, 257, 255) == G::Caller);  // 65535
    assert_true(route(NG_FLOAT32, false, false, 1, 256, 256, 256) == G::Pool);    // 65536
    assert_true(route(NG_FLOAT32, false, false, 1, 512, 1024, 512) == G::Pool);   // 2^19
    assert_true(route(NG_FLOAT32, false, false, 1, 512, 1025, 512) == G::OpenBlas);
    assert_true(route(NG_FLOAT32, false, false, 1, 10, 256, 10) == G::Caller);    // 2560
    assert_true(route(NG_FLOAT32, false, true, 1, 64, 2304, 64) == G::OpenBlas);  // 3-row pieces
    assert_true(route(NG_FLOAT32, false, false, 128, 512, 784, 512) == G::OpenBlas);
    assert_true(route(NG_FLOAT32, false, false, 1, 512, 0, 512) == G::OpenBlas);  // k = 0
    assert_true(route(NG_INT32, false, false, 1, 512, 784, 512) == G::Caller);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemv_pieces_edges),
        cmocka_unit_test(test_gemv_columns_bitwise),
        cmocka_unit_test(test_gemm_threads),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
