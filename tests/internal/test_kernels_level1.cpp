// Level-1 kernels: every primitive of every instruction set this CPU runs, against the scalar
// reference (odd lengths, misaligned pointers, all dtypes) and against values worked out by hand.
//
// Error bounds (floats, versus libm in double rounded to the dtype): exact (0 ulp) for copy,
// negative, absolute, sign, sqrt, square, reciprocal, relu and every binary operation (IEEE
// operations on float operands are exact in double, and pow goes through libm in both);
// kMathUlps for exp, log, sin, cos, tanh and sigmoid (polynomial approximations; float32 tanh
// also over a dense sweep of its domain, to kTanhFloatUlps).
#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;
using ng::DType;

namespace {

constexpr int64_t kMathUlps = 4;

const UnaryFn kUnaryAll[] = {
    UnaryFn::Copy, UnaryFn::Negative, UnaryFn::Absolute, UnaryFn::Sign,       UnaryFn::Exp,
    UnaryFn::Log,  UnaryFn::Sqrt,     UnaryFn::Square,   UnaryFn::Reciprocal, UnaryFn::Sigmoid,
    UnaryFn::Relu, UnaryFn::Sin,      UnaryFn::Cos,      UnaryFn::Tanh};
const UnaryFn kUnaryInteger[] = {UnaryFn::Copy, UnaryFn::Negative, UnaryFn::Absolute,
                                 UnaryFn::Sign, UnaryFn::Square,   UnaryFn::Relu};
const BinaryFn kBinaryAll[] = {BinaryFn::Add,    BinaryFn::Subtract, BinaryFn::Multiply,
                               BinaryFn::Divide, BinaryFn::Power,    BinaryFn::Maximum,
                               BinaryFn::Minimum};
const CompareFn kCompareAll[] = {CompareFn::Equal,   CompareFn::NotEqual,
                                 CompareFn::Less,    CompareFn::LessEqual,
                                 CompareFn::Greater, CompareFn::GreaterEqual};
const ReduceFn kReduceAll[] = {ReduceFn::Sum, ReduceFn::Max, ReduceFn::Min, ReduceFn::Prod};
const int kSteps[][2] = {{1, 1}, {0, 1}, {1, 0}, {0, 0}};

std::string label(const VectorTable *t, const char *fn, DType dt, int64_t n) {
    return std::string(t->name) + " " + fn + " " + ng::dtype_name(dt) + " n=" + std::to_string(n);
}

int64_t unary_ulps(UnaryFn f) {
    switch (f) {
    case UnaryFn::Exp:
    case UnaryFn::Log:
    case UnaryFn::Sin:
    case UnaryFn::Cos:
    case UnaryFn::Tanh:
    case UnaryFn::Sigmoid: return kMathUlps;
    default: return 0;
    }
}

// Inputs in each function's interesting domain, with its edge cases first.
void unary_inputs(UnaryFn f, Buffer &x, uint32_t seed) {
    std::vector<double> special;
    double lo = -6, hi = 6;
    switch (f) {
    case UnaryFn::Log:
    case UnaryFn::Sqrt: lo = 1e-3, hi = 1e3, special = {0, 1, INFINITY, -1}; break;
    case UnaryFn::Exp: lo = -80, hi = 80, special = {0, -1000, 1000, NAN, 1e300, -1e300}; break;
    case UnaryFn::Sigmoid:
        lo = -30, hi = 30, special = {0, -1000, 1000, -40, 40, NAN, 1e300, -1e300};
        break;
    case UnaryFn::Tanh: lo = -10, hi = 10, special = {0, -1000, 1000, 1e-8, NAN, 1e300}; break;
    case UnaryFn::Sin:
    case UnaryFn::Cos:
        lo = -100, hi = 100, special = {0, 3.14159265358979, 1e3, -3e5, 2e6, 1e30, NAN, INFINITY};
        break;
    case UnaryFn::Reciprocal: special = {0, -0.0, INFINITY}; break;
    default: special = {0, -0.0, NAN, INFINITY, -INFINITY}; break;
    }
    kt::fill_random(x, seed, lo, hi);
    for (size_t i = 0; i < special.size() && int64_t(i) < x.size(); ++i)
        x.set(int64_t(i), special[i]);
}

void test_unary_float_vs_reference(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (UnaryFn f : kUnaryAll)
                for (int64_t n : kt::odd_lengths()) {
                    size_t misalign = ng::dtype_size(dt);  // off the vector alignment
                    Buffer x(dt, n, misalign), got(dt, n, misalign), want(dt, n);
                    unary_inputs(f, x, uint32_t(n) * 31 + uint32_t(f));
                    t->unary(f, dt, n, x.data(), got.data());
                    reference::unary(f, dt, n, x.data(), want.data());
                    kt::expect_same(got, want, unary_ulps(f), label(t, fn_name(f), dt, n));
                    t->unary(f, dt, n, x.data(), x.data());  // in place
                    kt::expect_same(x, want, unary_ulps(f),
                                    label(t, fn_name(f), dt, n) + " in place");
                }
}

void test_unary_integer_vs_reference(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_INT32, NG_INT64, NG_UINT8})
            for (UnaryFn f : kUnaryInteger)
                for (int64_t n : kt::odd_lengths()) {
                    Buffer x(dt, n, ng::dtype_size(dt)), got(dt, n), want(dt, n);
                    kt::fill_random(x, uint32_t(n) + 7);
                    t->unary(f, dt, n, x.data(), got.data());
                    reference::unary(f, dt, n, x.data(), want.data());
                    kt::expect_same(got, want, 0, label(t, fn_name(f), dt, n));
                }
}

template <class T>
std::vector<T> apply_unary(UnaryFn f, DType dt, std::vector<T> x) {
    std::vector<T> out(x.size());
    unary(f, dt, int64_t(x.size()), x.data(), out.data());
    return out;
}

void test_unary_hand_values(void **) {
    auto f = apply_unary<float>;
    assert_true(f(UnaryFn::Exp, NG_FLOAT32, {0.f})[0] == 1.f);
    kt::expect_near(f(UnaryFn::Exp, NG_FLOAT32, {1.f})[0], 2.718281828, 1e-6, "exp(1)");
    assert_true(f(UnaryFn::Exp, NG_FLOAT32, {-1000.f})[0] == 0.f);
    assert_true(std::isinf(f(UnaryFn::Exp, NG_FLOAT32, {1000.f})[0]));
    assert_true(f(UnaryFn::Log, NG_FLOAT32, {1.f})[0] == 0.f);
    assert_true(f(UnaryFn::Log, NG_FLOAT32, {0.f})[0] == -INFINITY);
    assert_true(std::isnan(f(UnaryFn::Log, NG_FLOAT32, {-1.f})[0]));
    assert_true(f(UnaryFn::Sqrt, NG_FLOAT32, {9.f})[0] == 3.f);
    assert_true(f(UnaryFn::Reciprocal, NG_FLOAT32, {4.f})[0] == 0.25f);
    assert_true(f(UnaryFn::Square, NG_FLOAT32, {-3.f})[0] == 9.f);
    assert_true(f(UnaryFn::Sigmoid, NG_FLOAT32, {0.f})[0] == 0.5f);
    // Saturation without NaN at the extremes (a naive exp(x)/(1+exp(x)) gives inf/inf there).
    auto s = f(UnaryFn::Sigmoid, NG_FLOAT32, {1000.f, -1000.f, 100.f, -100.f});
    assert_true(s[0] == 1.f && s[1] == 0.f && s[2] == 1.f);
    kt::expect_near(s[3], 3.720075976e-44, 1e-6, "sigmoid(-100)");
    auto th = f(UnaryFn::Tanh, NG_FLOAT32, {1000.f, -1000.f, 0.f, 0.5f});
    assert_true(th[0] == 1.f && th[1] == -1.f && th[2] == 0.f);
    kt::expect_near(th[3], 0.46211715726, 1e-6, "tanh(0.5)");
    auto sg = f(UnaryFn::Sign, NG_FLOAT32, {-3.f, 0.f, 2.5f, NAN});
    assert_true(sg[0] == -1.f && sg[1] == 0.f && sg[2] == 1.f && std::isnan(sg[3]));
    auto r = f(UnaryFn::Relu, NG_FLOAT32, {-2.f, 3.f, NAN});
    assert_true(r[0] == 0.f && r[1] == 3.f && std::isnan(r[2]));
    auto a = f(UnaryFn::Absolute, NG_FLOAT32, {-2.5f});
    assert_true(a[0] == 2.5f);
    kt::expect_near(apply_unary<double>(UnaryFn::Sin, NG_FLOAT64, {M_PI / 6})[0], 0.5, 1e-15,
                    "sin(pi/6)");
    kt::expect_near(apply_unary<double>(UnaryFn::Cos, NG_FLOAT64, {M_PI / 3})[0], 0.5, 1e-15,
                    "cos(pi/3)");

    auto i = apply_unary<int32_t>;
    int32_t min32 = std::numeric_limits<int32_t>::min();
    assert_true(i(UnaryFn::Negative, NG_INT32, {min32})[0] == min32);  // wraps, no UB
    assert_true(i(UnaryFn::Absolute, NG_INT32, {-5})[0] == 5);
    auto sign = i(UnaryFn::Sign, NG_INT32, {-7, 0, 9});
    assert_true(sign[0] == -1 && sign[1] == 0 && sign[2] == 1);
    assert_true(i(UnaryFn::Square, NG_INT32, {-12})[0] == 144);
    assert_true(i(UnaryFn::Relu, NG_INT32, {-12})[0] == 0);
    assert_true(apply_unary<uint8_t>(UnaryFn::Negative, NG_UINT8, {1})[0] == 255);
    assert_true(apply_unary<uint8_t>(UnaryFn::Square, NG_UINT8, {16})[0] == 0);  // 256 wraps
    assert_true(apply_unary<int64_t>(UnaryFn::Absolute, NG_INT64, {-(int64_t(1) << 40)})[0] ==
                int64_t(1) << 40);
}

