// Level-2 drivers against the scalar reference and hand-computed values: strided, transposed,
// padded, reversed and broadcast operands; reductions over every subset of dimensions; arg
// reductions with ties and NaN; softmax at +-5000; gemm with every transpose flag; with no pool,
// a 1-thread pool and a 4-thread pool (whose results must be bitwise identical: the split of
// the work does not depend on the number of threads). Also: a warmed-up run does not allocate.
#include <memory>

#include "kernels/prepared.hpp"
#include "kernels/scratch.hpp"
#include "kernels/streaming.hpp"
#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;
using ng::DType;

// ---- allocation counting (this program only) ---------------------------------------------------
// Not inlined: valgrind intercepts these replacements as operator new/delete, so a delete
// inlined down to free() would be reported as a mismatched free.
static std::atomic<long> g_allocations{0};
[[gnu::noinline]] void *operator new(size_t n) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void *p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void *p, size_t) noexcept {
    std::free(p);
}

namespace {

enum class Layout { Row, Column, Padded, Reversed };
const Layout kLayouts[] = {Layout::Row, Layout::Column, Layout::Padded, Layout::Reversed};

// An N-d array in its own storage with a chosen layout; `broadcast` dims get stride 0.
struct Nd {
    DType dt;
    std::vector<int64_t> shape, strides;
    int64_t origin = 0;  // element index of (0,...,0) in the buffer
    Buffer buffer;

