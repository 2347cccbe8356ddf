#include "support/reference_kernels.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/error.hpp"

namespace ng::kernels::reference {
namespace {

// ---- scalar rules ----------------------------------------------------------------------------

template <class T>
T wrap(uint64_t v) {
    return static_cast<T>(v);  // modulo 2^bits
}

template <class T>
T unary_value(UnaryFn f, T x) {
    if constexpr (std::is_floating_point_v<T>) {
        double v = x;
        switch (f) {
        case UnaryFn::Copy: return x;
        case UnaryFn::Negative: return -x;
        case UnaryFn::Absolute: return std::fabs(x);
        case UnaryFn::Sign: return v > 0 ? T(1) : v < 0 ? T(-1) : x;
        case UnaryFn::Exp: return T(std::exp(v));
        case UnaryFn::Log: return T(std::log(v));
        case UnaryFn::Sqrt: return T(std::sqrt(v));
        case UnaryFn::Square: return T(v * v);
        case UnaryFn::Reciprocal: return T(1.0 / v);
        case UnaryFn::Sigmoid: return T(1.0 / (1.0 + std::exp(-v)));
        case UnaryFn::Relu: return v < 0 ? T(0) : x;
        case UnaryFn::Sin: return T(std::sin(v));
        case UnaryFn::Cos: return T(std::cos(v));
        case UnaryFn::Tanh: return T(std::tanh(v));
        }
    } else {
        auto u = static_cast<uint64_t>(static_cast<int64_t>(x));
        switch (f) {
        case UnaryFn::Copy: return x;
        case UnaryFn::Negative: return wrap<T>(0 - u);
        case UnaryFn::Absolute: return x < T(0) ? wrap<T>(0 - u) : x;
        case UnaryFn::Sign: return T((x > T(0)) - (x < T(0)));
        case UnaryFn::Square: return wrap<T>(u * u);
        case UnaryFn::Relu: return x < T(0) ? T(0) : x;
        default: break;
        }
    }
    throw invalid_argument("reference unary: ", static_cast<int>(f), " not defined for this dtype");
}

template <class T>
T binary_value(BinaryFn f, T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        double x = a, y = b;
        switch (f) {
        case BinaryFn::Add: return T(x + y);
        case BinaryFn::Subtract: return T(x - y);
        case BinaryFn::Multiply: return T(x * y);
        case BinaryFn::Divide: return T(x / y);
        case BinaryFn::Power: return T(std::pow(x, y));
        case BinaryFn::Maximum: return std::isnan(a) ? a : std::isnan(b) ? b : (a > b ? a : b);
        case BinaryFn::Minimum: return std::isnan(a) ? a : std::isnan(b) ? b : (a < b ? a : b);
        }
    } else {
        auto x = static_cast<uint64_t>(static_cast<int64_t>(a)),
             y = static_cast<uint64_t>(static_cast<int64_t>(b));
        switch (f) {
        case BinaryFn::Add: return wrap<T>(x + y);
        case BinaryFn::Subtract: return wrap<T>(x - y);
        case BinaryFn::Multiply: return wrap<T>(x * y);
        case BinaryFn::Divide:
            if (b == T(0)) return T(0);
            if (std::is_signed_v<T> && static_cast<int64_t>(b) == -1) return wrap<T>(0 - x);
            return T(a / b);
        case BinaryFn::Power: {
            if (b < T(0))
                return a == T(1) ? T(1) : static_cast<int64_t>(a) == -1 ? (b % 2 ? a : T(1)) : T(0);
            uint64_t r = 1;
            for (T i = 0; i < b; ++i) r *= x;  // tests keep exponents small
            return wrap<T>(r);
        }
        case BinaryFn::Maximum: return a > b ? a : b;
        case BinaryFn::Minimum: return a < b ? a : b;
        }
    }
    throw invalid_argument("reference binary: unknown function");
}

template <class T>
bool compare_value(CompareFn f, T a, T b) {
    switch (f) {
    case CompareFn::Equal: return a == b;
    case CompareFn::NotEqual: return a != b;
    case CompareFn::Less: return a < b;
    case CompareFn::LessEqual: return a <= b;
    case CompareFn::Greater: return a > b;
    case CompareFn::GreaterEqual: return a >= b;
    }
    return false;
}

template <class T>
T convert_to(double v, bool from_float) {
    if constexpr (std::is_floating_point_v<T>) {
        return T(v);
    } else {
        if (!from_float) return T(v);
        if (std::isnan(v)) return T(0);
        double t = std::trunc(v);
        if (t <= double(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
        if (t >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return T(t);
    }
}

// A reduction accumulator: double for float sums and products, wrapping uint64 for integer ones.
template <class T>
struct Accumulator {
    ReduceFn f;
    double d;
    uint64_t u;
    T extreme{};  // set by the first add(); zero only keeps the compiler from guessing
    bool any = false;

    explicit Accumulator(ReduceFn fn)
        : f(fn), d(fn == ReduceFn::Prod ? 1 : 0), u(fn == ReduceFn::Prod ? 1 : 0) {}
    void add(T v) {
        if (f == ReduceFn::Sum) {
            d += double(v);
            if constexpr (std::is_integral_v<T>)
                u += static_cast<uint64_t>(static_cast<int64_t>(v));
        } else if (f == ReduceFn::Prod) {
            d *= double(v);
            if constexpr (std::is_integral_v<T>)
                u *= static_cast<uint64_t>(static_cast<int64_t>(v));
        } else if (!any)
            extreme = v;
        else
            extreme = binary_value(f == ReduceFn::Max ? BinaryFn::Maximum : BinaryFn::Minimum,
                                   extreme, v);
        any = true;
    }
    T result() const {
        if (f == ReduceFn::Max || f == ReduceFn::Min) {
            if (any) return extreme;
            using L = std::numeric_limits<T>;
            if constexpr (L::has_infinity)
                return f == ReduceFn::Max ? -L::infinity() : L::infinity();
            else
                return f == ReduceFn::Max ? L::lowest() : L::max();
        }
        if constexpr (std::is_floating_point_v<T>)
            return T(d);
        else
            return wrap<T>(u);
    }
};

template <class F>
void typed(DType dt, F &&f) {
    visit_dtype(dt, std::forward<F>(f));
}

// Calls f(index) for every index of `shape` in row-major order.
template <class F>
void for_each_index(const std::vector<int64_t> &shape, F &&f) {
    for (int64_t d : shape)
        if (d == 0) return;
    std::vector<int64_t> index(shape.size(), 0);
    for (;;) {
        f(index);
        size_t d = shape.size();
        while (d > 0) {
            if (++index[d - 1] < shape[d - 1]) break;
            index[d - 1] = 0;
            --d;
        }
        if (d == 0) return;
    }
}

int64_t offset_of(const std::vector<int64_t> &index, const std::vector<int64_t> &strides) {
    int64_t o = 0;
    for (size_t d = 0; d < index.size(); ++d) o += index[d] * strides[d];
    return o;
}

char *element(const Strided &s, const std::vector<int64_t> &index, DType dt) {
    return static_cast<char *>(s.data) + offset_of(index, s.strides) * int64_t(dtype_size(dt));
}

// Calls f(first, n) for every row of `shape`: `first` is the row's first point (innermost index
// 0) and n the innermost extent. A shape of no dimensions is one row of one point.
template <class F>
void for_each_row(const std::vector<int64_t> &shape, F &&f) {
    if (shape.empty()) return f(std::vector<int64_t>{}, int64_t{1});
    std::vector<int64_t> outer = shape;
    outer.back() = 1;
    const int64_t n = shape.back();
    if (n == 0) return;
    for_each_index(outer, [&](const std::vector<int64_t> &first) { f(first, n); });
}

// Elements between neighbours along the innermost dimension of `s` (0 for no dimensions).
int64_t innermost_stride(const Strided &s) {
    return s.strides.empty() ? 0 : s.strides.back();
}

// A program's registers over one row: register r holds the row's values of its dtype.
struct Registers {
    std::vector<std::vector<unsigned char>> rows;
    unsigned char *at(int32_t r) { return rows[size_t(r)].data(); }
};

DType register_dtype(const Program &p, int32_t r) {
    auto inputs = static_cast<int32_t>(p.inputs.size());
    if (r < inputs) return p.inputs[r];
    const Instruction &ins = p.code[r - inputs];
    return ins.type == Instruction::Type::Compare ? NG_BOOL
           : ins.type == Instruction::Type::Cast  ? ins.to
                                                  : ins.dtype;
}

// Evaluates a program at the n points of a row starting at `first`, one level-1 reference call
// per instruction (the same scalar rules as one point at a time, with the dispatch paid once).
void evaluate_row(const Program &p, const std::vector<Strided> &inputs,
                  const std::vector<int64_t> &first, int64_t n, Registers &regs) {
    auto count = static_cast<int32_t>(p.inputs.size());
    regs.rows.resize(p.inputs.size() + p.code.size());
    for (auto &row : regs.rows) row.resize(8 * size_t(n));
    for (int32_t i = 0; i < count; ++i) {
        const size_t size = dtype_size(p.inputs[i]);
        const char *from = element(inputs[i], first, p.inputs[i]);
        const int64_t step = innermost_stride(inputs[i]) * int64_t(size);
        for (int64_t j = 0; j < n; ++j)
            std::memcpy(regs.at(i) + size_t(j) * size, from + j * step, size);
    }
    for (size_t k = 0; k < p.code.size(); ++k) {
        const Instruction &ins = p.code[k];
        void *out = regs.at(count + int32_t(k));
        switch (ins.type) {
        case Instruction::Type::Unary:
            reference::unary(UnaryFn(ins.fn), ins.dtype, n, regs.at(ins.src[0]), out);
            break;
        case Instruction::Type::Binary:
            reference::binary(BinaryFn(ins.fn), ins.dtype, n, regs.at(ins.src[0]), 1,
                              regs.at(ins.src[1]), 1, out);
            break;
        case Instruction::Type::Compare:
            reference::compare(CompareFn(ins.fn), ins.dtype, n, regs.at(ins.src[0]), 1,
                               regs.at(ins.src[1]), 1, static_cast<uint8_t *>(out));
            break;
        case Instruction::Type::Select:
            reference::select(ins.dtype, n, regs.at(ins.src[0]), regs.at(ins.src[1]), 1,
                              regs.at(ins.src[2]), 1, out);
            break;
        case Instruction::Type::Cast:
            reference::cast(ins.dtype, ins.to, n, regs.at(ins.src[0]), out);
            break;
        }
    }
}

}  // namespace

// ---- level 1 ---------------------------------------------------------------------------------

void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t i = 0; i < n; ++i)
            static_cast<T *>(out)[i] = unary_value(f, static_cast<const T *>(x)[i]);
    });
}