void binary_inputs(BinaryFn f, Buffer &a, Buffer &b, uint32_t seed) {
    bool is_float = ng::dtype_is_float(a.dtype());
    auto set = [](Buffer &x, int64_t i, double v) {
        if (i < x.size()) x.set(i, v);
    };
    if (f == BinaryFn::Power) {
        kt::fill_random(a, seed, 0.1, 4);
        kt::fill_random(b, seed + 1, -3, 3);
        if (!is_float) {
            for (int64_t i = 0; i < b.size(); ++i) b.set(i, double(i % 11 - 2));  // exponents -2..8
            for (int64_t i = 0; i < a.size(); ++i)
                a.set(i, a.dtype() == NG_UINT8 ? double(i % 5) : double(i % 9 - 4));
        } else {  // negative base with integral exponent, 0^0, 0^-1
            set(a, 0, -2), set(b, 0, 3);
            set(a, 1, 0), set(b, 1, 0);
            set(a, 2, 0), set(b, 2, -1);
        }
        return;
    }
    kt::fill_random(a, seed);
    kt::fill_random(b, seed + 1);
    set(b, 0, 0);  // division by zero: inf/NaN for floats, 0 for integers
    if (a.dtype() != NG_UINT8) set(b, 1, -1);
    set(a, 2, 5), set(b, 2, 5);  // a tie for maximum/minimum
    if (is_float) set(a, 3, NAN);
}

void test_binary_vs_reference(void **) {
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (BinaryFn f : kBinaryAll)
                for (auto steps : kSteps)
                    for (int64_t n :
                         {int64_t(0), int64_t(1), int64_t(7), int64_t(1023), int64_t(4097)}) {
                        int64_t na = steps[0] ? n : 1, nb = steps[1] ? n : 1;
                        Buffer a(dt, na, ng::dtype_size(dt)), b(dt, nb),
                            got(dt, n, ng::dtype_size(dt)), want(dt, n);
                        binary_inputs(f, a, b, uint32_t(n) * 3 + uint32_t(f));
                        t->binary(f, dt, n, a.data(), steps[0], b.data(), steps[1], got.data());
                        reference::binary(f, dt, n, a.data(), steps[0], b.data(), steps[1],
                                          want.data());
                        kt::expect_same(got, want, 0,
                                        label(t, fn_name(f), dt, n) + " steps " +
                                            std::to_string(steps[0]) + std::to_string(steps[1]));
                    }
}

template <class T>
T apply_binary(BinaryFn f, DType dt, T a, T b) {
    T out;
    binary(f, dt, 1, &a, 1, &b, 1, &out);
    return out;
}

void test_binary_hand_values(void **) {
    assert_true(apply_binary<float>(BinaryFn::Add, NG_FLOAT32, 1.5f, 2.25f) == 3.75f);
    assert_true(apply_binary<float>(BinaryFn::Subtract, NG_FLOAT32, 1.5f, 2.25f) == -0.75f);
    assert_true(apply_binary<double>(BinaryFn::Multiply, NG_FLOAT64, -3, 0.5) == -1.5);
    assert_true(apply_binary<double>(BinaryFn::Divide, NG_FLOAT64, 1, 8) == 0.125);
    assert_true(apply_binary<double>(BinaryFn::Divide, NG_FLOAT64, 1, 0) == INFINITY);
    assert_true(apply_binary<double>(BinaryFn::Power, NG_FLOAT64, 2, 10) == 1024);
    assert_true(apply_binary<double>(BinaryFn::Power, NG_FLOAT64, -2, 3) == -8);
    assert_true(apply_binary<double>(BinaryFn::Power, NG_FLOAT64, 0, 0) == 1);
    assert_true(std::isnan(apply_binary<double>(BinaryFn::Power, NG_FLOAT64, -2, 0.5)));
    assert_true(apply_binary<float>(BinaryFn::Power, NG_FLOAT32, 10, 30) == 1e30f);
    assert_true(apply_binary<float>(BinaryFn::Maximum, NG_FLOAT32, 1, 2) == 2);
    assert_true(std::isnan(apply_binary<float>(BinaryFn::Maximum, NG_FLOAT32, NAN, 2)));
    assert_true(std::isnan(apply_binary<float>(BinaryFn::Maximum, NG_FLOAT32, 2, NAN)));
    assert_true(std::isnan(apply_binary<float>(BinaryFn::Minimum, NG_FLOAT32, NAN, 2)));
    assert_true(apply_binary<float>(BinaryFn::Minimum, NG_FLOAT32, -1, 2) == -1);

    int32_t max32 = std::numeric_limits<int32_t>::max(),
            min32 = std::numeric_limits<int32_t>::min();
    assert_true(apply_binary<int32_t>(BinaryFn::Add, NG_INT32, max32, 1) == min32);  // wraps
    assert_true(apply_binary<int32_t>(BinaryFn::Divide, NG_INT32, 7, -2) == -3);     // truncates
    assert_true(apply_binary<int32_t>(BinaryFn::Divide, NG_INT32, 7, 0) == 0);
    assert_true(apply_binary<int32_t>(BinaryFn::Divide, NG_INT32, min32, -1) == min32);
    assert_true(apply_binary<int32_t>(BinaryFn::Power, NG_INT32, 3, 4) == 81);
    assert_true(apply_binary<int32_t>(BinaryFn::Power, NG_INT32, -2, 3) == -8);
    assert_true(apply_binary<int32_t>(BinaryFn::Power, NG_INT32, 2, -1) == 0);
    assert_true(apply_binary<int32_t>(BinaryFn::Power, NG_INT32, -1, -3) == -1);
    assert_true(apply_binary<int64_t>(BinaryFn::Power, NG_INT64, 2, 62) == int64_t(1) << 62);
    assert_true(apply_binary<uint8_t>(BinaryFn::Subtract, NG_UINT8, 0, 1) == 255);
    assert_true(apply_binary<uint8_t>(BinaryFn::Maximum, NG_UINT8, 200, 100) == 200);
    assert_true(apply_binary<uint8_t>(BinaryFn::Multiply, NG_BOOL, 1, 0) == 0);
    // A broadcast operand.
    float a[5] = {1, 2, 3, 4, 5}, two = 2, out[5];
    binary(BinaryFn::Multiply, NG_FLOAT32, 5, a, 1, &two, 0, out);
    for (int i = 0; i < 5; ++i) assert_true(out[i] == 2 * a[i]);
}

void test_compare_vs_reference_and_hand(void **) {
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (CompareFn f : kCompareAll)
                for (auto steps : kSteps)
                    for (int64_t n : {int64_t(1), int64_t(7), int64_t(1023)}) {
                        Buffer a(dt, steps[0] ? n : 1), b(dt, steps[1] ? n : 1);
                        Buffer got(NG_BOOL, n, 1), want(NG_BOOL, n);
                        kt::fill_random(a, 5, -2, 2);
                        kt::fill_random(b, 5, -2, 2);  // same seed: many equal pairs
                        if (dt == NG_FLOAT32 || dt == NG_FLOAT64) a.set(0, NAN);
                        t->compare(f, dt, n, a.data(), steps[0], b.data(), steps[1],
                                   got.as<uint8_t>());
                        reference::compare(f, dt, n, a.data(), steps[0], b.data(), steps[1],
                                           want.as<uint8_t>());
                        kt::expect_same(got, want, 0, label(t, fn_name(f), dt, n));
                    }
    float a[4] = {1, 2, NAN, 3}, b[4] = {2, 2, NAN, 1};
    uint8_t out[4];
    compare(CompareFn::Less, NG_FLOAT32, 4, a, 1, b, 1, out);
    assert_true(out[0] == 1 && out[1] == 0 && out[2] == 0 && out[3] == 0);
    compare(CompareFn::NotEqual, NG_FLOAT32, 4, a, 1, b, 1, out);
    assert_true(out[0] == 1 && out[1] == 0 && out[2] == 1 && out[3] == 1);  // NaN != NaN
    compare(CompareFn::GreaterEqual, NG_FLOAT32, 4, a, 1, b, 1, out);
    assert_true(out[0] == 0 && out[1] == 1 && out[2] == 0 && out[3] == 1);
    int64_t x[3] = {-1, 0, 1}, zero = 0;
    compare(CompareFn::Equal, NG_INT64, 3, x, 1, &zero, 0, out);
    assert_true(out[0] == 0 && out[1] == 1 && out[2] == 0);
}

void test_select_vs_reference_and_hand(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64, NG_UINT8, NG_BOOL})
            for (auto steps : kSteps)
                for (int64_t n : kt::odd_lengths()) {
                    Buffer cond(NG_BOOL, n), a(dt, steps[0] ? n : 1), b(dt, steps[1] ? n : 1);
                    Buffer got(dt, n, ng::dtype_size(dt)), want(dt, n);
                    kt::fill_random(cond, 11);
                    kt::fill_random(a, 12);
                    kt::fill_random(b, 13);
                    t->select(dt, n, cond.as<uint8_t>(), a.data(), steps[0], b.data(), steps[1],
                              got.data());
                    reference::select(dt, n, cond.as<uint8_t>(), a.data(), steps[0], b.data(),
                                      steps[1], want.data());
                    kt::expect_same(got, want, 0, label(t, "select", dt, n));
                }
    uint8_t c[3] = {1, 0, 1};
    int32_t a[3] = {1, 2, 3}, b = -9, out[3];
    select(NG_INT32, 3, c, a, 1, &b, 0, out);
    assert_true(out[0] == 1 && out[1] == -9 && out[2] == 3);
}