    Nd(DType dtype, std::vector<int64_t> shp, Layout layout, std::vector<bool> broadcast = {})
        : dt(dtype),
          shape(std::move(shp)),
          strides(shape.size()),
          buffer(dtype, storage_size(shape, layout), ng::dtype_size(dtype)) {
        size_t r = shape.size();
        int64_t step = 1;
        auto place = [&](size_t d) {
            bool flat = !broadcast.empty() && broadcast[d];
            strides[d] = flat ? 0 : step;
            if (!flat) step *= shape[d] + (layout == Layout::Padded ? 1 : 0);
        };
        if (layout == Layout::Column)
            for (size_t d = 0; d < r; ++d) place(d);
        else
            for (size_t d = r; d-- > 0;) place(d);
        if (layout == Layout::Reversed && r > 0 && strides[r - 1] != 0) {
            origin = (shape[r - 1] - 1) * strides[r - 1];
            strides[r - 1] = -strides[r - 1];
        }
    }
    static int64_t storage_size(const std::vector<int64_t> &shape, Layout layout) {
        int64_t n = 1;
        for (int64_t d : shape) n *= d + (layout == Layout::Padded ? 1 : 0);
        return std::max<int64_t>(n, 1);
    }
    Strided view() {
        return Strided{static_cast<char *>(buffer.data()) + origin * int64_t(ng::dtype_size(dt)),
                       strides};
    }
    void randomize(uint32_t seed, double lo = -4, double hi = 4) {
        kt::fill_random(buffer, seed, lo, hi);
    }
    // A copy of the storage (so reference and kernel write to separate memory).
    Nd clone() const { return *this; }
};

void expect_buffers(const Nd &got, const Nd &want, double rel, const std::string &what) {
    for (int64_t i = 0; i < got.buffer.size(); ++i) {
        double g = got.buffer.get(i), w = want.buffer.get(i);
        if ((std::isnan(g) && std::isnan(w)) || g == w) continue;  // equal infinities too
        if (ng::dtype_is_float(got.dt) ? !(std::fabs(g - w) <= rel * std::max(1.0, std::fabs(w)))
                                       : g != w)
            fail_msg("%s: storage element %lld: got %.17g, want %.17g", what.c_str(), (long long)i,
                     g, w);
    }
    if (!got.buffer.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
}

void expect_identical(const Nd &a, const Nd &b, const std::string &what) {
    if (std::memcmp(a.buffer.data(), b.buffer.data(),
                    size_t(a.buffer.size()) * ng::dtype_size(a.dt)) != 0)
        fail_msg("%s: results differ between thread counts", what.c_str());
}

double tolerance(DType dt) {
    return dt == NG_FLOAT32 ? 2e-5 : 1e-12;
}

Instruction unary_ins(UnaryFn f, DType dt, int32_t a) {
    Instruction i{Instruction::Type::Unary, int32_t(f), dt, 0, {a, -1, -1}};
    return i;
}
Instruction binary_ins(BinaryFn f, DType dt, int32_t a, int32_t b) {
    return Instruction{Instruction::Type::Binary, int32_t(f), dt, 0, {a, b, -1}};
}

// (x - y)^2, the body of sum((x - y)^2) fused into its reduction.
Program squared_difference(DType dt) {
    Program p;
    p.inputs = {dt, dt};
    p.code = {binary_ins(BinaryFn::Subtract, dt, 0, 1), unary_ins(UnaryFn::Square, dt, 2)};
    p.result = 3;
    return p;
}

std::string shape_text(const std::vector<int64_t> &shape) {
    std::string s = "(";
    for (int64_t d : shape) s += std::to_string(d) + ",";
    return s + ")";
}

struct Pools {
    ng::ThreadPool one{1}, four{4};
};
Pools &pools() {
    static Pools p;
    return p;
}

// ---- elementwise -----------------------------------------------------------------------------

// (a - b)^2 * c + exp(a) over float dtypes, with every layout of a, broadcast b, scalar c.
void test_elementwise_float_chain(void **) {
    const std::vector<std::vector<int64_t>> shapes = {{0},          {1},      {7},   {3, 5, 7},
                                                      {2, 3, 4097}, {64, 33}, {1, 1}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64}) {
        Program p;
        p.inputs = {dt, dt, dt};
        p.code = {binary_ins(BinaryFn::Subtract, dt, 0, 1), unary_ins(UnaryFn::Square, dt, 3),
                  binary_ins(BinaryFn::Multiply, dt, 4, 2), unary_ins(UnaryFn::Exp, dt, 0),
                  binary_ins(BinaryFn::Add, dt, 5, 6)};
        p.result = 7;
        for (const auto &shape : shapes)
            for (Layout la : kLayouts)
                for (Layout lo : kLayouts) {
                    if (la != Layout::Row && lo != Layout::Row)
                        continue;  // each layout of a, then of out
                    std::vector<bool> b_broadcast(shape.size(), false), scalar(shape.size(), true);
                    b_broadcast[0] = true;
                    Nd a(dt, shape, la), b(dt, shape, Layout::Row, b_broadcast),
                        c(dt, shape, Layout::Row, scalar);
                    a.randomize(1), b.randomize(2), c.randomize(3);
                    Nd out(dt, shape, lo);
                    out.randomize(4);
                    Nd want = out.clone();
                    reference::run_elementwise(p, shape, {a.view(), b.view(), c.view()},
                                               want.view());
                    std::string what =
                        std::string("chain ") + ng::dtype_name(dt) + " " + shape_text(shape);
                    run_elementwise(p, shape, {a.view(), b.view(), c.view()}, out.view(), nullptr);
                    expect_buffers(out, want, tolerance(dt), what);
                }
    }
}

// where(a > b, a, c) on integers, a program whose result is a cast, and one that is a plain copy.
void test_elementwise_select_cast_copy(void **) {
    const std::vector<int64_t> shape = {9, 130, 20};
    for (DType dt : {NG_INT32, NG_INT64, NG_UINT8, NG_FLOAT32}) {
        Program p;
        p.inputs = {dt, dt, dt};
        p.code = {
            Instruction{Instruction::Type::Compare, int32_t(CompareFn::Greater), dt, 0, {0, 1, -1}},
            Instruction{Instruction::Type::Select, 0, dt, 0, {3, 0, 2}},
            Instruction{Instruction::Type::Cast, 0, dt, NG_FLOAT64, {4, -1, -1}}};
        p.result = 5;
        for (Layout la : kLayouts) {
            std::vector<bool> c_broadcast = {false, true, false};
            Nd a(dt, shape, la), b(dt, shape, Layout::Column),
                c(dt, shape, Layout::Row, c_broadcast);
            a.randomize(5), b.randomize(6), c.randomize(7);
            Nd out(NG_FLOAT64, shape, Layout::Padded), want = out.clone();
            reference::run_elementwise(p, shape, {a.view(), b.view(), c.view()}, want.view());
            run_elementwise(p, shape, {a.view(), b.view(), c.view()}, out.view(), &pools().four);
            expect_buffers(out, want, 0, std::string("select/cast ") + ng::dtype_name(dt));
        }
    }
    // Copy programs (result = an input): gathered, broadcast and in place.
    Program copy;
    copy.inputs = {NG_INT64};
    copy.result = 0;
    for (Layout la : kLayouts)
        for (Layout lo : kLayouts) {
            Nd a(NG_INT64, {33, 4100}, la), out(NG_INT64, {33, 4100}, lo);
            a.randomize(8);
            Nd want = out.clone();
            reference::run_elementwise(copy, a.shape, {a.view()}, want.view());
            run_elementwise(copy, a.shape, {a.view()}, out.view(), &pools().four);
            expect_buffers(out, want, 0, "copy program");
        }
}

void test_elementwise_hand_values_and_in_place(void **) {
    // out = a * 2 + b where b broadcasts along rows: [[1,2,3],[4,5,6]] * 2 + [10,20,30].
    float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, two = 2, out[6];
    Program p;
    p.inputs = {NG_FLOAT32, NG_FLOAT32, NG_FLOAT32};
    p.code = {binary_ins(BinaryFn::Multiply, NG_FLOAT32, 0, 2),
              binary_ins(BinaryFn::Add, NG_FLOAT32, 3, 1)};
    p.result = 4;
    run_elementwise(p, {2, 3}, {Strided{a, {3, 1}}, Strided{b, {0, 1}}, Strided{&two, {0, 0}}},
                    Strided{out, {3, 1}}, nullptr);
    const float expected[6] = {12, 24, 36, 18, 30, 42};
    for (int i = 0; i < 6; ++i) assert_true(out[i] == expected[i]);
    // Transposed output: out[j][i] = a[i][j] + 0.
    float zero = 0, t[6];
    Program add;
    add.inputs = {NG_FLOAT32, NG_FLOAT32};
    add.code = {binary_ins(BinaryFn::Add, NG_FLOAT32, 0, 1)};
    add.result = 2;
    run_elementwise(add, {2, 3}, {Strided{a, {3, 1}}, Strided{&zero, {0, 0}}}, Strided{t, {1, 2}},
                    nullptr);
    const float transposed[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; ++i) assert_true(t[i] == transposed[i]);
    // In place over a large array with the pool: x = x * x.
    std::vector<double> x(100003), want(100003);
    for (size_t i = 0; i < x.size(); ++i) x[i] = double(i % 1000) / 7, want[i] = x[i] * x[i];
    Program sq;
    sq.inputs = {NG_FLOAT64};
    sq.code = {unary_ins(UnaryFn::Square, NG_FLOAT64, 0)};
    sq.result = 1;
    run_elementwise(sq, {int64_t(x.size())}, {Strided{x.data(), {1}}}, Strided{x.data(), {1}},
                    &pools().four);
    for (size_t i = 0; i < x.size(); ++i) assert_true(x[i] == want[i]);
    // A scalar (rank 0) run.
    double s = 3, r = 0;
    run_elementwise(sq, {}, {Strided{&s, {}}}, Strided{&r, {}}, nullptr);
    assert_true(r == 9);
}

void test_copy_strided(void **) {
    for (DType dt : {NG_FLOAT32, NG_INT64, NG_UINT8})
        for (Layout ls : kLayouts)
            for (Layout ld : kLayouts) {
                ng::ThreadPool *pool = ls == ld ? &pools().four : nullptr;
                std::vector<int64_t> shape = {5, 301, 50};
                Nd src(dt, shape, ls), dst(dt, shape, ld);
                src.randomize(9);
                Nd want = dst.clone();
                reference::copy_strided(dt, shape, src.view(), want.view());
                copy_strided(dt, shape, src.view(), dst.view(), pool);
                expect_buffers(dst, want, 0, "copy_strided");
            }
    int32_t m[6] = {1, 2, 3, 4, 5, 6}, t[6];
    copy_strided(NG_INT32, {3, 2}, Strided{m, {1, 3}}, Strided{t, {2, 1}},
                 nullptr);  // transpose of 2x3
    const int32_t expected[6] = {1, 4, 2, 5, 3, 6};
    for (int i = 0; i < 6; ++i) assert_true(t[i] == expected[i]);
}

// ---- reductions ------------------------------------------------------------------------------

// Strides of the reduction output for `shape`: dense over the kept dims, 0 on reduced ones.
Nd reduction_output(DType dt, const std::vector<int64_t> &shape, unsigned reduced_mask,
                    Layout layout) {
    std::vector<bool> reduced(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) reduced[d] = reduced_mask >> d & 1;
    return Nd(dt, shape, layout, reduced);
}

void test_reduce_every_subset(void **) {
    const std::vector<int64_t> shape = {5, 6, 7};
    const ReduceFn fns[] = {ReduceFn::Sum, ReduceFn::Max, ReduceFn::Min, ReduceFn::Prod};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64})
        for (ReduceFn f : fns)
            for (unsigned mask = 0; mask < 8; ++mask)
                for (Layout lx : {Layout::Row, Layout::Column, Layout::Reversed}) {
                    Program p = squared_difference(dt);
                    Nd x(dt, shape, lx), y(dt, shape, Layout::Row, {true, false, false});
                    if (f == ReduceFn::Prod) {  // keep products representable
                        x.randomize(10, 0.3, 1.5);
                        y.randomize(11, 0, 0.2);
                        if (!ng::dtype_is_float(dt))
                            for (int64_t i = 0; i < x.buffer.size(); ++i)
                                x.buffer.set(i, double(i % 3 == 0 ? 2 : 1));
                        if (!ng::dtype_is_float(dt))
                            for (int64_t i = 0; i < y.buffer.size(); ++i)
                                y.buffer.set(i, double(i % 2));
                    } else {
                        x.randomize(10), y.randomize(11);
                    }
                    Nd out =
                        reduction_output(dt, shape, mask, mask == 2 ? Layout::Column : Layout::Row);
                    Nd want = out.clone();
                    std::string what = std::string("reduce ") + fn_name(f) + " " +
                                       ng::dtype_name(dt) + " mask " + std::to_string(mask);
                    reference::run_reduce(f, p, shape, {x.view(), y.view()}, want.view());
                    run_reduce(f, p, shape, {x.view(), y.view()}, out.view(), nullptr);
                    expect_buffers(out, want, tolerance(dt), what);
                }
}

