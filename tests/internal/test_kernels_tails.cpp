// The tails of the vector loops, the last values of an array that fill less than a vector, read
// and write only the array: masked loads and stores on AVX2 and AVX-512, padded copies on SSE2.
// For every table this CPU runs, float and double, every length up to two of the widest vectors
// past a multiple of it, with each array ending where an inaccessible page begins: the unary and
// binary passes, reductions (whole arrays, rows in tiles, rows accumulated), softmax and
// log-softmax rows, chains (stored and summed), and the packed product's partial panels (the
// bias and C's last columns). The values are checked against sums, maxima,
// products and softmaxes worked out here, whose inputs put the extreme value in the tail: a tail
// padded with the wrong value (a zero in a max of negative values or in a product) shows.
#include <sys/mman.h>
#include <unistd.h>

#include "test_kernels_support.hpp"

using namespace ng::kernels;
using ng::DType;

namespace {

constexpr int64_t kLongestTail = 33;

// check(t, T(), dt) for every table this CPU runs, T float and double.
template <class Check>
void for_tables_and_floats(Check check) {
    for (auto *t : kt::tables()) {
        check(t, float(), NG_FLOAT32);
        check(t, double(), NG_FLOAT64);
    }
}

// n values that end where an inaccessible page begins: a kernel that reads or writes one element
// past the end crashes the test.
template <class T>
class PageEndArray {
public:
    explicit PageEndArray(int64_t n) : page_(size_t(sysconf(_SC_PAGESIZE))) {
        void *m =
            mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) fail_msg("mmap failed");
        base_ = static_cast<char *>(m);
        if (mprotect(base_ + page_, page_, PROT_NONE) != 0) fail_msg("mprotect failed");
        data_ = reinterpret_cast<T *>(base_ + page_) - n;
    }
    PageEndArray(const PageEndArray &) = delete;
    PageEndArray &operator=(const PageEndArray &) = delete;
    ~PageEndArray() { munmap(base_, 2 * page_); }
    T *data() { return data_; }

private:
    size_t page_;
    char *base_;
    T *data_;
};

// The unary and binary passes.
template <class T>
void check_tails_at_page_end(const VectorTable *t, DType dt) {
    for (int64_t n = 1; n <= kLongestTail; ++n) {
        PageEndArray<T> a(n), b(n), out(n);
        for (int64_t i = 0; i < n; ++i) a.data()[i] = T(i + 1), b.data()[i] = T(2 * i + 1);
        t->unary(UnaryFn::Negative, dt, n, a.data(), out.data());
        for (int64_t i = 0; i < n; ++i)
            if (out.data()[i] != -T(i + 1))
                fail_msg("%s negative, n %lld: element %lld is %g", t->name, (long long)n,
                         (long long)i, double(out.data()[i]));
        for (int b_step : {1, 0}) {
            t->binary(BinaryFn::Add, dt, n, a.data(), 1, b.data(), b_step, out.data());
            for (int64_t i = 0; i < n; ++i) {
                T want = T(i + 1) + (b_step ? T(2 * i + 1) : T(1));
                if (out.data()[i] != want)
                    fail_msg("%s add (b step %d), n %lld: element %lld is %g, want %g", t->name,
                             b_step, (long long)n, (long long)i, double(out.data()[i]),
                             double(want));
            }
        }
    }
}

void test_elementwise_tails_at_page_end(void **) {
    for_tables_and_floats(
        [](auto *t, auto type, DType dt) { check_tails_at_page_end<decltype(type)>(t, dt); });
}

// f over `rows` rows of n values at x (rows one after another), as reduce_all, reduce_rows in
// tiles of n and of 5, and accumulated into acc (which starts at acc_start[i] = -100 - i for a max,
// 100 + i otherwise, so that the rows decide it).
template <class T>
void check_reduction(const VectorTable *t, DType dt, ReduceFn f, int64_t n, const char *name,
                     T (*element)(int64_t i, int64_t n), double want) {
    PageEndArray<T> x(n), rows(2 * n), out(2), acc(n);
    for (int64_t i = 0; i < n; ++i) x.data()[i] = element(i, n);
    for (int64_t i = 0; i < 2 * n; ++i) rows.data()[i] = element(i % n, n);
    T all;
    t->reduce_all(f, dt, n, x.data(), &all);
    if (double(all) != want)
        fail_msg("%s reduce_all %s, n %lld: %g, want %g", t->name, name, (long long)n, double(all),
                 want);
    for (int64_t tile : {n, int64_t(5)}) {
        t->reduce_rows(f, dt, 2, n, tile, rows.data(), n, out.data(), 1);
        for (int64_t r = 0; r < 2; ++r)
            if (double(out.data()[r]) != want)
                fail_msg("%s reduce_rows %s, n %lld, tile %lld: row %lld %g, want %g", t->name,
                         name, (long long)n, (long long)tile, (long long)r, double(out.data()[r]),
                         want);
    }
    // One to three rows accumulated: for a sum, acc[i] + count * x[i].
    for (int32_t count = 1; count <= 3; ++count) {
        const void *row_starts[3] = {x.data(), x.data(), x.data()};
        for (int64_t i = 0; i < n; ++i) acc.data()[i] = T(f == ReduceFn::Max ? -100 - i : 100 + i);
        t->accumulate_rows(f, dt, n, row_starts, count, acc.data());
        for (int64_t i = 0; i < n; ++i) {
            const double start = f == ReduceFn::Max ? -100.0 - double(i) : 100.0 + double(i);
            const double v = double(x.data()[i]);
            const double expect = f == ReduceFn::Sum   ? start + count * v
                                  : f == ReduceFn::Max ? std::max(start, v)
                                  : f == ReduceFn::Min ? std::min(start, v)
                                                       : start * std::pow(v, count);
            if (double(acc.data()[i]) != expect)
                fail_msg("%s accumulate_rows %s, n %lld, %d rows: element %lld %g, want %g",
                         t->name, name, (long long)n, count, (long long)i, double(acc.data()[i]),
                         expect);
        }
    }
}