void test_cast_vs_reference_and_hand(void **) {
    const DType all[] = {NG_BOOL, NG_INT32, NG_INT64, NG_UINT8, NG_FLOAT32, NG_FLOAT64};
    for (DType from : all)
        for (DType to : all) {
            int64_t n = 1031;
            Buffer x(from, n, ng::dtype_size(from)), got(to, n, ng::dtype_size(to)), want(to, n);
            kt::fill_random(x, 17, -300, 300);
            if (ng::dtype_is_float(from)) {
                const double special[] = {NAN,   1e10,         -1e10,         300.7, -5.5,
                                          255.9, 2147483647.0, -2147483649.0, 1e30,  -0.0};
                for (int i = 0; i < 10; ++i) x.set(i, special[i]);
            }
            cast(from, to, n, x.data(), got.data());
            reference::cast(from, to, n, x.data(), want.data());
            kt::expect_same(
                got, want, 0,
                std::string("cast ") + ng::dtype_name(from) + " -> " + ng::dtype_name(to));
        }
    float f[6] = {NAN, 1e10f, -1e10f, 300.7f, -5.5f, 2.9f};
    int32_t i32[6];
    cast(NG_FLOAT32, NG_INT32, 6, f, i32);
    assert_true(i32[0] == 0 && i32[1] == INT32_MAX && i32[2] == INT32_MIN && i32[3] == 300 &&
                i32[4] == -5 && i32[5] == 2);
    uint8_t u8[6];
    cast(NG_FLOAT32, NG_UINT8, 6, f, u8);
    assert_true(u8[0] == 0 && u8[1] == 255 && u8[2] == 0 && u8[3] == 255 && u8[4] == 0 &&
                u8[5] == 2);
    uint8_t b[6];
    cast(NG_FLOAT32, NG_BOOL, 6, f, b);
    assert_true(b[0] == 1 && b[1] == 1 && b[5] == 1);
    int64_t big[2] = {(int64_t(1) << 32) + 5, -1};
    int32_t wrapped[2];
    cast(NG_INT64, NG_INT32, 2, big, wrapped);
    assert_true(wrapped[0] == 5 && wrapped[1] == -1);
    double d[2];
    cast(NG_INT64, NG_FLOAT64, 2, big, d);
    assert_true(d[0] == 4294967301.0 && d[1] == -1.0);
}

// |float sum - exact| <= bound: pairwise summation keeps the error near log2(n) roundings of the
// sum of magnitudes; a plain loop would need n of them.
void expect_sum_close(double got, double exact, double magnitude, int64_t n, DType dt,
                      const std::string &what) {
    double eps = dt == NG_FLOAT32 ? 0x1p-24 : 0x1p-53;
    double bound = (std::log2(double(n) + 1) + 8) * eps * magnitude;
    if (!(std::fabs(got - exact) <= bound))
        fail_msg("%s: got %.17g, exact %.17g (error %.3g > %.3g)", what.c_str(), got, exact,
                 std::fabs(got - exact), bound);
}

void test_reduce_all_vs_reference(void **) {
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (ReduceFn f : kReduceAll)
                for (int64_t n : kt::odd_lengths()) {
                    Buffer x(dt, n, ng::dtype_size(dt)), got(dt, 1), want(dt, 1);
                    if (f == ReduceFn::Prod && ng::dtype_is_float(dt))
                        kt::fill_random(x, 3, 0.99, 1.01);
                    else
                        kt::fill_random(x, 3, -100, 100);
                    t->reduce_all(f, dt, n, x.data(), got.data());
                    reference::reduce_all(f, dt, n, x.data(), want.data());
                    std::string what = label(t, fn_name(f), dt, n);
                    if (ng::dtype_is_float(dt) && (f == ReduceFn::Sum || f == ReduceFn::Prod)) {
                        double magnitude = 0;
                        for (int64_t i = 0; i < n; ++i) magnitude += std::fabs(x.get(i));
                        if (f == ReduceFn::Prod)
                            magnitude = std::max(1.0, std::fabs(want.get(0))) * double(n);
                        expect_sum_close(got.get(0), want.get(0), magnitude, n, dt, what);
                    } else {
                        kt::expect_same(got, want, 0, what);
                    }
                }
}

// A float reduction gives the same bits wherever its values start: at every element offset past
// a 64-byte boundary (where AVX-512 assembles the vectors from aligned loads), the same values
// reduce to the bits they give on the boundary, in every table, for lengths of whole 256-value
// blocks, partial ones and tails.
void test_reduce_all_any_alignment(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (ReduceFn f : kReduceAll)
                for (int64_t n : {int64_t{64}, int64_t{256}, int64_t{300}, int64_t{4103}}) {
                    const size_t size = ng::dtype_size(dt);
                    Buffer aligned(dt, n), want(dt, 1);
                    if (f == ReduceFn::Prod)
                        kt::fill_random(aligned, 11, 0.99, 1.01);
                    else
                        kt::fill_random(aligned, 11, -100, 100);
                    t->reduce_all(f, dt, n, aligned.data(), want.data());
                    for (size_t offset = size; offset < 64; offset += size) {
                        Buffer x(dt, n, offset), got(dt, 1);
                        for (int64_t i = 0; i < n; ++i) x.set(i, aligned.get(i));
                        t->reduce_all(f, dt, n, x.data(), got.data());
                        kt::expect_same(got, want, 0,
                                        label(t, fn_name(f), dt, n) + " " + std::to_string(offset) +
                                            " bytes past a line");
                    }
                }
}

void test_reduce_all_hand_values(void **) {
    float x[5] = {3, -1, 4, 1, -5}, r;
    reduce_all(ReduceFn::Sum, NG_FLOAT32, 5, x, &r);
    assert_true(r == 2);
    reduce_all(ReduceFn::Max, NG_FLOAT32, 5, x, &r);
    assert_true(r == 4);
    reduce_all(ReduceFn::Min, NG_FLOAT32, 5, x, &r);
    assert_true(r == -5);
    reduce_all(ReduceFn::Prod, NG_FLOAT32, 5, x, &r);
    assert_true(r == 60);
    reduce_all(ReduceFn::Sum, NG_FLOAT32, 0, x, &r);
    assert_true(r == 0);
    reduce_all(ReduceFn::Max, NG_FLOAT32, 0, x, &r);
    assert_true(r == -INFINITY);
    // NaN anywhere (including the tail that is not a whole vector) wins max and min.
    std::vector<float> v(1027, 1.f);
    for (size_t pos : {size_t(0), size_t(500), size_t(1026)}) {
        v.assign(1027, 1.f);
        v[pos] = NAN;
        reduce_all(ReduceFn::Max, NG_FLOAT32, 1027, v.data(), &r);
        assert_true(std::isnan(r));
        reduce_all(ReduceFn::Min, NG_FLOAT32, 1027, v.data(), &r);
        assert_true(std::isnan(r));
    }
    // Accuracy: a million 0.1f summed in float32. Pairwise summation lands within a few ulp of the
    // exact sum; a single running float sum is off by about 1%.
    std::vector<float> tenths(1000000, 0.1f);
    reduce_all(ReduceFn::Sum, NG_FLOAT32, int64_t(tenths.size()), tenths.data(), &r);
    double exact = 1000000 * double(0.1f);
    kt::expect_near(r, exact, 1e-6, "sum of a million 0.1f");

    int32_t i[4] = {INT32_MAX, 1, 5, 7}, ri;
    reduce_all(ReduceFn::Sum, NG_INT32, 4, i, &ri);
    assert_true(ri == INT32_MIN + 12);  // 2^31 + 12 wraps
    reduce_all(ReduceFn::Min, NG_INT32, 0, i, &ri);
    assert_true(ri == INT32_MAX);
    uint8_t b[3] = {0, 1, 0}, rb;
    reduce_all(ReduceFn::Max, NG_BOOL, 3, b, &rb);  // any
    assert_true(rb == 1);
    reduce_all(ReduceFn::Min, NG_BOOL, 3, b, &rb);  // all
    assert_true(rb == 0);
}

