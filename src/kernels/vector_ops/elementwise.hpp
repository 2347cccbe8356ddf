// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the elementwise
// kernels (VectorTable::unary, binary, compare, select), float through the vector math of
// math.hpp, integers as plain loops with wrapping arithmetic. unary_value and binary_value, the
// functions on one vector, are shared with the chains (chains.hpp).
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/vector_ops/loops.hpp"
#include "kernels/vector_ops/math.hpp"

namespace ng::kernels {
namespace {

// ---- float unary -----------------------------------------------------------------------------

template <class T>
inline void copy_elements(int64_t n, const T *x, T *out) {
    if (out != x) __builtin_memmove(out, x, static_cast<size_t>(n) * sizeof(T));
}

// One float unary function on a batch: float_unary's passes and run_chain's steps both apply
// these, so a chain rounds exactly as the passes do.
template <UnaryFn F, class Arch, class T>
inline xsimd::batch<T, Arch> unary_value(xsimd::batch<T, Arch> v) {
    using B = xsimd::batch<T, Arch>;
    if constexpr (F == UnaryFn::Negative) {
        return -v;
    } else if constexpr (F == UnaryFn::Absolute) {
        return xsimd::abs(v);
    } else if constexpr (F == UnaryFn::Sign) {
        // Keeps NaN and the sign of zero, like NumPy's sign.
        return xsimd::select(v > B(T(0)), B(T(1)), xsimd::select(v < B(T(0)), B(T(-1)), v));
    } else if constexpr (F == UnaryFn::Exp) {
        return exp_any<Arch>(v);
    } else if constexpr (F == UnaryFn::Log) {
        return xsimd::log(v);
    } else if constexpr (F == UnaryFn::Sqrt) {
        return xsimd::sqrt(v);
    } else if constexpr (F == UnaryFn::Square) {
        return v * v;
    } else if constexpr (F == UnaryFn::Reciprocal) {
        return B(T(1)) / v;
    } else if constexpr (F == UnaryFn::Sigmoid) {
        // exp(-|x|) never overflows: 1/(1+e) for x >= 0 and e/(1+e) for x < 0 are both exact
        // to a few ulp and saturate cleanly to 1 and 0.
        B e = exp_any<Arch>(-xsimd::abs(v));
        B r = B(T(1)) / (B(T(1)) + e);
        return xsimd::select(v >= B(T(0)), r, e * r);
    } else if constexpr (F == UnaryFn::Relu) {
        // NaN stays NaN (a select on `v < 0` rather than max(v, 0)).
        return xsimd::select(v < B(T(0)), B(T(0)), v);
    } else if constexpr (F == UnaryFn::Sin || F == UnaryFn::Cos) {
        return sin_or_cos<F == UnaryFn::Sin, Arch>(v);
    } else {
        static_assert(F == UnaryFn::Tanh, "no batch form");
        if constexpr (std::is_same_v<T, float>)
            return tanh_float<Arch>(v);
        else
            return tanh_double<Arch>(v);
    }
}

template <class Arch, class T>
void float_unary(UnaryFn f, int64_t n, const T *x, T *out) {
    using B = xsimd::batch<T, Arch>;
    switch (f) {
    case UnaryFn::Copy: return copy_elements(n, x, out);
#define NG_UNARY_PASS(Name) \
    case UnaryFn::Name:     \
        return map_unary<Arch>(n, x, out, [](B v) { return unary_value<UnaryFn::Name, Arch>(v); });
        NG_UNARY_PASS(Negative)
        NG_UNARY_PASS(Absolute)
        NG_UNARY_PASS(Sign)
        NG_UNARY_PASS(Exp)
        NG_UNARY_PASS(Log)
        NG_UNARY_PASS(Sqrt)
        NG_UNARY_PASS(Square)
        NG_UNARY_PASS(Reciprocal)
        NG_UNARY_PASS(Sigmoid)
        NG_UNARY_PASS(Relu)
        NG_UNARY_PASS(Sin)
        NG_UNARY_PASS(Cos)
        NG_UNARY_PASS(Tanh)
#undef NG_UNARY_PASS
    }
    bad_kernel_request("unary");
}

// ---- integer unary (wrapping two's-complement arithmetic, no undefined behaviour) ---------------

template <class T>
inline T wrap_negate(T v) {
    return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(v));
}

template <class T>
void integer_unary(UnaryFn f, int64_t n, const T *x, T *out) {
    switch (f) {
    case UnaryFn::Copy: return copy_elements(n, x, out);
    case UnaryFn::Negative: return scalar_unary(n, x, out, [](T v) { return wrap_negate(v); });
    case UnaryFn::Absolute:
        if constexpr (std::is_signed_v<T>)
            return scalar_unary(n, x, out, [](T v) { return v < 0 ? wrap_negate(v) : v; });
        else
            return copy_elements(n, x, out);
    case UnaryFn::Sign:
        return scalar_unary(n, x, out, [](T v) { return static_cast<T>((v > 0) - (v < T(0))); });
    case UnaryFn::Square:
        return scalar_unary(n, x, out, [](T v) {
            auto u = static_cast<Unsigned<T>>(v);
            return static_cast<T>(u * u);
        });
    case UnaryFn::Relu: return scalar_unary(n, x, out, [](T v) { return v < T(0) ? T(0) : v; });
    default: break;
    }
    bad_kernel_request("unary");
}

// ---- binary ----------------------------------------------------------------------------------

// One float binary function (not Power) on batches, shared by float_binary and run_chain.
template <BinaryFn F, class B>
inline B binary_value(B x, B y) {
    if constexpr (F == BinaryFn::Add) {
        return x + y;
    } else if constexpr (F == BinaryFn::Subtract) {
        return x - y;
    } else if constexpr (F == BinaryFn::Multiply) {
        return x * y;
    } else if constexpr (F == BinaryFn::Divide) {
        return x / y;
    } else if constexpr (F == BinaryFn::Maximum) {
        return maximum_nan(x, y);
    } else {
        static_assert(F == BinaryFn::Minimum, "no batch form");
        return minimum_nan(x, y);
    }
}

template <class Arch, class T>
void float_binary(BinaryFn f, int64_t n, const T *a, int as, const T *b, int bs, T *out) {
    using B = xsimd::batch<T, Arch>;
    switch (f) {
#define NG_BINARY_PASS(Name)                          \
    case BinaryFn::Name:                              \
        return map_binary<Arch>(n, a, as, b, bs, out, \
                                [](B x, B y) { return binary_value<BinaryFn::Name>(x, y); });
        NG_BINARY_PASS(Add)
        NG_BINARY_PASS(Subtract)
        NG_BINARY_PASS(Multiply)
        NG_BINARY_PASS(Divide)
        NG_BINARY_PASS(Maximum)
        NG_BINARY_PASS(Minimum)
#undef NG_BINARY_PASS
    case BinaryFn::Power:
        // xsimd's pow is exp(y*log|x|): tens of ulp off for large results and wrong at pow(0, 0).
        // libm's pow is correctly rounded in practice; float goes through double.
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) {
            return static_cast<T>(__builtin_pow(double(x), double(y)));
        });
    }
    bad_kernel_request("binary");
}