// Large runs: tiles longer than one, chunked full reductions, column accumulations; identical
// results for no pool, 1 thread and 4 threads.
void test_reduce_large_and_parallel(void **) {
    struct Case {
        std::vector<int64_t> shape;
        unsigned mask;
    };
    // (1 << 18) elements reduced to one value: four chunks of partial results. Outer-axis sums
    // add rows in groups of four: 7, 30001 and 4099 reduced rows leave groups of 3, 1 and 3, and
    // 2051 columns a partial column tile.
    const Case cases[] = {{{3, 30001}, 2}, {{30001, 3}, 1},   {{200, 301}, 1},   {{200, 301}, 2},
                          {{1 << 18}, 1},  {{40, 50, 60}, 5}, {{40, 50, 60}, 7}, {{7, 2051}, 1},
                          {{4099, 5}, 1},  {{6, 7, 2051}, 3}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT64})
        for (const Case &c : cases) {
            Program p = squared_difference(dt);
            Nd x(dt, c.shape, Layout::Row), y(dt, c.shape, Layout::Column);
            x.randomize(12), y.randomize(13);
            Nd want = reduction_output(dt, c.shape, c.mask, Layout::Row);
            reference::run_reduce(ReduceFn::Sum, p, c.shape, {x.view(), y.view()}, want.view());
            Nd none = want.clone(), one = want.clone(), four = want.clone();
            run_reduce(ReduceFn::Sum, p, c.shape, {x.view(), y.view()}, none.view(), nullptr);
            run_reduce(ReduceFn::Sum, p, c.shape, {x.view(), y.view()}, one.view(), &pools().one);
            run_reduce(ReduceFn::Sum, p, c.shape, {x.view(), y.view()}, four.view(), &pools().four);
            std::string what =
                std::string("large sum ") + ng::dtype_name(dt) + " " + shape_text(c.shape);
            expect_buffers(none, want, tolerance(dt), what);
            expect_identical(none, one, what);
            expect_identical(none, four, what);
        }
}

// Reductions of rows read in place, one row per output (more than 16 outputs: the row-by-row
// path), against the reference and bit for bit against the same reduction through a program
// that copies each tile first (the general path): one tile, two, a partial third, kept points
// over two dimensions; with a pool of one thread and of four.
void test_reduce_rows_in_place(void **) {
    const std::vector<std::vector<int64_t>> shapes = {
        {40, 5000}, {20, 2048}, {17, 4096}, {4, 5, 4100}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT64})
        for (ReduceFn f : {ReduceFn::Sum, ReduceFn::Max})
            for (const std::vector<int64_t> &shape : shapes) {
                const Program in_place{{dt}, {}, 0};
                const Program copied{
                    {dt},
                    {Instruction{Instruction::Type::Unary, int32_t(UnaryFn::Copy), dt, 0, {0}}},
                    1};
                const unsigned last = 1u << (shape.size() - 1);
                Nd x(dt, shape, Layout::Row);
                x.randomize(21);
                if (dt != NG_INT64) x.buffer.set(7 * shape.back() + 3, NAN);  // one row's max
                Nd want = reduction_output(dt, shape, last, Layout::Row);
                reference::run_reduce(f, in_place, shape, {x.view()}, want.view());
                Nd general = want.clone(), one = want.clone(), four = want.clone();
                run_reduce(f, copied, shape, {x.view()}, general.view(), nullptr);
                run_reduce(f, in_place, shape, {x.view()}, one.view(), &pools().one);
                run_reduce(f, in_place, shape, {x.view()}, four.view(), &pools().four);
                std::string what = std::string("rows in place ") + fn_name(f) + " " +
                                   ng::dtype_name(dt) + " " + shape_text(shape);
                expect_buffers(one, want, tolerance(dt), what);
                expect_identical(one, general, what);
                expect_identical(one, four, what);
            }
}