// reduce_rows against the same table's reduce_all over each tile of each row and then over the
// tiles' results: bitwise, for every dtype and function, rows of one tile, of two (which float
// sums add directly, reading two rows at a time when a tile is at most a leaf), of several and of
// a short last tile, rows of several leaves of the float sum, odd and even row counts, strided
// rows and a strided output, no rows; nothing written between the strided outputs.
void test_reduce_rows(void **) {
    struct Shape {
        int64_t rows, n, tile, x_stride, out_stride;
    };
    const Shape shapes[] = {
        {5, 37, 64, 37, 1},       {4, 300, 64, 301, 2},     {3, 256, 64, 256, 1},
        {2, 1000, 128, 1003, 3},  {0, 50, 64, 50, 1},       {1, 0, 64, 0, 1},
        {3, 100, 64, 101, 1},     {2, 128, 64, 128, 2},     {2, 4096, 2048, 4099, 1},
        {1, 3001, 2048, 3001, 1}, {1, 6000, 2048, 6000, 1}, {5, 4096, 2048, 4099, 1},
        {6, 2000, 2048, 2003, 2}, {7, 150, 64, 150, 1}};
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (ReduceFn f : kReduceAll)
                for (const Shape &sh : shapes) {
                    Buffer x(dt, std::max<int64_t>(1, sh.rows * sh.x_stride), ng::dtype_size(dt));
                    if (f == ReduceFn::Prod && ng::dtype_is_float(dt))
                        kt::fill_random(x, 5, 0.99, 1.01);
                    else
                        kt::fill_random(x, 5, -100, 100);
                    const int64_t outs = std::max<int64_t>(1, sh.rows * sh.out_stride);
                    Buffer got(dt, outs), want(dt, outs), tiles(dt, kMaxRowTiles);
                    kt::fill_random(got, 6, -1, 1);
                    want = got;
                    const size_t size = ng::dtype_size(dt);
                    const auto at = [&](Buffer &b, int64_t i) {
                        return static_cast<char *>(b.data()) + i * int64_t(size);
                    };
                    t->reduce_rows(f, dt, sh.rows, sh.n, sh.tile, x.data(), sh.x_stride, got.data(),
                                   sh.out_stride);
                    for (int64_t r = 0; r < sh.rows; ++r) {
                        char *row = at(x, r * sh.x_stride);
                        if (sh.n <= sh.tile) {
                            t->reduce_all(f, dt, sh.n, row, at(want, r * sh.out_stride));
                            continue;
                        }
                        int64_t count = 0;
                        for (int64_t s = 0; s < sh.n; s += sh.tile, ++count)
                            t->reduce_all(f, dt, std::min(sh.tile, sh.n - s),
                                          row + s * int64_t(size), at(tiles, count));
                        t->reduce_all(f, dt, count, tiles.data(), at(want, r * sh.out_stride));
                    }
                    kt::expect_same(got, want, 0,
                                    label(t, fn_name(f), dt, sh.n) + " reduce_rows, " +
                                        std::to_string(sh.rows) + " rows");
                }
    // The C-level entry point checks what the tables trust.
    float x[4] = {1, 2, 3, 4}, out[2];
    auto m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        reduce_rows(ReduceFn::Sum, NG_FLOAT32, -2, 2, 64, x, 2, out, 1);
    });
    kt::expect_contains(m, "-2");
    m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        reduce_rows(ReduceFn::Sum, NG_FLOAT32, 1, 65 * 4, 4, x, 0, out, 1);
    });
    kt::expect_contains(m, "260");
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { reduce_rows(ReduceFn::Sum, NG_FLOAT32, 1, 4, 0, x, 4, out, 1); });
    kt::expect_error(NG_ERR_DTYPE,
                     [&] { reduce_rows(ReduceFn::Sum, NG_BOOL, 1, 4, 64, x, 4, out, 1); });
    reduce_rows(ReduceFn::Sum, NG_FLOAT32, 2, 2, 64, x, 2, out, 1);
    assert_true(out[0] == 3 && out[1] == 7);
    // Two tiles by hand: 1 + 2 + 3 in the first, 4 in the second.
    reduce_rows(ReduceFn::Sum, NG_FLOAT32, 1, 4, 3, x, 4, out, 1);
    assert_true(out[0] == 10);
    // A sum of -0s is +0 however its tiles are combined.
    const float negative_zeros[6] = {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f};
    for (auto *t : kt::tables()) {
        float two_tiles = -1;
        t->reduce_rows(ReduceFn::Sum, NG_FLOAT32, 1, 6, 4, negative_zeros, 6, &two_tiles, 1);
        assert_true(two_tiles == 0 && !std::signbit(two_tiles));
    }
}

// accumulate_rows against one reference accumulate per row: exact for integers and extrema; for
// float sums and products (combined pairwise, not in order) within a few roundings.
void test_accumulate_rows(void **) {
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (ReduceFn f : kReduceAll)
                for (int64_t n : kt::odd_lengths())
                    for (int32_t count = 1; count <= kMaxAccumulateRows; ++count) {
                        std::vector<Buffer> rows;
                        std::vector<const void *> pointers;
                        for (int32_t r = 0; r < count; ++r) {
                            rows.emplace_back(dt, n, size_t(r) * ng::dtype_size(dt));
                            if (f == ReduceFn::Prod && ng::dtype_is_float(dt))
                                kt::fill_random(rows.back(), 30 + uint32_t(r), 0.5, 1.5);
                            else
                                kt::fill_random(rows.back(), 30 + uint32_t(r), -3, 3);
                        }
                        for (auto &row : rows) pointers.push_back(row.data());
                        Buffer got(dt, n), want(dt, n);
                        kt::fill_random(got, 29, -3, 3);
                        if (ng::dtype_is_float(dt) && n > 2) rows[0].set(1, NAN);
                        std::memcpy(want.data(), got.data(), size_t(n) * ng::dtype_size(dt));
                        t->accumulate_rows(f, dt, n, pointers.data(), count, got.data());
                        std::vector<double> magnitude(static_cast<size_t>(n));
                        for (int64_t i = 0; i < n; ++i)
                            magnitude[size_t(i)] = std::fabs(want.get(i));
                        for (auto &row : rows) {
                            reference::accumulate(f, dt, n, row.data(), want.data());
                            for (int64_t i = 0; i < n; ++i)
                                magnitude[size_t(i)] += std::fabs(row.get(i));
                        }
                        std::string what = label(t, fn_name(f), dt, n) + " accumulate_rows " +
                                           std::to_string(count);
                        if (ng::dtype_is_float(dt) && f == ReduceFn::Sum) {
                            // another order of count + 1 terms: a few roundings of their magnitude
                            for (int64_t i = 0; i < n; ++i)
                                if (!(std::isnan(got.get(i)) && std::isnan(want.get(i))))
                                    expect_sum_close(got.get(i), want.get(i), magnitude[size_t(i)],
                                                     count + 1, dt, what);
                            if (!got.guard_intact())
                                fail_msg("%s: wrote past the end", what.c_str());
                        } else {
                            bool rounded = ng::dtype_is_float(dt) && f == ReduceFn::Prod;
                            kt::expect_same(got, want, rounded ? 8 : 0, what);
                        }
                    }
    // By hand: 1 + (2 + 3) + (4 + 5) = 15; eight rows 1 + ((1 + 2) + (3 + 4)) + ((5 + 6) + (7 +
    // 8)) = 37; max(1, 2, -3) = 2.
    float acc[1] = {1}, r0[1] = {2}, r1[1] = {3}, r2[1] = {4}, r3[1] = {5};
    const void *four[4] = {r0, r1, r2, r3};
    accumulate_rows(ReduceFn::Sum, NG_FLOAT32, 1, four, 4, acc);
    assert_true(acc[0] == 15.0f);
    float eight_values[8] = {1, 2, 3, 4, 5, 6, 7, 8}, acc8[1] = {1};
    const void *eight[8];
    for (int r = 0; r < 8; ++r) eight[r] = &eight_values[r];
    accumulate_rows(ReduceFn::Sum, NG_FLOAT32, 1, eight, 8, acc8);
    assert_true(acc8[0] == 37.0f);
    // Six rows as ((r0 r1) r2) ((r3 r4) r5): 2^24 absorbs each 1 added to it alone, so the pairs
    // give (2^24) + (2 - 2^24) = 2 where adding the rows in order would give 0.
    float six_values[6] = {16777216.0f, 1, 1, 1, 1, -16777216.0f}, acc6[1] = {0};
    const void *six[6];
    for (int r = 0; r < 6; ++r) six[r] = &six_values[r];
    accumulate_rows(ReduceFn::Sum, NG_FLOAT32, 1, six, 6, acc6);
    assert_true(acc6[0] == 2.0f);
    float m[1] = {1}, neg[1] = {-3};
    const void *two[2] = {r0, neg};
    accumulate_rows(ReduceFn::Max, NG_FLOAT32, 1, two, 2, m);
    assert_true(m[0] == 2.0f);
    const void *too_many[kMaxAccumulateRows + 1];
    for (const void *&row : too_many) row = r0;
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        accumulate_rows(ReduceFn::Sum, NG_FLOAT32, 1, too_many, kMaxAccumulateRows + 1, acc);
    });
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { accumulate_rows(ReduceFn::Sum, NG_FLOAT32, 1, four, 0, acc); });
}