void binary(BinaryFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
            void *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        auto pa = static_cast<const T *>(a);
        auto pb = static_cast<const T *>(b);
        for (int64_t i = 0; i < n; ++i)
            static_cast<T *>(out)[i] = binary_value(f, pa[i * a_step], pb[i * b_step]);
    });
}

void compare(CompareFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
             uint8_t *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        auto pa = static_cast<const T *>(a);
        auto pb = static_cast<const T *>(b);
        for (int64_t i = 0; i < n; ++i) out[i] = compare_value(f, pa[i * a_step], pb[i * b_step]);
    });
}

void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int a_step, const void *b,
            int b_step, void *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        auto pa = static_cast<const T *>(a);
        auto pb = static_cast<const T *>(b);
        for (int64_t i = 0; i < n; ++i)
            static_cast<T *>(out)[i] = cond[i] ? pa[i * a_step] : pb[i * b_step];
    });
}

void cast(DType from, DType to, int64_t n, const void *x, void *out) {
    typed(from, [&](auto from_tag) {
        using F = decltype(from_tag);
        typed(to, [&](auto to_tag) {
            using T = decltype(to_tag);
            for (int64_t i = 0; i < n; ++i) {
                F v = static_cast<const F *>(x)[i];
                T &o = static_cast<T *>(out)[i];
                if (to == NG_BOOL || from == NG_BOOL)
                    o = T(v != F(0));
                else if constexpr (std::is_floating_point_v<F> && std::is_floating_point_v<T>)
                    o = T(v);
                else if constexpr (std::is_integral_v<F> && std::is_integral_v<T>)
                    o = wrap<T>(uint64_t(int64_t(v)));
                else if constexpr (std::is_integral_v<F>)
                    o = T(v);
                else
                    o = convert_to<T>(double(v), true);
            }
        });
    });
}