// Reductions over the outer dimensions of an input read in place (the kept innermost dimension a
// whole row, the rows one after another: each lane of rows read as one stream by
// accumulate_lanes), against the reference and bit for bit between a pool of one thread and of
// four. Shapes: four narrow lanes; five wide lanes cut into chunks; few rows, the last lane
// shorter than the others; rows of 40 values (a whole number of AVX2 vectors, not of AVX-512's);
// rows wider than a column block (the row-by-row path); a kept outer dimension; two reduced
// dimensions that merge into one.
void test_reduce_columns_in_place(void **) {
    struct Case {
        std::vector<int64_t> shape;
        unsigned mask;  // reduced dimensions
    };
    const std::vector<Case> cases = {{{300, 64}, 1},    {{600, 2048}, 1}, {{37, 4096}, 1},
                                     {{7, 48}, 1},      {{1003, 40}, 1},  {{90, 4100}, 1},
                                     {{3, 200, 64}, 2}, {{2, 50, 64}, 3}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT64})
        for (ReduceFn f : {ReduceFn::Sum, ReduceFn::Max})
            for (const Case &c : cases) {
                const Program p{{dt}, {}, 0};
                Nd x(dt, c.shape, Layout::Row);
                x.randomize(23);
                if (dt != NG_INT64) x.buffer.set(5 * c.shape.back() + 3, NAN);  // one column's
                Nd want = reduction_output(dt, c.shape, c.mask, Layout::Row);
                reference::run_reduce(f, p, c.shape, {x.view()}, want.view());
                Nd one = want.clone(), four = want.clone();
                run_reduce(f, p, c.shape, {x.view()}, one.view(), &pools().one);
                run_reduce(f, p, c.shape, {x.view()}, four.view(), &pools().four);
                std::string what = std::string("columns in place ") + fn_name(f) + " " +
                                   ng::dtype_name(dt) + " " + shape_text(c.shape);
                expect_buffers(one, want, tolerance(dt), what);
                expect_identical(one, four, what);
            }
}

void test_reduce_hand_values_and_empty(void **) {
    // sum((x - y)^2) over [[1,2],[3,4]] - [1,1] = 0 + 1 + 4 + 9 = 14; per row: [1, 13]; per column:
    // [4, 10].
    double x[4] = {1, 2, 3, 4}, one = 1, total = -1, rows[2], cols[2];
    Program p = squared_difference(NG_FLOAT64);
    run_reduce(ReduceFn::Sum, p, {2, 2}, {Strided{x, {2, 1}}, Strided{&one, {0, 0}}},
               Strided{&total, {0, 0}}, nullptr);
    assert_true(total == 14);
    run_reduce(ReduceFn::Sum, p, {2, 2}, {Strided{x, {2, 1}}, Strided{&one, {0, 0}}},
               Strided{rows, {1, 0}}, nullptr);
    assert_true(rows[0] == 1 && rows[1] == 13);
    run_reduce(ReduceFn::Sum, p, {2, 2}, {Strided{x, {2, 1}}, Strided{&one, {0, 0}}},
               Strided{cols, {0, 1}}, nullptr);
    assert_true(cols[0] == 4 && cols[1] == 10);
    run_reduce(ReduceFn::Max, p, {2, 2}, {Strided{x, {2, 1}}, Strided{&one, {0, 0}}},
               Strided{cols, {0, 1}}, nullptr);
    assert_true(cols[0] == 4 && cols[1] == 9);
    // Reducing an empty dimension gives the identity; an empty kept dimension writes nothing.
    float ident[3] = {7, 7, 7}, fx = 0;
    Program id;
    id.inputs = {NG_FLOAT32};
    id.result = 0;
    run_reduce(ReduceFn::Max, id, {3, 0}, {Strided{&fx, {0, 1}}}, Strided{ident, {1, 0}}, nullptr);
    assert_true(ident[0] == -INFINITY && ident[2] == -INFINITY);
    run_reduce(ReduceFn::Sum, id, {0, 3}, {Strided{&fx, {3, 1}}}, Strided{ident, {0, 1}}, nullptr);
    assert_true(ident[0] == 0 && ident[1] == 0 && ident[2] == 0);
    float untouched[1] = {5};
    run_reduce(ReduceFn::Sum, id, {0, 3}, {Strided{&fx, {3, 1}}}, Strided{untouched, {1, 0}},
               nullptr);
    assert_true(untouched[0] == 5);
    // NaN propagates through a max reduction of any layout.
    float v[6] = {1, NAN, 3, 4, 5, 6}, m[3];
    run_reduce(ReduceFn::Max, id, {2, 3}, {Strided{v, {3, 1}}}, Strided{m, {0, 1}}, nullptr);
    assert_true(m[0] == 4 && std::isnan(m[1]) && m[2] == 6);
}

// ---- arg reductions --------------------------------------------------------------------------

void test_arg_reduce(void **) {
    const std::vector<int64_t> shape = {4, 5, 6};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64, NG_UINT8})
        for (bool is_max : {true, false})
            for (int32_t dim = 0; dim < 3; ++dim)
                for (Layout layout : kLayouts) {
                    Nd in(dt, shape, layout);
                    in.randomize(14, -2, 2);
                    for (int64_t i = 0; i < in.buffer.size(); ++i)
                        in.buffer.set(i, double(int64_t(in.buffer.get(i)) % 3));  // many ties
                    if (ng::dtype_is_float(dt)) in.buffer.set(7, NAN), in.buffer.set(50, NAN);
                    std::vector<bool> flat(3, false);
                    flat[dim] = true;
                    Nd out(NG_INT64, shape, Layout::Row, flat), want = out.clone();
                    reference::run_arg_reduce(is_max, dt, shape, dim, in.view(), want.view());
                    run_arg_reduce(is_max, dt, shape, dim, in.view(), out.view(), &pools().four);
                    expect_buffers(out, want, 0,
                                   std::string(is_max ? "argmax " : "argmin ") +
                                       ng::dtype_name(dt) + " dim " + std::to_string(dim));
                }
    // Large, for the column path and the pool.
    Nd big(NG_FLOAT32, {300, 1000}, Layout::Row),
        out(NG_INT64, {300, 1000}, Layout::Row, {true, false});
    big.randomize(15);
    Nd want = out.clone();
    reference::run_arg_reduce(true, NG_FLOAT32, big.shape, 0, big.view(), want.view());
    run_arg_reduce(true, NG_FLOAT32, big.shape, 0, big.view(), out.view(), &pools().four);
    expect_buffers(out, want, 0, "large argmax");

    auto arg = [](bool is_max, std::vector<float> v) {
        int64_t r = -1;
        run_arg_reduce(is_max, NG_FLOAT32, {int64_t(v.size())}, 0, Strided{v.data(), {1}},
                       Strided{&r, {0}}, nullptr);
        return r;
    };
    assert_int_equal(arg(true, {1, 3, 3, 2}), 1);  // first of a tie
    assert_int_equal(arg(false, {2, 1, 1, 5}), 1);
    assert_int_equal(arg(true, {NAN, 5, NAN}), 0);  // first NaN wins
    assert_int_equal(arg(true, {1, NAN, 7, NAN}), 1);
    assert_int_equal(arg(false, {1, NAN, -7}), 1);
    assert_int_equal(arg(true, {-INFINITY}), 0);
    float e = 0;
    int64_t r = 0;
    auto m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        run_arg_reduce(true, NG_FLOAT32, {2, 0}, 1, Strided{&e, {0, 1}}, Strided{&r, {1, 0}},
                       nullptr);
    });
    kt::expect_contains(m, "empty");
    kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        run_arg_reduce(true, NG_FLOAT32, {2}, 1, Strided{&e, {1}}, Strided{&r, {0}}, nullptr);
    });
}