// accumulate_lanes against the same order computed by the reference, row by row: each column's
// values of the lanes combined in lane order, then into acc. Bit for bit where the rows are a
// whole number of vectors on every table (16 values); otherwise (the row-by-row fallback on some
// tables) exact for integers and extrema and within a few roundings for float sums and products.
// Lanes of 0 to 7 rows: fewer vectors than lanes, and more.
void test_accumulate_lanes(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32})
            for (ReduceFn f : kReduceAll)
                for (int64_t n : {16, 48, 7, 24})
                    for (int64_t rows : {0, 1, 2, 7})
                        for (int32_t lanes = 1; lanes <= kMaxAccumulateLanes; ++lanes) {
                            const bool lo_hi = f == ReduceFn::Prod && ng::dtype_is_float(dt);
                            std::vector<Buffer> lane;
                            std::vector<const void *> starts;
                            for (int32_t j = 0; j < lanes; ++j) {
                                lane.emplace_back(dt, rows * n);
                                kt::fill_random(lane.back(), 40 + uint32_t(j), lo_hi ? 0.5 : -3,
                                                lo_hi ? 1.5 : 3);
                                starts.push_back(lane.back().data());
                            }
                            if (ng::dtype_is_float(dt) && rows > 1 && lanes > 2)
                                lane[2].set(n + 3, NAN);
                            Buffer got(dt, n), want(dt, n), initial(dt, n), column(dt, n);
                            kt::fill_random(got, 39, -3, 3);
                            std::memcpy(want.data(), got.data(), size_t(n) * ng::dtype_size(dt));
                            std::memcpy(initial.data(), got.data(), size_t(n) * ng::dtype_size(dt));
                            t->accumulate_lanes(f, dt, n, rows, starts.data(), lanes, got.data());
                            const size_t row_bytes = size_t(n) * ng::dtype_size(dt);
                            for (int64_t r = 0; r < rows; ++r) {
                                std::memcpy(column.data(),
                                            static_cast<const char *>(starts[0]) + r * row_bytes,
                                            row_bytes);
                                for (int32_t j = 1; j < lanes; ++j)
                                    reference::accumulate(
                                        f, dt, n,
                                        static_cast<const char *>(starts[size_t(j)]) +
                                            r * row_bytes,
                                        column.data());
                                reference::accumulate(f, dt, n, column.data(), want.data());
                            }
                            std::string what = label(t, fn_name(f), dt, n) + " accumulate_lanes " +
                                               std::to_string(lanes) + " x " + std::to_string(rows);
                            if (n % 16 != 0 && ng::dtype_is_float(dt) && f == ReduceFn::Sum) {
                                // Another order of the same terms (the row-by-row fallback): each
                                // of the lanes * rows sums rounds by at most eps times the
                                // magnitude of all the terms and of acc.
                                const double eps = dt == NG_FLOAT32 ? 0x1p-24 : 0x1p-53;
                                for (int64_t i = 0; i < n; ++i) {
                                    double magnitude = std::fabs(initial.get(i));
                                    for (int32_t j = 0; j < lanes; ++j)
                                        for (int64_t r = 0; r < rows; ++r)
                                            magnitude += std::fabs(lane[size_t(j)].get(r * n + i));
                                    const double g = got.get(i), w = want.get(i);
                                    if (!(std::isnan(g) && std::isnan(w)) &&
                                        !(std::fabs(g - w) <=
                                          2.0 * double(lanes * rows) * eps * magnitude))
                                        fail_msg("%s: element %lld: got %.17g, want %.17g",
                                                 what.c_str(), (long long)i, g, w);
                                }
                                if (!got.guard_intact())
                                    fail_msg("%s: wrote past the end", what.c_str());
                                continue;
                            }
                            const bool rounded =
                                ng::dtype_is_float(dt) && n % 16 != 0 && f == ReduceFn::Prod;
                            kt::expect_same(got, want, rounded ? 16 : 0, what);
                        }
    // By hand, lane order against row order: acc 2^24 with two lanes of a row of ones gives
    // 2^24 + (1 + 1) = 2^24 + 2, where adding the rows one at a time would round each 1 away.
    float acc[16], ones[16], big = 16777216.0f;
    for (int i = 0; i < 16; ++i) acc[i] = big, ones[i] = 1;
    const void *two_lanes[2] = {ones, ones};
    accumulate_lanes(ReduceFn::Sum, NG_FLOAT32, 16, 1, two_lanes, 2, acc);
    for (float a : acc) assert_true(a == 16777218.0f);
    const void *too_many[kMaxAccumulateLanes + 1];
    for (const void *&start : too_many) start = ones;
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        accumulate_lanes(ReduceFn::Sum, NG_FLOAT32, 16, 1, too_many, kMaxAccumulateLanes + 1, acc);
    });
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { accumulate_lanes(ReduceFn::Sum, NG_FLOAT32, 16, 1, too_many, 0, acc); });
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        accumulate_lanes(ReduceFn::Sum, NG_FLOAT32, 16, -1, two_lanes, 2, acc);
    });
}

void test_accumulate_and_fill(void **) {
    for (auto *t : kt::tables())
        for (DType dt : kt::all_numeric())
            for (ReduceFn f : kReduceAll)
                for (int64_t n : kt::odd_lengths()) {
                    Buffer x(dt, n, ng::dtype_size(dt)), got(dt, n), want(dt, n);
                    kt::fill_random(x, 21, -3, 3);
                    kt::fill_random(got, 22, -3, 3);
                    if (ng::dtype_is_float(dt) && n > 2) x.set(1, NAN), got.set(2, NAN);
                    std::memcpy(want.data(), got.data(), size_t(n) * ng::dtype_size(dt));
                    t->accumulate(f, dt, n, x.data(), got.data());
                    reference::accumulate(f, dt, n, x.data(), want.data());
                    kt::expect_same(got, want, 0, label(t, fn_name(f), dt, n) + " accumulate");
                }
    double acc[3] = {1, 5, -2}, x[3] = {2, 3, -4};
    accumulate(ReduceFn::Sum, NG_FLOAT64, 3, x, acc);
    assert_true(acc[0] == 3 && acc[1] == 8 && acc[2] == -6);
    accumulate(ReduceFn::Max, NG_FLOAT64, 3, x, acc);
    assert_true(acc[0] == 3 && acc[1] == 8 && acc[2] == -4);

    for (DType dt : kt::all_numeric())
        for (ReduceFn f : kReduceAll) {
            Buffer got(dt, 37), want(dt, 37);
            fill_identity(f, dt, 37, got.data());
            reference::fill_identity(f, dt, 37, want.data());
            kt::expect_same(got, want, 0,
                            std::string("fill_identity ") + fn_name(f) + " " + ng::dtype_name(dt));
        }
    float fi[2];
    fill_identity(ReduceFn::Min, NG_FLOAT32, 2, fi);
    assert_true(fi[0] == INFINITY && fi[1] == INFINITY);
    int64_t li[3];
    fill_identity(ReduceFn::Max, NG_INT64, 3, li);
    assert_true(li[2] == std::numeric_limits<int64_t>::lowest());
    int32_t filled[1029];
    fill(NG_INT32, 1029, -7.9, filled);
    assert_true(filled[0] == -7 && filled[1028] == -7);
    uint8_t u[3];
    fill(NG_UINT8, 3, 1000, u);
    assert_true(u[0] == 255 && u[2] == 255);
}

// Float tanh against tanh in double over a dense sweep of float32 values: every 257th bit pattern
// from 0 to 12 (where tanh is 1 in float), with its negation, and the edge cases (zeros,
// subnormals, the smallest normal, values around the saturation point, huge values, infinities,
// NaN). The bound: kTanhFloatUlps, counted against the double result rounded to float.
constexpr int64_t kTanhFloatUlps = 2;

void test_tanh_float_sweep(void **) {
    std::vector<float> x;
    uint32_t top;
    float twelve = 12.f;
    std::memcpy(&top, &twelve, sizeof top);
    for (uint32_t bits = 0; bits <= top; bits += 257) {
        float v;
        std::memcpy(&v, &bits, sizeof v);
        x.push_back(v);
        x.push_back(-v);
    }
    const float edges[] = {0.f,    -0.f,    1e-45f,   -1e-45f,   1e-40f, 1.17549435e-38f,
                           1e-8f,  -1e-8f,  0.17328f, 0.34657f,  0.5f,   8.9f,
                           9.01f,  9.1f,    -9.1f,    20.f,      40.f,   1e30f,
                           -1e30f, 3.4e38f, INFINITY, -INFINITY, NAN,    -NAN};
    x.insert(x.end(), std::begin(edges), std::end(edges));
    auto n = int64_t(x.size());
    for (auto *t : kt::tables())
        for (size_t misalign : {size_t(0), size_t(4)}) {
            Buffer in(NG_FLOAT32, n, misalign), out(NG_FLOAT32, n, misalign);
            std::memcpy(in.data(), x.data(), x.size() * sizeof(float));
            t->unary(UnaryFn::Tanh, NG_FLOAT32, n, in.data(), out.data());
            int64_t worst = 0;
            for (int64_t i = 0; i < n; ++i) {
                float got = out.as<float>()[i];
                auto want = float(std::tanh(double(x[size_t(i)])));
                int64_t d = kt::ulp_distance(got, want);
                if (d > kTanhFloatUlps || std::signbit(got) != std::signbit(want))
                    fail_msg("%s tanh(%.9g) = %.9g, want %.9g (%lld ulp > %lld)", t->name,
                             double(x[size_t(i)]), double(got), double(want), (long long)d,
                             (long long)kTanhFloatUlps);
                worst = std::max(worst, d);
            }
            if (!out.guard_intact()) fail_msg("%s tanh wrote past the end", t->name);
            print_message("%s: float32 tanh within %lld ulp over %lld values\n", t->name,
                          (long long)worst, (long long)n);
        }
}