void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        Accumulator<T> acc(f);
        for (int64_t i = 0; i < n; ++i) acc.add(static_cast<const T *>(x)[i]);
        *static_cast<T *>(result) = acc.result();
    });
}

void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t i = 0; i < n; ++i) {
            Accumulator<T> a(f);
            a.add(static_cast<T *>(acc)[i]);
            a.add(static_cast<const T *>(x)[i]);
            static_cast<T *>(acc)[i] = a.result();
        }
    });
}

void fill_identity(ReduceFn f, DType dt, int64_t n, void *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t i = 0; i < n; ++i) static_cast<T *>(out)[i] = Accumulator<T>(f).result();
    });
}

void fill(DType dt, int64_t n, double value, void *out) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        T v = dt == NG_BOOL ? T(value != 0) : convert_to<T>(value, true);
        for (int64_t i = 0; i < n; ++i) static_cast<T *>(out)[i] = v;
    });
}

// ---- drivers ---------------------------------------------------------------------------------

void run_elementwise(const Program &program, const std::vector<int64_t> &shape,
                     const std::vector<Strided> &inputs, const Strided &out) {
    Registers regs;
    const DType dt = register_dtype(program, program.result);
    const size_t size = dtype_size(dt);
    const int64_t step = innermost_stride(out) * int64_t(size);
    for_each_row(shape, [&](const std::vector<int64_t> &first, int64_t n) {
        evaluate_row(program, inputs, first, n, regs);
        char *to = element(out, first, dt);
        for (int64_t j = 0; j < n; ++j)
            std::memcpy(to + j * step, regs.at(program.result) + size_t(j) * size, size);
    });
}