// ---- softmax ---------------------------------------------------------------------------------

void test_softmax_every_subset(void **) {
    const std::vector<int64_t> shape = {3, 4, 5};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64})
        for (bool log : {false, true})
            for (unsigned mask = 1; mask < 8; ++mask)
                for (Layout li : kLayouts)
                    for (Layout lo : {Layout::Row, Layout::Column}) {
                        std::vector<bool> reduced(3);
                        for (int d = 0; d < 3; ++d) reduced[d] = mask >> d & 1;
                        Nd in(dt, shape, li), out(dt, shape, lo);
                        in.randomize(16, -5000, 5000);
                        Nd want = out.clone();
                        reference::run_softmax(log, dt, shape, reduced, in.view(), want.view());
                        run_softmax(log, dt, shape, reduced, in.view(), out.view(), nullptr);
                        for (int64_t i = 0; i < out.buffer.size(); ++i)
                            if (!std::isfinite(out.buffer.get(i)))
                                fail_msg("softmax produced %g", out.buffer.get(i));
                        // Log-softmax values reach -10000: compare relative to their size.
                        expect_buffers(out, want, dt == NG_FLOAT32 ? 1e-6 : 1e-13,
                                       std::string(log ? "log_softmax " : "softmax ") +
                                           ng::dtype_name(dt) + " mask " + std::to_string(mask));
                    }
    // Rows longer than a tile, and many rows of an odd length (each fetches the next one while
    // it computes; the threads' chunks end on rows with none), into a separate output and in
    // place, float32 and float64, softmax and log-softmax, with no pool and 4 threads (bitwise
    // identical); the same over the outer dimension (the column path).
    for (DType dt : {NG_FLOAT32, NG_FLOAT64})
        for (bool log : {false, true})
            for (bool over_rows : {true, false}) {
                std::vector<std::vector<int64_t>> shapes = {{3, kTile * 2 + 5}, {701, 1001}};
                for (const auto &shape2 : shapes) {
                    std::vector<bool> reduced = {!over_rows, over_rows};
                    Nd x(dt, shape2, Layout::Row), out(dt, shape2, Layout::Row);
                    x.randomize(18, -50, 50);
                    Nd want = out.clone(), in_place = x.clone(), four = out.clone();
                    reference::run_softmax(log, dt, shape2, reduced, x.view(), want.view());
                    std::string what = std::string(log ? "log_softmax " : "softmax ") +
                                       (over_rows ? "rows " : "columns ") + ng::dtype_name(dt) +
                                       " " + shape_text(shape2);
                    run_softmax(log, dt, shape2, reduced, x.view(), out.view(), nullptr);
                    expect_buffers(out, want, dt == NG_FLOAT32 ? 1e-6 : 1e-13, what);
                    run_softmax(log, dt, shape2, reduced, x.view(), four.view(), &pools().four);
                    expect_identical(out, four, what + " 4 threads");
                    run_softmax(log, dt, shape2, reduced, in_place.view(), in_place.view(),
                                &pools().one);
                    expect_buffers(in_place, want, dt == NG_FLOAT32 ? 1e-6 : 1e-13,
                                   what + " in place");
                }
            }
    // Large: rows (softmax over the innermost dim) and columns (over dim 0 of (C, N)), in place.
    for (unsigned mask : {1u, 2u})
        for (bool log : {false, true}) {
            std::vector<int64_t> shape2 = {300, 700};
            std::vector<bool> reduced = {bool(mask & 1), bool(mask & 2)};
            Nd x(NG_FLOAT32, shape2, Layout::Row);
            x.randomize(17, -50, 50);
            Nd want = x.clone(), in_place = x.clone();
            reference::run_softmax(log, NG_FLOAT32, shape2, reduced, x.view(), want.view());
            run_softmax(log, NG_FLOAT32, shape2, reduced, in_place.view(), in_place.view(),
                        &pools().four);
            expect_buffers(in_place, want, 1e-6, "large softmax in place");
        }
}

void test_softmax_hand_values(void **) {
    double x[2] = {0, std::log(3.0)}, y[2];
    run_softmax(false, NG_FLOAT64, {2}, {true}, Strided{x, {1}}, Strided{y, {1}}, nullptr);
    kt::expect_near(y[0], 0.25, 1e-15, "softmax[0]");
    kt::expect_near(y[1], 0.75, 1e-15, "softmax[1]");
    float big[2] = {5000, 5000}, out[2];
    run_softmax(false, NG_FLOAT32, {2}, {true}, Strided{big, {1}}, Strided{out, {1}}, nullptr);
    assert_true(out[0] == 0.5f && out[1] == 0.5f);
    float spread[2] = {-5000, 5000};
    run_softmax(false, NG_FLOAT32, {2}, {true}, Strided{spread, {1}}, Strided{out, {1}}, nullptr);
    assert_true(out[0] == 0.f && out[1] == 1.f);
    run_softmax(true, NG_FLOAT32, {2}, {true}, Strided{spread, {1}}, Strided{out, {1}}, nullptr);
    assert_true(out[0] == -10000.f && out[1] == 0.f);
    double zeros[2] = {0, 0};
    run_softmax(true, NG_FLOAT64, {2}, {true}, Strided{zeros, {1}}, Strided{y, {1}}, nullptr);
    kt::expect_near(y[0], -std::log(2.0), 1e-15, "log_softmax");
    // Over dim 0 of a (2, 3) column layout: each column sums to one.
    float c[6] = {1, 2, 3, 1, 2, 3}, s[6];
    run_softmax(false, NG_FLOAT32, {2, 3}, {true, false}, Strided{c, {3, 1}}, Strided{s, {3, 1}},
                nullptr);
    for (int i = 0; i < 6; ++i) assert_true(s[i] == 0.5f);
    kt::expect_error(NG_ERR_DTYPE, [&] {
        int32_t i[2] = {1, 2};
        run_softmax(false, NG_INT32, {2}, {true}, Strided{i, {1}}, Strided{i, {1}}, nullptr);
    });
}