// exp_shifted: exp(x - shift) for x <= shift, against exp in double of the same difference
// (kMathUlps where the result is a normal float or double, within the smallest normal below it),
// with one shift for all and one per element, misaligned, in place; x = shift gives exactly 1,
// -inf gives 0, NaN stays NaN.
void test_exp_shifted(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (int64_t n : kt::odd_lengths())
                for (int step : {0, 1}) {
                    size_t misalign = ng::dtype_size(dt);
                    Buffer x(dt, n, misalign), got(dt, n, misalign), s(dt, n > 0 ? n : 1);
                    kt::fill_random(x, uint32_t(n) + 11, -117, 0);
                    kt::fill_random(s, uint32_t(n) + 12, 0, 6.5);
                    auto shift_of = [&](int64_t i) { return s.get(step ? i : 0); };
                    for (int64_t i = 0; i < n; ++i) x.set(i, x.get(i) + shift_of(i));
                    const double special[] = {0, -INFINITY, NAN, -87.5, -88.5, -1e-30};
                    for (size_t i = 0; i < 6 && int64_t(i) < n; ++i)
                        x.set(int64_t(i), special[i] + shift_of(int64_t(i)));
                    std::string what =
                        label(t, "exp_shifted", dt, n) + (step ? " shift per element" : "");
                    t->exp_shifted(dt, n, x.data(), s.data(), step, got.data());
                    ng::visit_dtype(dt, [&](auto tag) {
                        using T = decltype(tag);
                        if constexpr (std::is_floating_point_v<T>) {
                            for (int64_t i = 0; i < n; ++i) {
                                T d = T(x.get(i)) - T(shift_of(i));
                                auto want = T(std::exp(double(d)));
                                auto g = T(got.get(i));
                                bool ok = kt::ulp_distance(g, want) <= kMathUlps ||
                                          (want < std::numeric_limits<T>::min() && g >= 0 &&
                                           g < std::numeric_limits<T>::min());
                                if (!ok)
                                    fail_msg("%s: exp(%.17g) = %.17g, want %.17g", what.c_str(),
                                             double(d), double(g), double(want));
                            }
                        }
                    });
                    if (n > 2)
                        assert_true(got.get(0) == 1 && got.get(1) == 0 && std::isnan(got.get(2)));
                    if (!got.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
                    t->exp_shifted(dt, n, x.data(), s.data(), step, x.data());  // in place
                    for (int64_t i = 0; i < n; ++i)
                        if (!(x.get(i) == got.get(i) ||
                              (std::isnan(x.get(i)) && std::isnan(got.get(i)))))
                            fail_msg("%s in place: element %lld differs", what.c_str(),
                                     (long long)i);
                }
    float x[2] = {1, 2}, y[2], shift = 2, shifts[2] = {1, 3};
    int32_t i[2] = {1, 2};
    exp_shifted(NG_FLOAT32, 2, x, &shift, 0, y);
    kt::expect_near(y[0], std::exp(-1.0), 1e-6, "exp_shifted(1 - 2)");
    assert_true(y[1] == 1.f);
    exp_shifted(NG_FLOAT32, 2, x, shifts, 1, y);
    assert_true(y[0] == 1.f);
    kt::expect_near(y[1], std::exp(-1.0), 1e-6, "exp_shifted(2 - 3)");
    kt::expect_error(NG_ERR_DTYPE, [&] { exp_shifted(NG_INT32, 2, i, i, 0, i); });
    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { exp_shifted(NG_FLOAT32, -1, x, &shift, 0, y); });
    kt::expect_error(NG_ERR_INTERNAL, [&] { exp_shifted(NG_FLOAT32, 2, x, &shift, 2, y); });
}

// The exponential of float softmax rows, through rows of two values {0, d} for d from -87 to 0
// (the narrow exponential where tables have fused multiply-adds). y1 / y0 is the exponential of d
// (that of 0 being exactly 1) times two roundings of products by the sum's reciprocal, each within
// 2^-24 relative, so it lies within the exponential's error plus 2^-23 of exp(d) in double. In
// units of 2^-23 relative (one ulp at most): 2.2 for -5 <= d <= 0, where the exponential is within
// 1.1 ulp, and 6 down to -87, where it is within 5 (measured: at most 1.10 and 2.67 on every
// table). A series coefficient 1/5 for 1/6 in the AVX-512 exponential fails it.
void test_softmax_exponential_accuracy(void **) {
    for (auto *t : kt::tables())
        for (int64_t k = 0; k <= 8700; ++k) {
            // Steps of 0.01 with an irregular offset, so that r takes values across its range.
            const float d = -float(k) * 0.01f - float(k % 7) * 0.0013f;
            if (d < -87.0f) continue;
            const float x[2] = {0.0f, d};
            float y[2] = {0, 0};
            t->softmax_rows(NG_FLOAT32, false, 1, 2, x, 0, y, 0, false);
            const double want = std::exp(double(d)), got = double(y[1]) / double(y[0]);
            const double error = std::fabs(got - want) / want / 0x1p-23;
            if (!(error <= (d >= -5.0f ? 2.2 : 6.0)))
                fail_msg("%s: softmax of {0, %.9g}: y1 / y0 = %.9g, exp = %.9g (%.2f x 2^-23)",
                         t->name, double(d), got, want, error);
        }
}

// Float softmax rows with values far below their max, among ordinary rows, stored and streamed
// (streamed rows are pipelined on AVX-512 and AVX2), softmax and log-softmax, against softmax in
// double.
// - Values 86 to 105 below the max (rows 0 and 4): softmax's shares are subnormal or 0. On
//   AVX-512, where every row takes the narrow exponential with 2^k applied by vscalefps, they lie
//   within 2^-148 of the double's (two roundings of a subnormal); elsewhere within the smallest
//   normal (the full exponential rounds them to 0 or towards it).
// - -20000 and -1e15 (row 1): share exactly 0. On AVX-512 the narrow exponential's reduction
//   breaks down there, but its result must still be 0.
// - -1e25, the lowest float and -inf (row 3): share exactly 0. On AVX-512 the unclamped
//   exponential overflows there: the row is taken again with its values raised to -104, and so is
//   every later row of the call (row 4).
// Log-softmax's values are x - max - log(sum), within 1e-6 of 1 + |value|.
void test_softmax_rows_far_below_max(void **) {
    const int64_t rows = 5, n = 40, stride = 48;  // every row starts on a 64-byte boundary
    const double lowest = -double(std::numeric_limits<float>::max());
    std::vector<double> v(size_t(rows * stride), 0.0);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < n; ++i) v[size_t(r * stride + i)] = 0.25 * double((i * 7 + r) % 11);
    for (int64_t i = 0; i < 20; ++i) {  // 2.5 is each row's max
        v[size_t(i)] = 2.5 - 86.0 - double(i);
        v[size_t(4 * stride + 2 * i)] = 2.5 - 86.25 - double(i);
    }
    const double far[] = {-20000.0, -1e15, -20000.5, -3e14};
    for (int64_t k = 0; k < 4; ++k) v[size_t(stride + 3 + 9 * k)] = far[k];
    const double overflowing[] = {-1e25, lowest, -INFINITY};
    for (int64_t k = 0; k < 3; ++k) v[size_t(3 * stride + 5 + 11 * k)] = overflowing[k];
    for (auto *t : kt::tables())
        for (bool log : {false, true})
            for (bool stream : {false, true}) {
                std::string what =
                    label(t, log ? "log softmax_rows" : "softmax_rows", NG_FLOAT32, n) +
                    (stream ? " streamed" : "") + " far below the max";
                const bool scalef = t == &vector_table_avx512;
                Buffer x(NG_FLOAT32, rows * stride), y(NG_FLOAT32, rows * stride);
                for (int64_t i = 0; i < rows * stride; ++i) x.set(i, v[size_t(i)]);
                t->softmax_rows(NG_FLOAT32, log, rows, n, x.data(), stride, y.data(), stride,
                                stream);
                for (int64_t r = 0; r < rows; ++r) {
                    double sum = 0;
                    for (int64_t i = 0; i < n; ++i) sum += std::exp(x.get(r * stride + i) - 2.5);
                    for (int64_t i = 0; i < n; ++i) {
                        const double d = x.get(r * stride + i) - 2.5, got = y.get(r * stride + i);
                        const double want = log ? d - std::log(sum) : std::exp(d) / sum;
                        const double bound = log      ? 1e-6 * (1 + std::fabs(want))
                                             : scalef ? 1e-6 * want + 0x1p-148
                                                      : 1e-6 * want + 0x1p-126;
                        // Shares of 0, and log-softmax's -inf, exactly.
                        const bool exact = (!log && d < -1000) || std::isinf(want);
                        if (exact ? got != (log ? want : 0.0) : !(std::fabs(got - want) <= bound))
                            fail_msg("%s: row %lld, x - max = %g: %.9g, want %.9g", what.c_str(),
                                     (long long)r, d, got, want);
                    }
                }
            }
}