template <class T>
void check_reductions(const VectorTable *t, DType dt) {
    for (int64_t n = 1; n <= kLongestTail; ++n) {
        // 1, 2, ..., n: the sum n (n + 1) / 2.
        check_reduction<T>(
            t, dt, ReduceFn::Sum, n, "sum", [](int64_t i, int64_t) { return T(i + 1); },
            double(n * (n + 1) / 2));
        // -n, ..., -1: the max, -1, last (a zero read past the end would win).
        check_reduction<T>(
            t, dt, ReduceFn::Max, n, "max", [](int64_t i, int64_t len) { return T(i - len); },
            -1.0);
        // n, ..., 1: the min, 1, last.
        check_reduction<T>(
            t, dt, ReduceFn::Min, n, "min", [](int64_t i, int64_t len) { return T(len - i); }, 1.0);
        // 1 and 2 in turn, then 3 last: 2^(odd positions before the last) * 3.
        int64_t odd = 0;
        for (int64_t i = 1; i < n - 1; i += 2) ++odd;
        check_reduction<T>(
            t, dt, ReduceFn::Prod, n, "prod",
            [](int64_t i, int64_t len) {
                return T(i == len - 1 ? 3 : i % 2 ? 2 : 1);
            },
            3.0 * std::ldexp(1.0, int(odd)));
    }
}

void test_reduction_tails_at_page_end(void **) {
    for_tables_and_floats(
        [](auto *t, auto type, DType dt) { check_reductions<decltype(type)>(t, dt); });
}

// Softmax and log-softmax of one row and of three rows one after another, the outputs stored and
// streamed, against the same values worked out in double.
template <class T>
void check_softmax_tails(const VectorTable *t, DType dt) {
    const double tolerance = 8 * double(std::numeric_limits<T>::epsilon());
    for (int64_t n = 1; n <= kLongestTail; ++n)
        for (int64_t rows : {1, 3}) {
            PageEndArray<T> x(rows * n), y(rows * n);
            // The largest value of a row last, in the tail.
            for (int64_t i = 0; i < rows * n; ++i)
                x.data()[i] = i % n == n - 1 ? T(2) : T(double((i * 5) % 11) * 0.125 - 1);
            for (bool log : {false, true})
                for (bool stream : {false, true}) {
                    t->softmax_rows(dt, log, rows, n, x.data(), n, y.data(), n, stream);
                    for (int64_t r = 0; r < rows; ++r) {
                        const T *row = x.data() + r * n;
                        double sum = 0;
                        for (int64_t i = 0; i < n; ++i) sum += std::exp(double(row[i]) - 2.0);
                        for (int64_t i = 0; i < n; ++i) {
                            const double d = double(row[i]) - 2.0;
                            const double want = log ? d - std::log(sum) : std::exp(d) / sum;
                            const double got = double(y.data()[r * n + i]);
                            if (!(std::fabs(got - want) <=
                                  tolerance * std::max(1.0, std::fabs(want))))
                                fail_msg(
                                    "%s %s %s, n %lld, rows %lld%s: [%lld][%lld] %.9g, want %.9g",
                                    t->name, log ? "log_softmax" : "softmax", ng::dtype_name(dt),
                                    (long long)n, (long long)rows, stream ? " streamed" : "",
                                    (long long)r, (long long)i, got, want);
                        }
                    }
                }
        }
}

void test_softmax_tails_at_page_end(void **) {
    for_tables_and_floats(
        [](auto *t, auto type, DType dt) { check_softmax_tails<decltype(type)>(t, dt); });
}