// ---- gemm ------------------------------------------------------------------------------------

void test_gemm(void **) {
    struct Size {
        int64_t m, n, k;
    };
    // One row or one column (m or n = 1) take the matrix-vector path; k = 0 does not.
    const Size sizes[] = {{1, 1, 1},   {7, 5, 3},   {33, 17, 65}, {4, 6, 0},
                          {1, 37, 19}, {23, 1, 41}, {1, 5, 0},    {3, 1, 0}};
    const double coefficients[][2] = {{1, 0}, {2, 1}, {-1, 3}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_INT64})
        for (const Size &s : sizes)
            for (bool ta : {false, true})
                for (bool tb : {false, true})
                    for (auto ab : coefficients) {
                        int64_t lda = (ta ? s.m : s.k) + 2, ldb = (tb ? s.k : s.n) + 1,
                                ldc = s.n + 3;
                        Buffer a(dt, (ta ? s.k : s.m) * lda + 1), b(dt, (tb ? s.n : s.k) * ldb + 1);
                        Buffer c(dt, s.m * ldc + 1), want(dt, s.m * ldc + 1);
                        kt::fill_random(a, 18, -2, 2), kt::fill_random(b, 19, -2, 2),
                            kt::fill_random(c, 20, -2, 2);
                        std::memcpy(want.data(), c.data(), size_t(c.size()) * ng::dtype_size(dt));
                        gemm(dt, ta, tb, s.m, s.n, s.k, ab[0], a.data(), lda, b.data(), ldb, ab[1],
                             c.data(), ldc);
                        reference::gemm(dt, ta, tb, s.m, s.n, s.k, ab[0], a.data(), lda, b.data(),
                                        ldb, ab[1], want.data(), ldc);
                        std::string what = std::string("gemm ") + ng::dtype_name(dt) + " " +
                                           std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                                           std::to_string(s.k) + (ta ? " At" : "") +
                                           (tb ? " Bt" : "");
                        for (int64_t i = 0; i < c.size(); ++i)
                            kt::expect_near(c.get(i), want.get(i), dt == NG_FLOAT32 ? 1e-5 : 1e-13,
                                            what.c_str());
                    }
    float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, C[4];
    gemm(NG_FLOAT32, false, false, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2);
    assert_true(C[0] == 19 && C[1] == 22 && C[2] == 43 && C[3] == 50);
    gemm(NG_FLOAT32, true, false, 2, 2, 2, 1, A, 2, B, 2, 0, C, 2);  // A^T B = [[26,30],[38,44]]
    assert_true(C[0] == 26 && C[1] == 30 && C[2] == 38 && C[3] == 44);
    // One row and one column through the matrix-vector path: beta = 0 ignores a NaN in C.
    float x3[3] = {1, 2, 3}, B32[6] = {1, 2, 3, 4, 5, 6}, row[2] = {NAN, NAN}, col[1] = {NAN};
    gemm(NG_FLOAT32, false, false, 1, 2, 3, 1, x3, 3, B32, 2, 0, row, 2);  // [22, 28]
    assert_true(row[0] == 22 && row[1] == 28);
    gemm(NG_FLOAT32, false, false, 1, 1, 3, 2, x3, 3, x3, 1, 0, col, 1);  // 2 * (1 + 4 + 9)
    assert_true(col[0] == 28);
    int32_t Ai[4] = {1, 2, 3, 4}, Bi[4] = {5, 6, 7, 8}, Ci[4] = {1, 1, 1, 1};
    gemm(NG_INT32, false, true, 2, 2, 2, 1, Ai, 2, Bi, 2, 1, Ci,
         2);  // A B^T + 1 = [[18,24],[40,54]]
    assert_true(Ci[0] == 18 && Ci[1] == 24 && Ci[2] == 40 && Ci[3] == 54);

    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { gemm(NG_FLOAT32, false, false, -1, 2, 2, 1, A, 2, B, 2, 0, C, 2); });
    auto m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        gemm(NG_FLOAT32, false, false, 2, 2, 2, 1, A, 1, B, 2, 0, C, 2);
    });
    kt::expect_contains(m, "lda");
    kt::expect_error(NG_ERR_DTYPE,
                     [&] { gemm(NG_BOOL, false, false, 1, 1, 1, 1, A, 1, B, 1, 0, C, 1); });
    kt::expect_error(NG_ERR_INVALID_ARGUMENT,
                     [&] { gemm(NG_INT32, false, false, 2, 2, 2, 0.5, Ai, 2, Bi, 2, 0, Ci, 2); });
    kt::expect_error(NG_ERR_UNSUPPORTED, [&] {
        gemm(NG_FLOAT32, false, false, int64_t(1) << 40, 1, 1, 1, A, 1, B, 1, 0, C, 1);
    });
}

// ---- errors and allocation -------------------------------------------------------------------

// ---- prepared plans (kernels/prepared.hpp) -----------------------------------------------------

// Runs a prepared plan over `out` and its inputs, at their own addresses.
template <class Plan>
void run_plan(const Plan &plan, Nd &out, std::vector<Nd *> inputs, ng::ThreadPool *pool) {
    std::vector<void *> bases = {out.view().data};
    for (Nd *in : inputs) bases.push_back(in->view().data);
    plan.run(bases.data(), pool);
}

// Prepared from a program that is gone before the plan runs: the plan keeps what it needs.
ElementwisePlan prepare_from_temporary(DType dt, const std::vector<int64_t> &shape,
                                       const std::vector<Strided> &inputs, const Strided &out) {
    auto program = std::make_unique<Program>(squared_difference(dt));
    ElementwisePlan plan;
    plan.prepare(*program, shape, inputs, out);
    program->code.clear();
    return plan;
}