// softmax_rows: rows of every odd length (several blocks of the pairwise sum and a partial one,
// vector tails), several rows a stride apart (each fetching the next), misaligned, in place,
// softmax and log-softmax, against softmax in double: float32 within 1e-6 relative (of the value,
// or for log-softmax of 1 + |value|), float64 within 1e-13. A row with a NaN is all NaN; a row of
// -inf is all NaN (as exp(-inf - -inf)); a single +inf makes the row NaN; a row with one value
// far above the others is exactly (0 ..., 1, ...).
// Float rows spread over less than 87 take the narrow exponential, wider ones the full one (on
// AVX-512 every float row takes the narrow one).
void test_softmax_rows(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (bool log : {false, true})
                for (int64_t n : kt::odd_lengths())
                    for (double spread : {120.0, 86.0})
                        for (bool in_place : {false, true}) {
                            const int64_t rows = 3, stride = n + 3;
                            size_t misalign = ng::dtype_size(dt);
                            Buffer x(dt, rows * stride, misalign), y(dt, rows * stride, misalign);
                            kt::fill_random(x, uint32_t(n) + 21, -spread / 2, spread / 2);
                            for (int64_t i = 0; i < rows * stride; ++i) y.set(i, 7);
                            std::string what =
                                label(t, log ? "log softmax_rows" : "softmax_rows", dt, n) +
                                (in_place ? " in place" : "") + " spread " + std::to_string(spread);
                            std::vector<double> want(size_t(rows * stride), 7.0), diff = want;
                            for (int64_t r = 0; r < rows; ++r) {
                                double max = -INFINITY, sum = 0;
                                for (int64_t i = 0; i < n; ++i)
                                    max = std::max(max, x.get(r * stride + i));
                                for (int64_t i = 0; i < n; ++i)
                                    sum += std::exp(x.get(r * stride + i) - max);
                                for (int64_t i = 0; i < n; ++i) {
                                    double d = x.get(r * stride + i) - max;
                                    diff[size_t(r * stride + i)] = d;
                                    want[size_t(r * stride + i)] =
                                        log ? d - std::log(sum) : std::exp(d) / sum;
                                }
                            }
                            Buffer &out = in_place ? x : y;
                            t->softmax_rows(dt, log, rows, n, x.data(), stride, out.data(), stride,
                                            false);
                            double tol = dt == NG_FLOAT32 ? 1e-6 : 1e-13;
                            double eps = dt == NG_FLOAT32 ? 0x1p-24 : 0x1p-53;
                            // Results below the smallest normal may come out as 0.
                            double tiny = dt == NG_FLOAT32 ? 0x1p-126 : 0x1p-1022;
                            for (int64_t r = 0; r < rows; ++r)
                                for (int64_t i = 0; i < stride; ++i) {
                                    int64_t at = r * stride + i;
                                    double g = out.get(at), w = want[size_t(at)];
                                    if (i >= n) {  // the gaps between rows are untouched
                                        if (!in_place && g != 7)
                                            fail_msg("%s: gap element %lld written", what.c_str(),
                                                     (long long)at);
                                        continue;
                                    }
                                    // x - max rounded to the dtype moves exp(x - max) by up to
                                    // |x - max| * eps relative.
                                    double d = std::fabs(diff[size_t(at)]);
                                    double bound = log ? tol * (1 + std::fabs(w))
                                                       : (tol + eps * d) * std::fabs(w) + tiny;
                                    if (!(std::fabs(g - w) <= bound))
                                        fail_msg("%s: row %lld element %lld = %.17g, want %.17g",
                                                 what.c_str(), (long long)r, (long long)i, g, w);
                                }
                            if (!out.guard_intact())
                                fail_msg("%s: wrote past the end", what.c_str());
                        }
    // Special rows, every table, both dtypes, softmax and log-softmax.
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (bool log : {false, true}) {
                const int64_t n = 37;
                std::string what = label(t, log ? "log softmax_rows" : "softmax_rows", dt, n);
                auto run = [&](std::vector<double> values) {
                    Buffer x(dt, n), y(dt, n);
                    for (int64_t i = 0; i < n; ++i) x.set(i, values[size_t(i)]);
                    t->softmax_rows(dt, log, 1, n, x.data(), 0, y.data(), 0, false);
                    std::vector<double> r(static_cast<size_t>(n));
                    for (int64_t i = 0; i < n; ++i) r[size_t(i)] = y.get(i);
                    return r;
                };
                for (int64_t at : {int64_t(0), int64_t(17), n - 1}) {
                    std::vector<double> v(size_t(n), 1.0);
                    v[size_t(at)] = NAN;
                    for (double g : run(v))
                        if (!std::isnan(g))
                            fail_msg("%s: a NaN at %lld leaves %g", what.c_str(), (long long)at, g);
                    v[size_t(at)] = INFINITY;
                    for (double g : run(v))
                        if (!std::isnan(g))
                            fail_msg("%s: +inf at %lld leaves %g", what.c_str(), (long long)at, g);
                    v.assign(size_t(n), -1000.0);
                    v[size_t(at)] = 1000;
                    auto r = run(v);
                    for (int64_t i = 0; i < n; ++i) {
                        double w = i == at ? (log ? 0.0 : 1.0) : (log ? -2000.0 : 0.0);
                        if (r[size_t(i)] != w)
                            fail_msg("%s: one spike at %lld: element %lld = %g, want %g",
                                     what.c_str(), (long long)at, (long long)i, r[size_t(i)], w);
                    }
                }
                for (double g : run(std::vector<double>(size_t(n), -INFINITY)))
                    if (!std::isnan(g)) fail_msg("%s: a row of -inf gives %g", what.c_str(), g);
                // -inf values beside finite ones: their share is 0 (log: -inf).
                std::vector<double> v(size_t(n), 0.0);
                v[3] = -INFINITY;
                auto r = run(v);
                if (r[3] != (log ? -INFINITY : 0.0))
                    fail_msg("%s: exp(-inf) share %g", what.c_str(), r[3]);
                kt::expect_near(r[0], log ? -std::log(36.0) : 1.0 / 36, 1e-6,
                                (what + " beside -inf").c_str());
                // Spreads at the edge of the narrow exponential (87) and past it: values from
                // 0 down to -spread, the smallest exponentials near the smallest normal float.
                for (double spread : {87.0, 87.5}) {
                    std::vector<double> ramp(static_cast<size_t>(n), 0.0);
                    for (int64_t i = 0; i < n; ++i) ramp[size_t(i)] = -spread * double(i) / (n - 1);
                    ramp[size_t(n - 1)] = -spread;
                    double sum = 0;
                    for (int64_t i = 0; i < n; ++i) sum += std::exp(double(float(ramp[size_t(i)])));
                    auto got = run(ramp);
                    for (int64_t i = 0; i < n; ++i) {
                        double d = double(float(ramp[size_t(i)]));
                        double w = log ? d - std::log(sum) : std::exp(d) / sum;
                        double bound = log ? 1e-6 * (1 + std::fabs(w))
                                           : (1e-6 + 0x1p-24 * std::fabs(d)) * w + 0x1p-126;
                        if (!(std::fabs(got[size_t(i)] - w) <= bound))
                            fail_msg("%s: spread %g, element %lld = %.17g, want %.17g",
                                     what.c_str(), spread, (long long)i, got[size_t(i)], w);
                    }
                }
            }
    float x[2] = {0, 0}, y[2];
    softmax_rows(NG_FLOAT32, false, 1, 2, x, 0, y, 0, false);
    assert_true(y[0] == 0.5f && y[1] == 0.5f);
    softmax_rows(NG_FLOAT32, false, 0, 2, x, 0, nullptr, 0, false);  // no rows: nothing written
    int32_t i[2] = {1, 2};
    kt::expect_error(NG_ERR_DTYPE, [&] { softmax_rows(NG_INT32, false, 1, 2, i, 0, i, 0, false); });
    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { softmax_rows(NG_FLOAT32, false, 1, -1, x, 0, y, 0, false); });
    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { softmax_rows(NG_FLOAT32, false, -1, 2, x, 0, y, 0, false); });
}

// gemv_transposed (y = alpha x^T a + beta y) on every table against a double loop: rows of a
// whole block of columns, single vectors and a tail, a padded leading dimension, x a stride apart,
// misaligned, beta = 0 ignoring a y of NaN and beta != 0 reading it, nothing written past y.
void test_gemv_transposed(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (int64_t rows : {1, 5, 17})
                for (int64_t n : {int64_t(0), int64_t(1), int64_t(7), int64_t(37), int64_t(1023)})
                    for (int64_t incx : {1, 3})
                        for (double beta : {0.0, -0.5}) {
                            const int64_t lda = n + 3;
                            const double alpha = 1.5;
                            const size_t misalign = ng::dtype_size(dt);
                            Buffer a(dt, rows * lda, misalign), x(dt, rows * incx, misalign),
                                y(dt, n, misalign);
                            kt::fill_random(a, 41, -2, 2);
                            kt::fill_random(x, 42, -2, 2);
                            kt::fill_random(y, 43, -2, 2);
                            if (beta == 0)
                                for (int64_t j = 0; j < n; ++j) y.set(j, NAN);
                            std::vector<double> old(static_cast<size_t>(n));
                            for (int64_t j = 0; j < n; ++j) old[size_t(j)] = y.get(j);
                            t->gemv_transposed(dt, rows, n, alpha, a.data(), lda, x.data(), incx,
                                               beta, y.data());
                            const std::string what = label(t, "gemv_transposed", dt, n) + " rows " +
                                                     std::to_string(rows) + " incx " +
                                                     std::to_string(incx) + " beta " +
                                                     std::to_string(beta);
                            const double eps = dt == NG_FLOAT32 ? 1.2e-7 : 2.3e-16;
                            for (int64_t j = 0; j < n; ++j) {
                                double sum = 0, magnitude = 0;
                                for (int64_t r = 0; r < rows; ++r) {
                                    double term = x.get(r * incx) * a.get(r * lda + j);
                                    sum += term, magnitude += std::fabs(term);
                                }
                                double previous = beta == 0 ? 0 : beta * old[size_t(j)];
                                double want = alpha * sum + previous;
                                double bound = double(rows + 2) * eps *
                                               (std::fabs(alpha) * magnitude + std::fabs(previous));
                                if (!(std::fabs(y.get(j) - want) <= bound))
                                    fail_msg("%s: y[%lld] = %.17g, want %.17g", what.c_str(),
                                             (long long)j, y.get(j), want);
                            }
                            if (!y.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
                        }
}

// Several rows in one call, as a thread's range: the rows' passes run side by side, so each row
// must keep its own max, spread (narrow or full exponential) and sum. Spreads alternate 10 and
// 200, one row holds a NaN and one +inf (those rows alone become NaN). Rows overlapping in place
// give what row-by-row calls give.
void test_softmax_rows_mixed(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (bool log : {false, true}) {
                const int64_t rows = 7, n = 300, stride = n + 5;
                std::string what = label(t, log ? "log softmax_rows" : "softmax_rows", dt, n);
                Buffer x(dt, rows * stride), y(dt, rows * stride);
                kt::fill_random(x, 77, -0.5, 0.5);
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t i = 0; i < n; ++i)
                        x.set(r * stride + i, x.get(r * stride + i) * (r % 2 ? 200 : 10));
                x.set(3 * stride + 150, NAN);
                x.set(5 * stride + n - 1, INFINITY);
                t->softmax_rows(dt, log, rows, n, x.data(), stride, y.data(), stride, false);
                const double eps = dt == NG_FLOAT32 ? 0x1p-24 : 0x1p-53;
                const double tol = dt == NG_FLOAT32 ? 1e-6 : 1e-13;
                const double tiny = dt == NG_FLOAT32 ? 0x1p-126 : 0x1p-1022;
                for (int64_t r = 0; r < rows; ++r) {
                    double max = -INFINITY, sum = 0;
                    for (int64_t i = 0; i < n; ++i) max = std::max(max, x.get(r * stride + i));
                    for (int64_t i = 0; i < n; ++i) sum += std::exp(x.get(r * stride + i) - max);
                    for (int64_t i = 0; i < n; ++i) {
                        double g = y.get(r * stride + i);
                        if (r == 3 || r == 5) {
                            if (!std::isnan(g))
                                fail_msg("%s: row %lld (NaN or inf) element %lld = %g",
                                         what.c_str(), (long long)r, (long long)i, g);
                            continue;
                        }
                        double d = x.get(r * stride + i) - max;
                        double w = log ? d - std::log(sum) : std::exp(d) / sum;
                        double bound = log ? tol * (1 + std::fabs(w))
                                           : (tol + eps * std::fabs(d)) * std::fabs(w) + tiny;
                        if (!(std::fabs(g - w) <= bound))
                            fail_msg("%s: row %lld element %lld = %.17g, want %.17g", what.c_str(),
                                     (long long)r, (long long)i, g, w);
                    }
                    // Bit for bit as the row alone (softmax does not change when every value
                    // moves by one amount, so a row shifted by another row's max would pass the
                    // check above).
                    Buffer alone(dt, n);
                    const char *row = static_cast<const char *>(x.data()) +
                                      r * stride * int64_t(ng::dtype_size(dt));
                    t->softmax_rows(dt, log, 1, n, row, 0, alone.data(), 0, false);
                    for (int64_t i = 0; i < n; ++i) {
                        double g = y.get(r * stride + i), w = alone.get(i);
                        if (!(g == w || (std::isnan(g) && std::isnan(w))))
                            fail_msg("%s: row %lld element %lld = %.17g, alone %.17g", what.c_str(),
                                     (long long)r, (long long)i, g, w);
                    }
                }
                // In place, rows half a row apart: row r + 1 reads what row r wrote.
                const int64_t half = n / 2, span = half * (rows - 1) + n;
                Buffer a(dt, span), b(dt, span);
                kt::fill_random(a, 78, -8, 8);
                for (int64_t i = 0; i < span; ++i) b.set(i, a.get(i));
                t->softmax_rows(dt, log, rows, n, a.data(), half, a.data(), half, false);
                const size_t size = ng::dtype_size(dt);
                for (int64_t r = 0; r < rows; ++r) {
                    char *row = static_cast<char *>(b.data()) + r * half * int64_t(size);
                    t->softmax_rows(dt, log, 1, n, row, 0, row, 0, false);
                }
                for (int64_t i = 0; i < span; ++i)
                    if (!(a.get(i) == b.get(i)))
                        fail_msg(
                            "%s: overlapping rows in place, element %lld = %.17g, row by "
                            "row %.17g",
                            what.c_str(), (long long)i, a.get(i), b.get(i));
            }
}

