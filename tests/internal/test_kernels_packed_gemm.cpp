// nanograph's own float32 matrix product: one packed panel on every instruction-set table that has
// one (gemm_panel), and on this CPU's table with one and two threads the whole product, packed
// once (PackedPanels, packed_gemm) or a panel at a time (panel_gemm). Every element is checked
// against a double loop within a bound proportional to the sum of its terms' magnitudes: block rows
// and every remainder (8, 4, 2, 1), panels of one vector, of one and a part and whole, both
// transposes, padded leading dimensions, beta = 0 ignoring a C of NaN, beta != 0 reading it, a bias
// per column, the ReLU after, and the padding between rows of C untouched.
#include "kernels/packed_gemm.hpp"
#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;

namespace {

struct Product {
    int64_t m, n, k;
    bool ta, tb;
    float alpha, beta;
    bool relu;
    bool bias;  // one value per column added to the product
};

std::string describe(const char *fn, const Product &p) {
    return std::string(fn) + " m=" + std::to_string(p.m) + " n=" + std::to_string(p.n) +
           " k=" + std::to_string(p.k) + (p.ta ? " At" : "") + (p.tb ? " Bt" : "") +
           " beta=" + std::to_string(p.beta) + (p.relu ? " relu" : "") + (p.bias ? " bias" : "");
}

// Operands of a product with padded leading dimensions; C holds NaN when beta is 0.
struct Operands {
    int64_t lda, ldb, ldc;
    Buffer a, b, c, bias;
    std::vector<double> old;
    explicit Operands(const Product &p)
        : lda((p.ta ? p.m : p.k) + 3),
          ldb((p.tb ? p.k : p.n) + 2),
          ldc(p.n + 2),
          a(NG_FLOAT32, (p.ta ? p.k : p.m) * lda),
          b(NG_FLOAT32, (p.tb ? p.n : p.k) * ldb),
          c(NG_FLOAT32, p.m * ldc, sizeof(float)),
          bias(NG_FLOAT32, p.n, sizeof(float)) {
        kt::fill_random(a, 51, -2, 2), kt::fill_random(b, 52, -2, 2), kt::fill_random(c, 53, -2, 2);
        kt::fill_random(bias, 54, -8, 8);
        for (int64_t i = 0; i < p.m; ++i)
            for (int64_t j = 0; j < p.n && p.beta == 0; ++j) c.set(i * ldc + j, NAN);
        for (int64_t i = 0; i < c.size(); ++i) old.push_back(c.get(i));
    }
    double op_a(const Product &p, int64_t i, int64_t d) const {
        return a.get(p.ta ? d * lda + i : i * lda + d);
    }
    double op_b(const Product &p, int64_t d, int64_t j) const {
        return b.get(p.tb ? j * ldb + d : d * ldb + j);
    }
};

void check(const Product &p, const Operands &o, const std::string &what) {
    for (int64_t i = 0; i < p.m; ++i) {
        for (int64_t j = 0; j < p.n; ++j) {
            double sum = 0, magnitude = 0;
            for (int64_t d = 0; d < p.k; ++d) {
                double term = o.op_a(p, i, d) * o.op_b(p, d, j);
                sum += term, magnitude += std::fabs(term);
            }
            double previous = p.beta == 0 ? 0 : double(p.beta) * o.old[size_t(i * o.ldc + j)];
            double added = p.bias ? o.bias.get(j) : 0;
            double want = double(p.alpha) * sum + added + previous;
            double bound =
                double(p.k + 3) * 1.2e-7 *
                (std::fabs(double(p.alpha)) * magnitude + std::fabs(added) + std::fabs(previous));
            if (p.relu && want < 0) want = 0, bound = std::max(bound, 0.0);
            double got = o.c.get(i * o.ldc + j);
            if (!(std::fabs(got - want) <= bound))
                fail_msg("%s: c[%lld, %lld] = %.9g, want %.9g (bound %.3g)", what.c_str(),
                         (long long)i, (long long)j, got, want, bound);
        }
        for (int64_t j = p.n; j < o.ldc; ++j)
            if (!(o.c.get(i * o.ldc + j) == o.old[size_t(i * o.ldc + j)]))
                fail_msg("%s: wrote the padding of row %lld", what.c_str(), (long long)i);
    }
    if (!o.c.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
}

// One panel of n <= the table's width columns, packed by hand, on each table.
void test_gemm_panel(void **) {
    for (const VectorTable *t : kt::tables()) {
        if (!t->gemm_panel) continue;  // SSE2: OpenBLAS
        const int64_t width = t->panel_width;
        for (int64_t m : {1, 2, 3, 5, 9, 12, 13, 19, 25})
            for (int64_t k : {1, 7, 70})
                for (int64_t n : {int64_t(1), width / 2, width / 2 + 3, width})
                    for (bool ta : {false, true})
                        for (float beta : {0.0f, -0.5f})
                            for (bool relu : {false, true}) {
                                Product p{m, n, k, ta, false, 1.5f, beta, relu, relu == ta};
                                Operands o(p);
                                Buffer panel(NG_FLOAT32, k * width);
                                for (int64_t d = 0; d < k; ++d)
                                    for (int64_t j = 0; j < width; ++j)
                                        panel.set(d * width + j, j < n ? o.op_b(p, d, j) : 0.0);
                                PanelProduct pp;
                                pp.rows = m, pp.depth = k, pp.cols = int32_t(n);
                                pp.a = o.a.as<float>(), pp.lda = o.lda, pp.transpose_a = ta;
                                pp.panel = panel.as<float>();
                                pp.alpha = p.alpha, pp.beta = beta, pp.relu = relu;
                                pp.bias = p.bias ? o.bias.as<float>() : nullptr;
                                pp.c = o.c.as<float>(), pp.ldc = o.ldc;
                                t->gemm_panel(pp);
                                check(p, o, std::string(t->name) + " " + describe("gemm_panel", p));
                            }
    }
}

// The whole product on this CPU's table, with one thread and with two splitting (group, panel)
// items: several panels and a partial last one, rows past one group of 512 KiB of A, packing
// storage reused by a smaller product.
void test_packed_gemm(void **) {
    if (!PackedPanels::available()) skip();
    for (int threads : {1, 2}) {
        ng::ThreadPool pool(threads);
        PackedPanels packed;
        for (Product p : {Product{130, 100, 300, false, false, 1.0f, 0.0f, true, true},
                          Product{130, 100, 300, true, true, -0.5f, 1.0f, false, false},
                          Product{700, 33, 200, false, true, 1.0f, 0.25f, false, true},
                          Product{5, 70, 1, true, false, 2.0f, 0.0f, false, false},
                          Product{1, 17, 40, false, false, 1.0f, 0.0f, true, false}}) {
            Operands o(p);
            packed.pack(p.tb, p.k, p.n, o.b.as<float>(), o.ldb, &pool);
            assert_int_equal(packed.depth(), p.k);
            assert_int_equal(packed.cols(), p.n);
            ProductEpilogue epilogue;
            epilogue.alpha = p.alpha, epilogue.beta = p.beta, epilogue.relu = p.relu;
            epilogue.bias = p.bias ? o.bias.as<float>() : nullptr;
            packed_gemm(p.ta, p.m, o.a.as<float>(), o.lda, packed, epilogue, o.c.as<float>(), o.ldc,
                        &pool);
            check(p, o, describe("packed_gemm", p) + " threads=" + std::to_string(threads));
        }
    }
}

// The product with each panel packed as it goes, on this CPU's table, with one thread and with
// two splitting (panel, group) items: several panels and a partial last one, one and several
// groups of rows of A (512 KiB each), both transposes, and each thread's scratch reused by a
// smaller product.
void test_panel_gemm(void **) {
    if (!PackedPanels::available()) skip();
    for (int threads : {1, 2}) {
        ng::ThreadPool pool(threads);
        for (Product p : {Product{130, 100, 300, false, false, 1.0f, 0.0f, true, true},
                          Product{300, 70, 1000, true, true, -0.5f, 1.0f, false, false},
                          Product{300, 70, 1000, false, false, 1.0f, 0.0f, true, true},
                          Product{700, 33, 200, false, true, 1.0f, 0.25f, false, true},
                          Product{5, 70, 1, true, false, 2.0f, 0.0f, false, false},
                          Product{1, 17, 40, false, false, 1.0f, 0.0f, true, false}}) {
            Operands o(p);
            ProductEpilogue epilogue;
            epilogue.alpha = p.alpha, epilogue.beta = p.beta, epilogue.relu = p.relu;
            epilogue.bias = p.bias ? o.bias.as<float>() : nullptr;
            panel_gemm(p.ta, p.tb, p.m, p.n, p.k, o.a.as<float>(), o.lda, o.b.as<float>(), o.ldb,
                       epilogue, o.c.as<float>(), o.ldc, &pool);
            check(p, o, describe("panel_gemm", p) + " threads=" + std::to_string(threads));
        }
    }
}

// Empty products write nothing; bad sizes and leading dimensions are refused by name.
void test_packed_gemm_errors(void **) {
    if (!PackedPanels::available()) skip();
    PackedPanels packed;
    float b[12] = {0}, a[12] = {0}, c[12] = {1};
    kt::expect_contains(kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                                         [&] { packed.pack(false, -1, 3, b, 3, nullptr); }),
                        "depth=-1");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] { packed.pack(false, 4, 3, b, 2, nullptr); }),
        "ldb = 2");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] { packed.pack(true, 4, 3, b, 3, nullptr); }),
        "ldb = 3");
    packed.pack(false, 4, 3, b, 3, nullptr);
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { packed_gemm(false, -2, a, 4, packed, {}, c, 3, nullptr); }),
        "m=-2");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { packed_gemm(false, 2, a, 3, packed, {}, c, 3, nullptr); }),
        "lda = 3");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { packed_gemm(true, 2, a, 1, packed, {}, c, 3, nullptr); }),
        "lda = 1");
    kt::expect_contains(
        kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { packed_gemm(false, 2, a, 4, packed, {}, c, 2, nullptr); }),
        "ldc = 2");
    packed_gemm(false, 0, a, 4, packed, {}, c, 3, nullptr);
    assert_true(c[0] == 1.0f);
}