// A plan prepared once from one set of operands runs on other sets with the same strides (other
// memory, other values), as a compiled computation's steps do: every run matches the scalar
// reference, and no pool, 1 thread and 4 threads give identical bits. Shapes: empty, one
// element, several tiles per row, and one large enough to be split over threads.
void test_prepared_plans_rerun(void **) {
    const std::vector<std::vector<int64_t>> shapes = {
        {0}, {1}, {3, 5, 7}, {2, 3, 4097}, {300, 301}};
    for (DType dt : {NG_FLOAT32, NG_FLOAT64})
        for (const auto &shape : shapes) {
            const Program p = squared_difference(dt);
            std::vector<bool> b_broadcast(shape.size(), false);
            b_broadcast[0] = true;
            Nd a1(dt, shape, Layout::Column), b1(dt, shape, Layout::Row, b_broadcast);
            Nd out1(dt, shape, Layout::Padded);
            a1.randomize(21), b1.randomize(22), out1.randomize(23);
            const std::vector<Strided> operands = {a1.view(), b1.view()};
            ElementwisePlan elementwise = prepare_from_temporary(dt, shape, operands, out1.view());
            ElementwisePlan copy;
            copy.prepare_copy(dt, shape, a1.view(), out1.view());
            const unsigned all = (1u << shape.size()) - 1;
            const unsigned masks[] = {1u, all, 1u << (shape.size() - 1)};
            std::vector<ReducePlan> reduces(3);
            std::vector<Nd> reduce_outs;
            for (int m = 0; m < 3; ++m) {
                reduce_outs.push_back(reduction_output(dt, shape, masks[m], Layout::Row));
                reduces[m].prepare(m == 1 ? ReduceFn::Max : ReduceFn::Sum, p, shape, operands,
                                   reduce_outs[m].view());
            }
            for (int set = 0; set < 3; ++set) {
                // Set 0: the operands the plans were prepared from; then copies elsewhere.
                Nd a = a1.clone(), b = b1.clone();
                if (set > 0) a.randomize(30 + set), b.randomize(40 + set);
                Nd &x = set == 0 ? a1 : a, &y = set == 0 ? b1 : b;
                std::string what = std::string("prepared ") + ng::dtype_name(dt) + " " +
                                   shape_text(shape) + " set " + std::to_string(set);

                Nd want = out1.clone();
                reference::run_elementwise(p, shape, {x.view(), y.view()}, want.view());
                Nd none = out1.clone(), one = out1.clone(), four = out1.clone();
                run_plan(elementwise, none, {&x, &y}, nullptr);
                run_plan(elementwise, one, {&x, &y}, &pools().one);
                run_plan(elementwise, four, {&x, &y}, &pools().four);
                expect_buffers(none, want, tolerance(dt), what + " elementwise");
                expect_identical(none, one, what + " elementwise");
                expect_identical(none, four, what + " elementwise");

                Nd copied = out1.clone(), copy_want = out1.clone();
                reference::copy_strided(dt, shape, x.view(), copy_want.view());
                run_plan(copy, copied, {&x}, set == 2 ? &pools().four : nullptr);
                expect_buffers(copied, copy_want, 0, what + " copy");

                for (int m = 0; m < 3; ++m) {
                    const ReduceFn f = m == 1 ? ReduceFn::Max : ReduceFn::Sum;
                    Nd r_want = reduce_outs[m].clone();
                    reference::run_reduce(f, p, shape, {x.view(), y.view()}, r_want.view());
                    Nd r_none = reduce_outs[m].clone(), r_four = reduce_outs[m].clone();
                    run_plan(reduces[m], r_none, {&x, &y}, nullptr);
                    run_plan(reduces[m], r_four, {&x, &y}, &pools().four);
                    const std::string rw = what + " reduce mask " + std::to_string(masks[m]);
                    expect_buffers(r_none, r_want, tolerance(dt), rw);
                    expect_identical(r_none, r_four, rw);
                }
            }
        }
}

// Preparing checks what the drivers check, with the same errors.
void test_prepared_plan_errors(void **) {
    float x = 0, out = 0;
    Program p = squared_difference(NG_FLOAT32);
    ElementwisePlan e;
    auto m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        e.prepare(p, {2}, {Strided{&x, {0}}}, Strided{&out, {0}});  // one input for two
    });
    kt::expect_contains(m, "inputs");
    m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        e.prepare(p, {-3}, {Strided{&x, {0}}, Strided{&x, {0}}}, Strided{&out, {0}});
    });
    kt::expect_contains(m, "-3");
    m = kt::expect_error(NG_ERR_DTYPE, [&] {
        e.prepare_copy(DType(99), {2}, Strided{&x, {0}}, Strided{&out, {0}});
    });
    kt::expect_contains(m, "copy_strided");
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        e.prepare_copy(NG_FLOAT32, {2}, Strided{&x, {0, 0}}, Strided{&out, {0}});  // strides
    });
    ReducePlan r;
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        r.prepare(static_cast<ReduceFn>(9), p, {1}, {Strided{&x, {0}}, Strided{&x, {0}}},
                  Strided{&out, {0}});
    });
    Program bad = p;
    bad.code[1].src[0] = 7;  // reads a register that does not exist yet
    m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        r.prepare(ReduceFn::Sum, bad, {1}, {Strided{&x, {0}}, Strided{&x, {0}}},
                  Strided{&out, {0}});
    });
    kt::expect_contains(m, "register 7");
    // A tile runs its instructions through the vector table unchecked, so prepare refuses what
    // the checked kernels would: each of these prepares without an error if prepare leaves the
    // check to the run.
    uint8_t flag = 1, flag_out = 0;
    Program bool_difference = squared_difference(NG_BOOL);
    bool_difference.code.pop_back();
    bool_difference.result = 2;
    m = kt::expect_error(NG_ERR_DTYPE, [&] {
        e.prepare(bool_difference, {1}, {Strided{&flag, {0}}, Strided{&flag, {0}}},
                  Strided{&flag_out, {0}});
    });
    kt::expect_contains(m, "subtract");
    int32_t whole = 0, whole_out = 0;
    Program int_exp;
    int_exp.inputs = {NG_INT32};
    int_exp.code = {unary_ins(UnaryFn::Exp, NG_INT32, 0)};
    int_exp.result = 1;
    m = kt::expect_error(NG_ERR_DTYPE, [&] {
        e.prepare(int_exp, {1}, {Strided{&whole, {0}}}, Strided{&whole_out, {0}});
    });
    kt::expect_contains(m, "int32");
    Program unknown = p;
    unknown.code[0].fn = 999;
    m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        e.prepare(unknown, {1}, {Strided{&x, {0}}, Strided{&x, {0}}}, Strided{&out, {0}});
    });
    kt::expect_contains(m, "999");
}