ChainStep chain_step(ChainStep::Kind kind, int32_t leaf, BinaryFn fn = BinaryFn::Add) {
    ChainStep s{kind};
    s.fn = int32_t(fn);
    s.leaf = leaf;
    return s;
}

// The chain x * y + c (c one value) stored, and the sum of (x - y)^2, whose values are exact.
template <class T>
void check_chain_tails(const VectorTable *t, DType dt) {
    using Kind = ChainStep::Kind;
    const ChainStep fma[] = {chain_step(Kind::Load, 0),
                             chain_step(Kind::Binary, 1, BinaryFn::Multiply),
                             chain_step(Kind::Binary, 2, BinaryFn::Add)};
    const ChainStep squares[] = {chain_step(Kind::Load, 0),
                                 chain_step(Kind::Binary, 1, BinaryFn::Subtract),
                                 chain_step(Kind::BinarySelf, 0, BinaryFn::Multiply)};
    for (int64_t n = 1; n <= kLongestTail; ++n) {
        PageEndArray<T> x(n), y(n), out(n), c(1);
        for (int64_t i = 0; i < n; ++i) x.data()[i] = T(i + 1), y.data()[i] = T(2 * i + 1);
        c.data()[0] = T(5);
        const void *inputs[3] = {x.data(), y.data(), c.data()};
        const int steps[3] = {1, 1, 0};
        for (bool stream : {false, true}) {
            t->chain(dt, n, fma, 3, inputs, steps, 3, 3, out.data(), stream);
            for (int64_t i = 0; i < n; ++i) {
                const double want = double(i + 1) * double(2 * i + 1) + 5;
                if (double(out.data()[i]) != want)
                    fail_msg("%s chain %s, n %lld%s: element %lld %g, want %g", t->name,
                             ng::dtype_name(dt), (long long)n, stream ? " streamed" : "",
                             (long long)i, double(out.data()[i]), want);
            }
        }
        T sum;
        t->chain_sum(dt, n, squares, 3, inputs, steps, 2, 2, &sum);
        const double want = double((n - 1) * n * (2 * n - 1) / 6);  // (x - y)^2 = i^2
        if (double(sum) != want)
            fail_msg("%s chain_sum %s, n %lld: %g, want %g", t->name, ng::dtype_name(dt),
                     (long long)n, double(sum), want);
    }
}

void test_chain_tails_at_page_end(void **) {
    for_tables_and_floats(
        [](auto *t, auto type, DType dt) { check_chain_tails<decltype(type)>(t, dt); });
}

// One packed panel of every width up to the table's, three rows of C one after another ending at
// the page, with a bias of `cols` values ending at its page: C = A P + bias (+ C), exact integers.
void test_panel_tails_at_page_end(void **) {
    for (auto *t : kt::tables()) {
        if (!t->gemm_panel) continue;  // SSE2: OpenBLAS
        const int64_t rows = 3, depth = 4, width = t->panel_width;
        for (int32_t cols = 1; cols <= width; ++cols) {
            PageEndArray<float> a(rows * depth), bias(cols), c(rows * cols);
            alignas(64) float packed[4 * 64] = {};
            for (int64_t d = 0; d < depth; ++d)
                for (int32_t j = 0; j < cols; ++j) packed[d * width + j] = float(d + j);
            for (int64_t i = 0; i < rows * depth; ++i) a.data()[i] = float(i % 5);
            for (int32_t j = 0; j < cols; ++j) bias.data()[j] = float(10 * j);
            for (float beta : {0.0f, 1.0f}) {
                for (int64_t i = 0; i < rows * cols; ++i) c.data()[i] = 1000.0f;
                PanelProduct pp;
                pp.rows = rows;
                pp.depth = depth;
                pp.cols = cols;
                pp.a = a.data();
                pp.lda = depth;
                pp.panel = packed;
                pp.beta = beta;
                pp.bias = bias.data();
                pp.c = c.data();
                pp.ldc = cols;
                t->gemm_panel(pp);
                for (int64_t i = 0; i < rows; ++i)
                    for (int32_t j = 0; j < cols; ++j) {
                        double want = 10.0 * j + beta * 1000.0;
                        for (int64_t d = 0; d < depth; ++d)
                            want += double((i * depth + d) % 5) * double(d + j);
                        const double got = c.data()[i * cols + j];
                        if (got != want)
                            fail_msg("%s gemm_panel, %d columns, beta %g: C[%lld][%d] %g, want %g",
                                     t->name, cols, double(beta), (long long)i, j, got, want);
                    }
            }
        }
    }
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elementwise_tails_at_page_end),
        cmocka_unit_test(test_reduction_tails_at_page_end),
        cmocka_unit_test(test_softmax_tails_at_page_end),
        cmocka_unit_test(test_chain_tails_at_page_end),
        cmocka_unit_test(test_panel_tails_at_page_end),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