void run_reduce(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                const std::vector<Strided> &inputs, const Strided &out) {
    const DType dt = register_dtype(program, program.result);
    // Dimensions where the output has a stride are kept; each kept point has an accumulator,
    // numbered row-major over the kept dimensions (`numbering` is 0 on the reduced ones).
    std::vector<int64_t> kept_shape = shape, numbering(shape.size(), 0);
    int64_t outputs = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        if (out.strides[d] == 0) {
            kept_shape[d] = 1;
        } else {
            numbering[d] = outputs;
            outputs *= shape[d];
        }
    }
    const int64_t row_step = numbering.empty() ? 0 : numbering.back();
    Registers regs;
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        // Rows in row-major order add each output's points in row-major order of the reduced
        // dimensions.
        std::vector<Accumulator<T>> acc(size_t(outputs), Accumulator<T>{f});
        for_each_row(shape, [&](const std::vector<int64_t> &first, int64_t n) {
            evaluate_row(program, inputs, first, n, regs);
            const int64_t at = offset_of(first, numbering);
            for (int64_t j = 0; j < n; ++j) {
                T v;
                std::memcpy(&v, regs.at(program.result) + size_t(j) * sizeof v, sizeof v);
                acc[size_t(at + j * row_step)].add(v);
            }
        });
        for_each_index(kept_shape, [&](const std::vector<int64_t> &kept) {
            T r = acc[size_t(offset_of(kept, numbering))].result();
            std::memcpy(element(out, kept, dt), &r, sizeof r);
        });
    });
}