void test_driver_errors(void **) {
    float x = 0, out = 0;
    Program p = squared_difference(NG_FLOAT32);
    auto m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_elementwise(p, {2}, {Strided{&x, {0}}}, Strided{&out, {0}},
                        nullptr);  // one input for two
    });
    kt::expect_contains(m, "inputs");
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_elementwise(p, {2}, {Strided{&x, {0}}, Strided{&x, {0, 0}}}, Strided{&out, {0}},
                        nullptr);  // strides
    });
    m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        run_reduce(ReduceFn::Sum, p, {-2}, {Strided{&x, {0}}, Strided{&x, {0}}}, Strided{&out, {0}},
                   nullptr);
    });
    kt::expect_contains(m, "-2");
    Program bad = p;
    bad.code[1].src[0] = 7;  // reads a register that does not exist yet
    m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_elementwise(bad, {1}, {Strided{&x, {0}}, Strided{&x, {0}}}, Strided{&out, {0}},
                        nullptr);
    });
    kt::expect_contains(m, "register 7");
    Program mixed = p;
    mixed.inputs[1] = NG_FLOAT64;  // operand dtype disagrees with the instruction
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_elementwise(mixed, {1}, {Strided{&x, {0}}, Strided{&x, {0}}}, Strided{&out, {0}},
                        nullptr);
    });
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_reduce(static_cast<ReduceFn>(9), p, {1}, {Strided{&x, {0}}, Strided{&x, {0}}},
                   Strided{&out, {0}}, nullptr);
    });
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_softmax(false, NG_FLOAT32, {1}, {true, false}, Strided{&x, {0}}, Strided{&out, {0}},
                    nullptr);
    });
}

// Cache sizes as sysfs writes them, the size chosen from the environment's setting and sysfs,
// and the threshold from which an output is written past the cache: half the last-level cache,
// whose size is positive and the same at every call.
void test_streaming_threshold(void **) {
    assert_int_equal(parse_cache_size("32768K"), int64_t(32) << 20);
    assert_int_equal(parse_cache_size("1M"), int64_t(1) << 20);
    assert_int_equal(parse_cache_size("2G"), int64_t(2) << 30);
    assert_int_equal(parse_cache_size("512"), 512);
    assert_int_equal(parse_cache_size("48K "), 48 << 10);
    for (const char *bad : {"", "K", "12X", "12K junk", "-4K", "99999999999999999999K"})
        if (parse_cache_size(bad) != 0) fail_msg("parse_cache_size(\"%s\") is not 0", bad);
    // NANOGRAPH_CACHE_SIZE's value wins when it is a size; anything else leaves what sysfs found,
    // and 32 MiB where it found nothing.
    assert_int_equal(chosen_cache_bytes("48M", int64_t(480) << 20), int64_t(48) << 20);
    assert_int_equal(chosen_cache_bytes("65536", 0), 65536);
    for (const char *bad : {"", "0", "bogus", "12 apples", "-32M"})
        if (chosen_cache_bytes(bad, 1 << 20) != 1 << 20)
            fail_msg("chosen_cache_bytes(\"%s\", 1 MiB) is not 1 MiB", bad);
    assert_int_equal(chosen_cache_bytes(nullptr, int64_t(480) << 20), int64_t(480) << 20);
    assert_int_equal(chosen_cache_bytes(nullptr, 0), int64_t(32) << 20);
    assert_int_equal(chosen_cache_bytes("junk", 0), int64_t(32) << 20);
    const int64_t llc = last_level_cache_bytes();
    assert_true(llc > 0);
    assert_int_equal(last_level_cache_bytes(), llc);
    assert_false(streams_output(llc / 2 - 1));
    assert_true(streams_output(llc / 2));
    assert_true(streams_output(llc));
}

void test_no_allocation_after_warm_up(void **) {
    // A computation lends its scratch to the thread that runs it; the test thread does the same.
    Scratch scratch;
    ScratchScope scope(scratch);
    std::vector<float> x(50000), y(50000), out(50000);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 17), y[i] = float(i % 5);
    Program p = squared_difference(NG_FLOAT32);
    std::vector<Strided> inputs = {Strided{x.data(), {100, 1}}, Strided{y.data(), {1, 100}}};
    Strided o{out.data(), {500, 1}}, rows{out.data(), {1, 0}}, total{out.data(), {0, 0}},
        sm{out.data(), {500, 1}};
    std::vector<int64_t> shape = {100, 500};
    std::vector<bool> last = {false, true};
    auto run_all = [&] {
        run_elementwise(p, shape, inputs, o, nullptr);
        run_reduce(ReduceFn::Sum, p, shape, inputs, rows, nullptr);
        run_reduce(ReduceFn::Max, p, shape, inputs, total, nullptr);
        run_softmax(true, NG_FLOAT32, shape, last, inputs[1], sm, nullptr);
        copy_strided(NG_FLOAT32, shape, inputs[1], o, nullptr);
    };
    run_all();
    long before = g_allocations.load();
    run_all();
    assert_int_equal(g_allocations.load() - before, 0);

    // Prepared plans: running allocates nothing once the thread's scratch is warm.
    ElementwisePlan e;
    ReducePlan r;
    e.prepare(p, shape, inputs, o);
    r.prepare(ReduceFn::Sum, p, shape, inputs, rows);
    void *bases[3] = {out.data(), x.data(), y.data()};
    e.run(bases, nullptr);
    r.run(bases, nullptr);
    before = g_allocations.load();
    e.run(bases, nullptr);
    r.run(bases, nullptr);
    assert_int_equal(g_allocations.load() - before, 0);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elementwise_float_chain),
        cmocka_unit_test(test_elementwise_select_cast_copy),
        cmocka_unit_test(test_elementwise_hand_values_and_in_place),
        cmocka_unit_test(test_copy_strided),
        cmocka_unit_test(test_reduce_every_subset),
        cmocka_unit_test(test_reduce_large_and_parallel),
        cmocka_unit_test(test_reduce_rows_in_place),
        cmocka_unit_test(test_reduce_columns_in_place),
        cmocka_unit_test(test_reduce_hand_values_and_empty),
        cmocka_unit_test(test_arg_reduce),
        cmocka_unit_test(test_softmax_every_subset),
        cmocka_unit_test(test_softmax_hand_values),
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_prepared_plans_rerun),
        cmocka_unit_test(test_prepared_plan_errors),
        cmocka_unit_test(test_driver_errors),
        cmocka_unit_test(test_streaming_threshold),
        cmocka_unit_test(test_no_allocation_after_warm_up),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