void test_panel_gemm_errors(void **) {
    if (!PackedPanels::available()) skip();
    float b[12] = {0}, a[12] = {0}, c[12] = {1};
    auto refused = [](const char *needle, auto &&call) {
        kt::expect_contains(kt::expect_error(NG_ERR_INVALID_ARGUMENT, call), needle);
    };
    // m x n = op(A)[m x k] op(B)[k x n]; A 2 x 4 (lda 4), B 4 x 3 (ldb 3), C 2 x 3 (ldc 3).
    refused("m=-1", [&] { panel_gemm(false, false, -1, 3, 4, a, 4, b, 3, {}, c, 3, nullptr); });
    refused("n=-3", [&] { panel_gemm(false, false, 2, -3, 4, a, 4, b, 3, {}, c, 3, nullptr); });
    refused("k=-4", [&] { panel_gemm(false, false, 2, 3, -4, a, 4, b, 3, {}, c, 3, nullptr); });
    refused("lda = 3", [&] { panel_gemm(false, false, 2, 3, 4, a, 3, b, 3, {}, c, 3, nullptr); });
    refused("lda = 1", [&] { panel_gemm(true, false, 2, 3, 4, a, 1, b, 3, {}, c, 3, nullptr); });
    refused("ldb = 2", [&] { panel_gemm(false, false, 2, 3, 4, a, 4, b, 2, {}, c, 3, nullptr); });
    refused("ldb = 3", [&] { panel_gemm(false, true, 2, 3, 4, a, 4, b, 3, {}, c, 3, nullptr); });
    refused("ldc = 2", [&] { panel_gemm(false, false, 2, 3, 4, a, 4, b, 3, {}, c, 2, nullptr); });
    panel_gemm(false, false, 0, 3, 4, a, 4, b, 3, {}, c, 3, nullptr);
    panel_gemm(false, false, 2, 0, 4, a, 4, b, 3, {}, c, 3, nullptr);
    assert_true(c[0] == 1.0f);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_panel),        cmocka_unit_test(test_packed_gemm),
        cmocka_unit_test(test_panel_gemm),        cmocka_unit_test(test_packed_gemm_errors),
        cmocka_unit_test(test_panel_gemm_errors),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