// Rows written past the cache (stream_out) against the same rows stored: bit for bit, for rows
// aligned to a vector and not (a stride of n + 5), rows short and long, up to and past the
// longest streamed row (16 KiB), in place and not, rows overlapping in place, nothing written
// outside the rows. Rows of up to 8 KiB a whole number of lines apart with a gap between them (a
// stride of n rounded up to 16 values, plus 16) take the pipelined path of the AVX-512 and AVX2
// tables whatever n's tail; one row and three.
void test_softmax_rows_streamed(void **) {
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64})
            for (bool log : {false, true})
                for (int64_t n : {1, 15, 16, 300, 1024, 2048, 4096, 5000})
                    for (int64_t stride : {n, n + 5, (n + 31) / 16 * 16})
                        for (int64_t rows : {1, 3})
                            for (bool in_place : {false, true}) {
                                std::string what =
                                    label(t, log ? "log softmax_rows" : "softmax_rows", dt, n) +
                                    " streamed, " + std::to_string(rows) + " rows, stride " +
                                    std::to_string(stride) + (in_place ? ", in place" : "");
                                Buffer x(dt, rows * stride), stored(dt, rows * stride),
                                    streamed(dt, rows * stride);
                                kt::fill_random(x, uint32_t(n + stride + rows), -20, 20);
                                for (int64_t i = 0; i < rows * stride; ++i) {
                                    stored.set(i, in_place ? x.get(i) : 7);
                                    streamed.set(i, in_place ? x.get(i) : 7);
                                }
                                const void *from_stored = in_place ? stored.data() : x.data();
                                const void *from_streamed = in_place ? streamed.data() : x.data();
                                t->softmax_rows(dt, log, rows, n, from_stored, stride,
                                                stored.data(), stride, false);
                                t->softmax_rows(dt, log, rows, n, from_streamed, stride,
                                                streamed.data(), stride, true);
                                kt::expect_same(streamed, stored, 0, what);
                            }
    // Overlapping in place (rows half a row apart): each row reads what the one before wrote.
    for (auto *t : kt::tables()) {
        const int64_t rows = 5, n = 1024, half = n / 2, span = half * (rows - 1) + n;
        Buffer a(NG_FLOAT32, span), b(NG_FLOAT32, span);
        kt::fill_random(a, 79, -8, 8);
        for (int64_t i = 0; i < span; ++i) b.set(i, a.get(i));
        t->softmax_rows(NG_FLOAT32, false, rows, n, a.data(), half, a.data(), half, false);
        t->softmax_rows(NG_FLOAT32, false, rows, n, b.data(), half, b.data(), half, true);
        kt::expect_same(b, a, 0, label(t, "softmax_rows streamed overlapping rows", NG_FLOAT32, n));
    }
}

void test_level1_errors(void **) {
    float x[2] = {1, 2}, out[2];
    int32_t i[2] = {1, 2};
    auto m = kt::expect_error(NG_ERR_DTYPE, [&] { unary(UnaryFn::Exp, NG_INT32, 2, i, i); });
    kt::expect_contains(m, "exp");
    kt::expect_contains(m, "int32");
    m = kt::expect_error(NG_ERR_DTYPE, [&] { binary(BinaryFn::Add, NG_BOOL, 2, x, 1, x, 1, out); });
    kt::expect_contains(m, "bool");
    kt::expect_error(NG_ERR_DTYPE, [&] { unary(UnaryFn::Negative, NG_BOOL, 2, x, out); });
    kt::expect_error(NG_ERR_DTYPE, [&] { reduce_all(ReduceFn::Sum, NG_BOOL, 2, x, out); });
    m = kt::expect_error(NG_ERR_DTYPE, [&] { unary(UnaryFn::Copy, 99, 2, x, out); });
    kt::expect_contains(m, "99");
    m = kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                         [&] { unary(UnaryFn::Copy, NG_FLOAT32, -1, x, out); });
    kt::expect_contains(m, "-1");
    kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] { cast(NG_FLOAT32, NG_INT32, -3, x, out); });
    kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] { fill(NG_FLOAT32, -3, 0, out); });
    kt::expect_error(NG_ERR_DTYPE, [&] { cast(NG_FLOAT32, 0, 2, x, out); });
    m = kt::expect_error(NG_ERR_INTERNAL,
                         [&] { unary(static_cast<UnaryFn>(77), NG_FLOAT32, 2, x, out); });
    kt::expect_contains(m, "77");
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { binary(BinaryFn::Add, NG_FLOAT32, 2, x, 2, x, 1, out); });
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { reduce_all(static_cast<ReduceFn>(-1), NG_FLOAT32, 2, x, out); });
}

void test_dispatch_choice(void **) {
    std::string name = vector_table().name;
    auto available = kt::tables();
    // The dispatcher takes the widest instruction set the CPU (and OS) offer.
    assert_string_equal(name.c_str(), available.back()->name);
    assert_ptr_equal(&vector_table(), available.back());
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch_choice),
        cmocka_unit_test(test_unary_float_vs_reference),
        cmocka_unit_test(test_unary_integer_vs_reference),
        cmocka_unit_test(test_unary_hand_values),
        cmocka_unit_test(test_binary_vs_reference),
        cmocka_unit_test(test_binary_hand_values),
        cmocka_unit_test(test_compare_vs_reference_and_hand),
        cmocka_unit_test(test_select_vs_reference_and_hand),
        cmocka_unit_test(test_cast_vs_reference_and_hand),
        cmocka_unit_test(test_reduce_all_vs_reference),
        cmocka_unit_test(test_reduce_all_any_alignment),
        cmocka_unit_test(test_reduce_all_hand_values),
        cmocka_unit_test(test_reduce_rows),
        cmocka_unit_test(test_accumulate_rows),
        cmocka_unit_test(test_accumulate_lanes),
        cmocka_unit_test(test_accumulate_and_fill),
        cmocka_unit_test(test_tanh_float_sweep),
        cmocka_unit_test(test_exp_shifted),
        cmocka_unit_test(test_softmax_exponential_accuracy),
        cmocka_unit_test(test_softmax_rows),
        cmocka_unit_test(test_softmax_rows_mixed),
        cmocka_unit_test(test_softmax_rows_streamed),
        cmocka_unit_test(test_softmax_rows_far_below_max),
        cmocka_unit_test(test_gemv_transposed),
        cmocka_unit_test(test_level1_errors),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
