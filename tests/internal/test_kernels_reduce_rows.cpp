// Reductions of rows against the scalar reference, with no pool and with 1, 2 and 4 threads,
// whose results must be bitwise identical. Outer-axis reductions (the innermost dimension kept):
// column blocks wider than a tile, several blocks per row, rows cut into four or five lanes (a
// shorter last lane, empty lanes) and chunks whose partial results are combined afterwards (a
// shorter last chunk), several kept outer points, strided outputs, values broadcast along the kept
// dimension, NaN in a Max. Inner-axis reductions: rows of odd lengths, several tiles per row,
// several reduced points per output, enough of them to combine tile results early, rows that are
// not evenly spaced, and long rows of few outputs cut into chunks.
#include <cfloat>

#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;
using ng::DType;

namespace {

struct Pools {
    ng::ThreadPool one{1}, two{2}, four{4};
};
Pools &pools() {
    static Pools p;
    return p;
}

// Row-major strides of `shape`, each multiplied by `spread` (a gap between elements), with
// stride 0 on the dimensions of `zero_mask`.
std::vector<int64_t> strides_of(const std::vector<int64_t> &shape, int64_t spread,
                                unsigned zero_mask) {
    std::vector<int64_t> strides(shape.size());
    int64_t step = spread;
    for (size_t d = shape.size(); d-- > 0;) {
        strides[d] = zero_mask >> d & 1 ? 0 : step;
        if (!(zero_mask >> d & 1)) step *= shape[d];
    }
    return strides;
}

int64_t count_of(const std::vector<int64_t> &shape, unsigned zero_mask) {
    int64_t n = 1;
    for (size_t d = 0; d < shape.size(); ++d)
        if (!(zero_mask >> d & 1)) n *= shape[d];
    return n;
}

struct Case {
    std::vector<int64_t> shape;
    unsigned reduced;          // mask of reduced dimensions
    int64_t out_spread;        // 1: dense output; more: strided along the kept dimension
    unsigned x_broadcast = 0;  // mask of dimensions x is broadcast along
};

// f((x - y)^2) or f(x) (when `squared` is false) over the case, into a fresh output per pool.
void check_case(const Case &c, DType dt, ReduceFn f, bool squared) {
    const unsigned innermost = 1u << (c.shape.size() - 1);
    // x starts one element past a 64-byte boundary.
    Buffer x(dt, count_of(c.shape, c.x_broadcast), ng::dtype_size(dt)),
        y(dt, count_of(c.shape, innermost));
    kt::fill_random(x, 21);
    kt::fill_random(y, 22);
    if (f == ReduceFn::Max && ng::dtype_is_float(dt)) x.set(x.size() / 2, NAN);
    Program p;
    if (squared) {
        p.inputs = {dt, dt};
        p.code = {
            Instruction{Instruction::Type::Binary, int32_t(BinaryFn::Subtract), dt, 0, {0, 1, -1}},
            Instruction{Instruction::Type::Unary, int32_t(UnaryFn::Square), dt, 0, {2, -1, -1}}};
        p.result = 3;
    } else {
        p.inputs = {dt};
        p.result = 0;
    }
    std::vector<Strided> inputs = {Strided{x.data(), strides_of(c.shape, 1, c.x_broadcast)}};
    // y varies along the rows only (broadcast along the kept dimension).
    if (squared) inputs.push_back(Strided{y.data(), strides_of(c.shape, 1, innermost)});
    const int64_t outputs = count_of(c.shape, c.reduced) * c.out_spread;
    auto run = [&](ng::ThreadPool *pool, Buffer &out) {
        Strided o{out.data(), strides_of(c.shape, c.out_spread, c.reduced)};
        if (pool)
            run_reduce(f, p, c.shape, inputs, o, pool);
        else
            reference::run_reduce(f, p, c.shape, inputs, o);
    };
    Buffer want(dt, outputs), none(dt, outputs), one(dt, outputs), two(dt, outputs),
        four(dt, outputs);
    run(nullptr, want);
    Strided o{none.data(), strides_of(c.shape, c.out_spread, c.reduced)};
    run_reduce(f, p, c.shape, inputs, o, nullptr);
    run(&pools().one, one);
    run(&pools().two, two);
    run(&pools().four, four);

    std::string what = std::string(fn_name(f)) + " " + ng::dtype_name(dt) + " shape";
    for (int64_t d : c.shape) what += " " + std::to_string(d);
    what += " mask " + std::to_string(c.reduced) + " spread " + std::to_string(c.out_spread);
    // Max is exact. A float sum of `rows` terms of magnitude up to `term` strays from the exact
    // sum (the reference sums in double) by a few rounding errors of its partial sums: allow 8
    // of rows * term * epsilon, still well below a term left out or counted twice.
    int64_t rows = 1;
    for (size_t d = 0; d < c.shape.size(); ++d)
        if (c.reduced >> d & 1) rows *= c.shape[d];
    const double term = squared ? 64 : 4;
    const double eps = dt == NG_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
    const double tol = f == ReduceFn::Sum && ng::dtype_is_float(dt) ? 8 * rows * term * eps : 0;
    for (int64_t i = 0; i < outputs; i += c.out_spread) {
        double g = none.get(i), w = want.get(i);
        if (std::isnan(g) && std::isnan(w)) continue;
        if (!(std::fabs(g - w) <= tol))
            fail_msg("%s: output %lld: got %.17g, want %.17g", what.c_str(), (long long)i, g, w);
    }
    const size_t bytes = size_t(outputs) * ng::dtype_size(dt);
    for (const Buffer *b : {&one, &two, &four})
        if (std::memcmp(b->data(), none.data(), bytes) != 0)
            fail_msg("%s: results differ between thread counts", what.c_str());
    for (const Buffer *b : {&none, &one, &two, &four})
        if (!b->guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
}

void check_every_dtype(const Case &c) {
    for (DType dt : {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_UINT8})
        for (ReduceFn f : {ReduceFn::Sum, ReduceFn::Max}) {
            check_case(c, dt, f, false);
            if (dt != NG_UINT8) check_case(c, dt, f, true);
        }
}

void test_outer_axis_reductions(void **) {
    const Case cases[] = {
        {{1024, 300}, 1, 1},     // one block, rows in chunks
        {{1001, 301}, 1, 1},     // a shorter last chunk and last lane
        {{1001, 301}, 1, 3},     // the same into a strided output
        {{300, 2500}, 1, 1},     // a block wider than a tile (float64: two blocks)
        {{2, 300, 700}, 2, 2},   // two kept outer points, chunked, strided output
        {{3, 10, 9000}, 2, 1},   // enough blocks: no chunks, blocks of several tiles
        {{20, 50, 700}, 3, 1},   // two reduced dimensions cut into chunks
        {{1024, 300}, 1, 1, 2},  // x broadcast along the kept dimension
        {{7, 2051}, 1, 2},       // too few rows for chunks
        {{5, 300}, 1, 1},        // lanes of two rows, one and none
        {{3, 70}, 1, 1},         // fewer rows than lanes
        {{6, 2100}, 1, 1},       // five lanes (blocks of 8 KiB or more), two of them empty
        {{1001, 2100}, 1, 2},    // five lanes in chunks, a shorter last lane, strided output
    };
    for (const Case &c : cases) check_every_dtype(c);
}

void test_inner_axis_reductions(void **) {
    const Case cases[] = {
        {{1001, 700}, 2, 1},           // an odd row count, partial leaves
        {{37, 5000}, 2, 1},            // three tiles per row
        {{20, 30, 300}, 5, 1},         // 20 reduced points per output
        {{17, 2100, 3}, 6, 1},         // more tile results than a tile holds
        {{40, 300}, 2, 3},             // a strided output
        {{40, 300}, 2, 1, 1},          // x broadcast along the outputs
        {{4099, 33}, 2, 1},            // many short rows: threads take them in shrinking chunks
        {{23, 2048 + 256 + 5}, 2, 1},  // a row of a whole tile, a leaf and a vector's tail
        {{6, 7, 300}, 4, 1, 1},        // rows not evenly spaced: x broadcast along dimension 0
    };
    for (const Case &c : cases) check_every_dtype(c);
    // Few outputs: long rows cut into chunks, a chain sum over each chunk. Not float64: the
    // reference's running double sum of 200,000 terms strays from the exact sum by more than the
    // tolerance allows the kernel.
    const Case long_rows{{3, 200000}, 2, 1};
    for (DType dt : {NG_FLOAT32, NG_INT32})
        for (ReduceFn f : {ReduceFn::Sum, ReduceFn::Max})
            for (bool squared : {false, true}) check_case(long_rows, dt, f, squared);
}

}  // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outer_axis_reductions),
        cmocka_unit_test(test_inner_axis_reductions),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