void run_arg_reduce(bool is_max, DType dt, const std::vector<int64_t> &shape, int32_t dim,
                    const Strided &in, const Strided &out) {
    std::vector<int64_t> kept_shape = shape;
    kept_shape[dim] = 1;
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        for_each_index(kept_shape, [&](const std::vector<int64_t> &kept) {
            std::vector<int64_t> index = kept;
            int64_t best = -1;
            T best_value{};
            for (int64_t j = 0; j < shape[dim]; ++j) {
                index[dim] = j;
                T v;
                std::memcpy(&v, element(in, index, dt), sizeof v);
                bool v_nan = v != v, best_nan = best_value != best_value;
                bool take = best < 0 ||
                            (!best_nan && (v_nan || (is_max ? v > best_value : v < best_value)));
                if (take) {
                    best = j;
                    best_value = v;
                }
            }
            std::memcpy(element(out, kept, NG_INT64), &best, sizeof best);
        });
    });
}

void run_softmax(bool log, DType dt, const std::vector<int64_t> &shape,
                 const std::vector<bool> &reduced, const Strided &in, const Strided &out) {
    std::vector<int64_t> kept_shape = shape, reduced_shape = shape;
    for (size_t d = 0; d < shape.size(); ++d) (reduced[d] ? kept_shape : reduced_shape)[d] = 1;
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        for_each_index(kept_shape, [&](const std::vector<int64_t> &kept) {
            std::vector<std::vector<int64_t>> points;
            for_each_index(reduced_shape, [&](const std::vector<int64_t> &r) {
                std::vector<int64_t> index(shape.size());
                for (size_t d = 0; d < shape.size(); ++d) index[d] = kept[d] + r[d];
                points.push_back(index);
            });
            std::vector<double> x;
            for (auto &p : points)
                x.push_back(double(*reinterpret_cast<const T *>(element(in, p, dt))));
            double max = -INFINITY;
            bool nan = false;
            for (double v : x) {
                nan = nan || std::isnan(v);
                max = v > max ? v : max;
            }
            double sum = 0;
            for (double v : x) sum += std::exp(v - max);
            for (size_t i = 0; i < points.size(); ++i) {
                double y = log ? x[i] - max - std::log(sum) : std::exp(x[i] - max) / sum;
                *reinterpret_cast<T *>(element(out, points[i], dt)) = T(nan ? NAN : y);
            }
        });
    });
}

void gemm(DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
          int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
    typed(dt, [&](auto tag) {
        using T = decltype(tag);
        auto A = static_cast<const T *>(a);
        auto B = static_cast<const T *>(b);
        auto C = static_cast<T *>(c);
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
                double sum = 0;
                uint64_t isum = 0;
                for (int64_t p = 0; p < k; ++p) {
                    T x = ta ? A[p * lda + i] : A[i * lda + p];
                    T y = tb ? B[j * ldb + p] : B[p * ldb + j];
                    sum += double(x) * double(y);
                    if constexpr (std::is_integral_v<T>)
                        isum += uint64_t(int64_t(x)) * uint64_t(int64_t(y));
                }
                T &o = C[i * ldc + j];
                if constexpr (std::is_floating_point_v<T>) {
                    o = T(alpha * sum + (beta == 0 ? 0.0 : beta * double(o)));
                } else {
                    uint64_t prev = beta == 0 ? 0 : uint64_t(int64_t(o)) * uint64_t(int64_t(beta));
                    o = wrap<T>(uint64_t(int64_t(alpha)) * isum + prev);
                }
            }
    });
}

void copy_strided(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                  const Strided &dst) {
    for_each_index(shape, [&](const std::vector<int64_t> &index) {
        std::memcpy(element(dst, index, dt), element(src, index, dt), dtype_size(dt));
    });
}

}  // namespace ng::kernels::reference