template <class T>
inline T integer_power(T base, T exponent) {
    if constexpr (std::is_signed_v<T>) {
        // Truncated 1 / base^|e|: only 1 and -1 survive.
        if (exponent < 0)
            return base == 1 ? T(1) : base == T(-1) ? ((exponent & 1) ? T(-1) : T(1)) : T(0);
    }
    Unsigned<T> result = 1, factor = static_cast<Unsigned<T>>(base);
    for (auto e = static_cast<Unsigned<T>>(exponent); e != 0; e >>= 1) {
        if (e & 1) result = static_cast<Unsigned<T>>(result * factor);
        factor = static_cast<Unsigned<T>>(factor * factor);
    }
    return static_cast<T>(result);
}

template <class T>
inline T integer_divide(T a, T b) {
    if (b == 0) return 0;  // defined as 0 rather than a trap
    if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return wrap_negate(a);  // INT_MIN / -1 wraps
    }
    return static_cast<T>(a / b);
}

template <class T>
void integer_binary(BinaryFn f, int64_t n, const T *a, int as, const T *b, int bs, T *out) {
    using U = Unsigned<T>;
    switch (f) {
    case BinaryFn::Add:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) + U(y)); });
    case BinaryFn::Subtract:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) - U(y)); });
    case BinaryFn::Multiply:
        return scalar_binary(n, a, as, b, bs, out,
                             [](T x, T y) { return static_cast<T>(U(x) * U(y)); });
    case BinaryFn::Divide:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return integer_divide(x, y); });
    case BinaryFn::Power:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return integer_power(x, y); });
    case BinaryFn::Maximum:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return x < y ? y : x; });
    case BinaryFn::Minimum:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return y < x ? y : x; });
    }
    bad_kernel_request("binary");
}

template <class T>
void compare_typed(CompareFn f, int64_t n, const T *a, int as, const T *b, int bs, uint8_t *out) {
    switch (f) {
    case CompareFn::Equal:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x == y); });
    case CompareFn::NotEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x != y); });
    case CompareFn::Less:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x < y); });
    case CompareFn::LessEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x <= y); });
    case CompareFn::Greater:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x > y); });
    case CompareFn::GreaterEqual:
        return scalar_binary(n, a, as, b, bs, out, [](T x, T y) { return uint8_t(x >= y); });
    }
    bad_kernel_request("compare");
}

template <class T>
void select_typed(int64_t n, const uint8_t *cond, const T *a, int as, const T *b, int bs, T *out) {
    // Both values are loaded before the choice: a branch on the condition mispredicts on data
    // like a ReLU mask (half the time); a blend does not, and vectorises.
    with_steps(as, bs, [&](auto a_array, auto b_array) {
        const T *pa = a, *pb = b;
        const uint8_t *pc = cond;
        T *po = out;
        const int64_t len = n;
        for (int64_t i = 0; i < len; ++i) {
            const T x = pa[a_array ? i : 0], y = pb[b_array ? i : 0];
            po[i] = pc[i] ? x : y;
        }
    });
}

}  // namespace
}  // namespace ng::kernels
