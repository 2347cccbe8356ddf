// Register chains (run_chain and the ChainCompiler that turns elementwise programs into them):
//  - the compiler's steps for the shapes it meets (a straight chain, a value read twice, two
//    computed operands, the same register twice, reversed operands, dead code) and the programs
//    it leaves to the tile passes;
//  - every instruction-set table's chain against the same table's level-1 passes applied one
//    instruction at a time over whole arrays: bitwise identical (each step rounds as its pass
//    does), for both float dtypes, lengths around the block size, misaligned pointers, broadcast
//    inputs, NaN, infinities and signed zeros, in place, and streamed past the cache; and
//    against the scalar reference (libm in double, rounded per instruction) within a relative
//    tolerance;
//  - run_elementwise over strided, broadcast and reversed operands, where contiguous operands
//    take the chain and gathered ones the tile passes: the same bits either way, and the same
//    bits with no pool and with four threads, also for an output large enough to be streamed past
//    the cache (each thread fences its stores once, after its last tile);
//  - every table's chain_sum (the chain's values summed, none stored) against the double sum of
//    the same values, NaN and infinities included, and over 2^21 values within a few rounding
//    errors;
//  - run_chain's and run_chain_sum's refusals.
#include <cfloat>
#include <cstdlib>

#include "kernels/chain.hpp"
#include "kernels/streaming.hpp"
#include "test_kernels_support.hpp"

using namespace ng::kernels;
using kt::Buffer;
using ng::DType;
using Kind = ChainStep::Kind;

namespace {

Instruction unary_ins(UnaryFn f, DType dt, int32_t a) {
    return Instruction{Instruction::Type::Unary, int32_t(f), dt, 0, {a, -1, -1}};
}
Instruction binary_ins(BinaryFn f, DType dt, int32_t a, int32_t b) {
    return Instruction{Instruction::Type::Binary, int32_t(f), dt, 0, {a, b, -1}};
}

// tanh(a * b + c) * s + a: the benchmark's chain (inputs a, b, c, s).
Program tanh_fma(DType dt) {
    Program p;
    p.inputs = {dt, dt, dt, dt};
    p.code = {binary_ins(BinaryFn::Multiply, dt, 0, 1), binary_ins(BinaryFn::Add, dt, 4, 2),
              unary_ins(UnaryFn::Tanh, dt, 5), binary_ins(BinaryFn::Multiply, dt, 6, 3),
              binary_ins(BinaryFn::Add, dt, 7, 0)};
    p.result = 8;
    return p;
}

// sigmoid(a * b) * (a * b) / (c - b * b) + max(s, -(a * b)): a value read three times, two
// computed operands, a reversed subtraction, a dead instruction (inputs a, b, c, s).
Program branchy(DType dt) {
    Program p;
    p.inputs = {dt, dt, dt, dt};
    p.code = {binary_ins(BinaryFn::Multiply, dt, 0, 1),  // 4 = a * b (read 3 times)
              unary_ins(UnaryFn::Sigmoid, dt, 4),        // 5
              binary_ins(BinaryFn::Multiply, dt, 5, 4),  // 6
              binary_ins(BinaryFn::Multiply, dt, 1, 1),  // 7 = b * b
              binary_ins(BinaryFn::Subtract, dt, 2, 7),  // 8 = c - b * b
              binary_ins(BinaryFn::Divide, dt, 6, 8),    // 9
              unary_ins(UnaryFn::Negative, dt, 4),       // 10
              binary_ins(BinaryFn::Maximum, dt, 3, 10),  // 11
              binary_ins(BinaryFn::Add, dt, 9, 11),      // 12
              unary_ins(UnaryFn::Exp, dt, 12)};          // 13: dead
    p.result = 12;
    return p;
}

// f(a * s + c) for one unary function (inputs a, c, s).
Program unary_chain(UnaryFn f, DType dt) {
    Program p;
    p.inputs = {dt, dt, dt};
    p.code = {binary_ins(BinaryFn::Multiply, dt, 0, 2), binary_ins(BinaryFn::Add, dt, 3, 1),
              unary_ins(f, dt, 4)};
    p.result = 5;
    return p;
}

// f(f(b, f(a * s, b)), same) for one binary function: acc op leaf, leaf op acc, acc op acc
// (inputs a, b, s).
Program binary_chain(BinaryFn f, DType dt) {
    Program p;
    p.inputs = {dt, dt, dt};
    p.code = {binary_ins(BinaryFn::Multiply, dt, 0, 2), binary_ins(f, dt, 3, 1),
              binary_ins(f, dt, 1, 4), binary_ins(f, dt, 5, 5)};
    p.result = 6;
    return p;
}

const UnaryFn kChainUnary[] = {UnaryFn::Negative, UnaryFn::Absolute,   UnaryFn::Sign,
                               UnaryFn::Exp,      UnaryFn::Log,        UnaryFn::Sqrt,
                               UnaryFn::Square,   UnaryFn::Reciprocal, UnaryFn::Sigmoid,
                               UnaryFn::Relu,     UnaryFn::Tanh};
const BinaryFn kChainBinary[] = {BinaryFn::Add,    BinaryFn::Subtract, BinaryFn::Multiply,
                                 BinaryFn::Divide, BinaryFn::Maximum,  BinaryFn::Minimum};

// ---- the program applied one instruction at a time with a table's passes ------------------------

// Every register over n values (one value when every operand it depends on is broadcast), as
// the tile passes compute it.
Buffer passes(const VectorTable *t, const Program &p, int64_t n, const std::vector<Buffer *> &in,
              const std::vector<int> &steps) {
    const size_t inputs = p.inputs.size();
    std::vector<Buffer> regs;
    regs.reserve(p.code.size());
    std::vector<const void *> value(inputs + p.code.size());
    std::vector<int> step(inputs + p.code.size());
    for (size_t i = 0; i < inputs; ++i) value[i] = in[i]->data(), step[i] = steps[i];
    for (size_t k = 0; k < p.code.size(); ++k) {
        const Instruction &ins = p.code[k];
        size_t r = inputs + k;
        step[r] = step[ins.src[0]] | (ins.type == Instruction::Type::Binary ? step[ins.src[1]] : 0);
        regs.emplace_back(ins.dtype, step[r] ? n : 1);
        void *dst = regs.back().data();
        if (ins.type == Instruction::Type::Unary)
            t->unary(UnaryFn(ins.fn), ins.dtype, step[r] ? n : 1, value[ins.src[0]], dst);
        else
            t->binary(BinaryFn(ins.fn), ins.dtype, step[r] ? n : 1, value[ins.src[0]],
                      step[ins.src[0]], value[ins.src[1]], step[ins.src[1]], dst);
        value[r] = dst;
    }
    return regs[p.result - inputs];
}

// The same bits, except that any NaN matches any NaN (which of two NaN operands an x86
// instruction returns depends on the order the compiler gave them).
void expect_bitwise(const Buffer &got, const void *want, const std::string &what) {
    size_t size = ng::dtype_size(got.dtype());
    auto wanted = [&](int64_t i) {
        return size == 4 ? double(static_cast<const float *>(want)[i])
                         : static_cast<const double *>(want)[i];
    };
    for (int64_t i = 0; i < got.size(); ++i)
        if (std::memcmp(static_cast<const char *>(got.data()) + i * size,
                        static_cast<const char *>(want) + i * size, size) != 0 &&
            !(std::isnan(got.get(i)) && std::isnan(wanted(i))))
            fail_msg("%s: element %lld of %lld: got %.17g, the passes give a different value",
                     what.c_str(), (long long)i, (long long)got.size(), got.get(i));
    if (!got.guard_intact()) fail_msg("%s: wrote past the end", what.c_str());
}

// Equal (infinities included), both NaN, or within rel * max(1, |want|).
void expect_close(const Buffer &got, const Buffer &want, double rel, const std::string &what) {
    for (int64_t i = 0; i < got.size(); ++i) {
        double g = got.get(i), w = want.get(i);
        if (g == w || (std::isnan(g) && std::isnan(w))) continue;
        if (!(std::fabs(g - w) <= rel * std::max(1.0, std::fabs(w))))
            fail_msg("%s: element %lld: got %.17g, want %.17g", what.c_str(), (long long)i, g, w);
    }
}

// Inputs: arrays in [lo, hi] with NaN, infinities and signed zeros among the first values of the
// first array; broadcast inputs get one value.
void fill_inputs(std::vector<Buffer> &in, const std::vector<int> &steps, double lo, double hi,
                 bool specials) {
    for (size_t i = 0; i < in.size(); ++i) {
        kt::fill_random(in[i], uint32_t(17 + i), lo, hi);
        if (!steps[i]) in[i].set(0, 0.75);
    }
    const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-30, -1e30};
    if (specials)
        for (int64_t j = 0; j < 7 && j < in[0].size(); ++j)
            in[0].set(3 * j % in[0].size(), special[j]);
}

// One program through every table's chain: bitwise against the passes, close to the reference,
// over lengths around the block size, misaligned, and in place (the output is input 0).
void check_program(const Program &p, const std::vector<int> &steps, double lo, double hi,
                   bool specials, const std::string &name) {
    const DType dt = p.inputs[0];
    ChainCompiler compiler;
    if (!compiler.compile(p, std::vector<int64_t>(steps.begin(), steps.end())))
        fail_msg("%s: not compiled as a chain", name.c_str());
    const std::vector<ChainStep> &code = compiler.code();
    const double rel = dt == NG_FLOAT32 ? 2e-5 : 1e-12;
    for (const VectorTable *t : kt::tables())
        for (int64_t n : {0, 1, 7, 31, 32, 33, 63, 64, 65, 127, 129, 257, 1023, 4097})
            for (size_t misalign : {size_t(0), ng::dtype_size(dt)}) {
                std::string what = name + " " + t->name + " " + ng::dtype_name(dt) +
                                   " n=" + std::to_string(n) + " misalign " +
                                   std::to_string(misalign);
                std::vector<Buffer> in;
                std::vector<Buffer *> ptrs;
                std::vector<const void *> data;
                for (size_t i = 0; i < p.inputs.size(); ++i)
                    in.emplace_back(dt, steps[i] ? n : 1, misalign);
                fill_inputs(in, steps, lo, hi, specials);
                for (auto &b : in) ptrs.push_back(&b), data.push_back(b.data());
                Buffer want = passes(t, p, n, ptrs, steps);
                Buffer out(dt, n, misalign);
                t->chain(dt, n, code.data(), int32_t(code.size()), data.data(), steps.data(),
                         int32_t(p.inputs.size()), compiler.leaves(), out.data(), false);
                expect_bitwise(out, want.data(), what);
                // Past the cache: the same bits, whole blocks streamed where the output is
                // aligned to a vector and stored where it is not, nothing written past the end.
                Buffer streamed(dt, n, misalign);
                t->chain(dt, n, code.data(), int32_t(code.size()), data.data(), steps.data(),
                         int32_t(p.inputs.size()), compiler.leaves(), streamed.data(), true);
                expect_bitwise(streamed, want.data(), what + " streamed");
                if (!streamed.guard_intact()) fail_msg("%s: streamed past the end", what.c_str());

                Buffer ref(dt, n);
                std::vector<Strided> views;
                for (auto &b : in) views.push_back(Strided{b.data(), {b.size() > 1 ? 1 : 0}});
                if (n > 0) {
                    reference::run_elementwise(p, {n}, views, Strided{ref.data(), {1}});
                    expect_close(out, ref, rel, what + " vs reference");
                }

                // The values' sum without storing them: against the values' sum in double,
                // within n rounding errors of the sum of |values| (the sum of a NaN is NaN, of an
                // infinity that infinity, of both signs NaN).
                alignas(8) unsigned char sum_bytes[8];
                t->chain_sum(dt, n, code.data(), int32_t(code.size()), data.data(), steps.data(),
                             int32_t(p.inputs.size()), compiler.leaves(), sum_bytes);
                const double got = dt == NG_FLOAT32 ? double(*reinterpret_cast<float *>(sum_bytes))
                                                    : *reinterpret_cast<double *>(sum_bytes);
                double exact = 0, magnitude = 0;  // the sum and the sum of |values|
                for (int64_t i = 0; i < n; ++i) {
                    exact += want.get(i);
                    if (std::isfinite(want.get(i))) magnitude += std::fabs(want.get(i));
                }
                const double eps = dt == NG_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
                const bool sum_ok = std::isnan(exact) ? std::isnan(got)
                                    : std::isinf(exact)
                                        ? got == exact
                                        : std::fabs(got - exact) <= double(n) * eps * magnitude;
                if (!sum_ok) fail_msg("%s: chain_sum %.17g, want %.17g", what.c_str(), got, exact);

                // In place: the output is input 0's array.
                if (steps[0]) {
                    Buffer same = in[0];
                    data[0] = same.data();
                    t->chain(dt, n, code.data(), int32_t(code.size()), data.data(), steps.data(),
                             int32_t(p.inputs.size()), compiler.leaves(), same.data(), false);
                    expect_bitwise(same, want.data(), what + " in place");
                }
            }
}

// ---- tests -------------------------------------------------------------------------------------

void expect_steps(const ChainCompiler &c, const std::vector<ChainStep> &want, const char *what) {
    const std::vector<ChainStep> &got = c.code();
    if (got.size() != want.size())
        fail_msg("%s: %zu steps, want %zu", what, got.size(), want.size());
    for (size_t s = 0; s < got.size(); ++s) {
        bool uses_leaf = got[s].kind == Kind::Load || got[s].kind == Kind::Save ||
                         got[s].kind == Kind::Binary || got[s].kind == Kind::BinaryReversed;
        bool uses_fn = got[s].kind != Kind::Load && got[s].kind != Kind::Save;
        if (got[s].kind != want[s].kind || (uses_fn && got[s].fn != want[s].fn) ||
            (uses_leaf && got[s].leaf != want[s].leaf))
            fail_msg("%s: step %zu is (%d, %d, %d), want (%d, %d, %d)", what, s, int(got[s].kind),
                     got[s].fn, got[s].leaf, int(want[s].kind), want[s].fn, want[s].leaf);
    }
}

ChainStep step(Kind kind, int32_t fn, int32_t leaf) {
    ChainStep s{kind};
    s.fn = fn;
    s.leaf = leaf;
    return s;
}
ChainStep un(UnaryFn f) {
    return step(Kind::Unary, int32_t(f), 0);
}
ChainStep bin(Kind kind, BinaryFn f, int32_t leaf = 0) {
    return step(kind, int32_t(f), leaf);
}

void test_compiler_steps(void **) {
    ChainCompiler c;
    assert_true(c.compile(tanh_fma(NG_FLOAT32), {1, 1, 1, 0}));
    assert_int_equal(c.leaves(), 4);
    expect_steps(c,
                 {step(Kind::Load, 0, 0), bin(Kind::Binary, BinaryFn::Multiply, 1),
                  bin(Kind::Binary, BinaryFn::Add, 2), un(UnaryFn::Tanh),
                  bin(Kind::Binary, BinaryFn::Multiply, 3), bin(Kind::Binary, BinaryFn::Add, 0)},
                 "tanh_fma");

    // a * b is saved once (temporary 4) and read as a leaf; c - b * b is computed first and
    // saved (temporary 5) while the left operand of the division is computed; the dead exp is
    // left out.
    assert_true(c.compile(branchy(NG_FLOAT64), {1, 1, 1, 0}));
    assert_int_equal(c.leaves(), 7);
    expect_steps(
        c,
        {// max(s, -(a * b)), kept as temporary 6 for the final addition
         step(Kind::Load, 0, 0), bin(Kind::Binary, BinaryFn::Multiply, 1), step(Kind::Save, 0, 4),
         un(UnaryFn::Negative), bin(Kind::BinaryReversed, BinaryFn::Maximum, 3),
         step(Kind::Save, 0, 5),
         // c - b * b, temporary... (numbered after the ones above)
         step(Kind::Load, 0, 1), bin(Kind::BinarySelf, BinaryFn::Multiply),
         bin(Kind::BinaryReversed, BinaryFn::Subtract, 2), step(Kind::Save, 0, 6),
         // sigmoid(a * b) * (a * b) / (c - b * b) + the maximum
         step(Kind::Load, 0, 4), un(UnaryFn::Sigmoid), bin(Kind::Binary, BinaryFn::Multiply, 4),
         bin(Kind::Binary, BinaryFn::Divide, 6), bin(Kind::Binary, BinaryFn::Add, 5)},
        "branchy");

    // Left to the tile passes: no instruction, a function without a chain form, a compare, an
    // integer program, a gathered input, an input of another dtype, a program too long.
    Program copy;
    copy.inputs = {NG_FLOAT32};
    copy.result = 0;
    assert_false(c.compile(copy, {1}));
    assert_true(c.code().empty());
    Program sine = unary_chain(UnaryFn::Sin, NG_FLOAT32);
    assert_false(c.compile(sine, {1, 1, 0}));
    Program power = binary_chain(BinaryFn::Power, NG_FLOAT32);
    assert_false(c.compile(power, {1, 1, 0}));
    Program compare = tanh_fma(NG_FLOAT32);
    compare.code.push_back(Instruction{
        Instruction::Type::Compare, int32_t(CompareFn::Less), NG_FLOAT32, 0, {8, 0, -1}});
    compare.result = 9;
    assert_false(c.compile(compare, {1, 1, 1, 0}));
    assert_false(c.compile(tanh_fma(NG_FLOAT32), {1, 2, 1, 0}));  // b gathered
    assert_false(c.compile(tanh_fma(NG_FLOAT32), {1, -1, 1, 0}));
    Program integers = binary_chain(BinaryFn::Add, NG_INT32);
    assert_false(c.compile(integers, {1, 1, 0}));
    Program mixed = tanh_fma(NG_FLOAT32);
    mixed.inputs.push_back(NG_FLOAT64);  // unread, but run_chain would read it as float
    assert_false(c.compile(mixed, {1, 1, 1, 0, 0}));
    Program longer = unary_chain(UnaryFn::Tanh, NG_FLOAT32);
    for (int k = 0; k < 64; ++k)
        longer.code.push_back(
            unary_ins(UnaryFn::Negative, NG_FLOAT32, int32_t(longer.code.size() + 2)));
    longer.result = int32_t(longer.code.size() + 2);
    assert_false(c.compile(longer, {1, 1, 0}));
    assert_true(c.code().empty());

    // More values kept than there are temporaries: with 15 inputs one temporary is left, and
    // the sum of u_k = p_k + -p_k (p_k = a * input k, read twice) keeps every p_k: the compiler
    // gives up.
    Program wide;
    const DType dt = NG_FLOAT32;
    const int32_t inputs = 15;
    wide.inputs.assign(inputs, dt);
    auto add = [&](Instruction ins) {
        wide.code.push_back(ins);
        return int32_t(inputs + wide.code.size() - 1);
    };
    int32_t sum = -1;
    for (int32_t k = 1; k < inputs; ++k) {
        int32_t product = add(binary_ins(BinaryFn::Multiply, dt, 0, k));
        int32_t negated = add(unary_ins(UnaryFn::Negative, dt, product));
        int32_t u = add(binary_ins(BinaryFn::Add, dt, product, negated));
        sum = sum < 0 ? u : add(binary_ins(BinaryFn::Add, dt, sum, u));
    }
    wide.result = sum;
    assert_false(c.compile(wide, std::vector<int64_t>(inputs, 1)));
}

void test_chain_programs_every_table(void **) {
    for (DType dt : {NG_FLOAT32, NG_FLOAT64}) {
        check_program(tanh_fma(dt), {1, 1, 1, 0}, -3, 3, true, "tanh_fma");
        check_program(tanh_fma(dt), {0, 1, 0, 0}, -3, 3, false, "tanh_fma broadcast a and c");
        check_program(branchy(dt), {1, 1, 1, 0}, 0.5, 2, true, "branchy");
        check_program(branchy(dt), {1, 0, 1, 1}, 0.5, 2, false, "branchy broadcast b");
    }
}

void test_chain_every_function(void **) {
    for (DType dt : {NG_FLOAT32, NG_FLOAT64}) {
        for (UnaryFn f : kChainUnary) {
            bool positive = f == UnaryFn::Log || f == UnaryFn::Sqrt;
            check_program(unary_chain(f, dt), {1, 1, 0}, positive ? 0.1 : -3, 3, true,
                          std::string("unary ") + fn_name(f));
        }
        for (BinaryFn f : kChainBinary)
            check_program(binary_chain(f, dt), {1, 1, 0}, 0.5, 3, true,
                          std::string("binary ") + fn_name(f));
    }
}

// run_elementwise: contiguous and broadcast operands take the chain, gathered ones (a column
// layout) the tile passes; both give the same bits, and so do no pool and four threads.
void test_elementwise_chain_paths(void **) {
    ng::ThreadPool four(4);
    const int64_t rows = 37, cols = 4100;
    for (DType dt : {NG_FLOAT32, NG_FLOAT64}) {
        size_t size = ng::dtype_size(dt);
        Program p = tanh_fma(dt);
        Buffer a(dt, rows * cols), b(dt, rows * cols), c(dt, cols), s(dt, 1);
        kt::fill_random(a, 1, -3, 3), kt::fill_random(b, 2, -3, 3), kt::fill_random(c, 3, -1, 1);
        s.set(0, 0.5);
        a.set(5, NAN), a.set(9, INFINITY), b.set(11, -INFINITY);
        // a column-major copy of a: the same values, innermost stride `rows`
        Buffer at(dt, rows * cols);
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) at.set(j * rows + i, a.get(i * cols + j));
        std::vector<Strided> chain_in = {Strided{a.data(), {cols, 1}}, Strided{b.data(), {cols, 1}},
                                         Strided{c.data(), {0, 1}}, Strided{s.data(), {0, 0}}};
        std::vector<Strided> tile_in = chain_in;
        tile_in[0] = Strided{at.data(), {1, rows}};
        Buffer ref(dt, rows * cols), chained(dt, rows * cols), tiled(dt, rows * cols),
            threaded(dt, rows * cols);
        reference::run_elementwise(p, {rows, cols}, chain_in, Strided{ref.data(), {cols, 1}});
        run_elementwise(p, {rows, cols}, chain_in, Strided{chained.data(), {cols, 1}}, nullptr);
        run_elementwise(p, {rows, cols}, tile_in, Strided{tiled.data(), {cols, 1}}, nullptr);
        run_elementwise(p, {rows, cols}, chain_in, Strided{threaded.data(), {cols, 1}}, &four);
        std::string what = std::string("elementwise chain ") + ng::dtype_name(dt);
        expect_close(chained, ref, dt == NG_FLOAT32 ? 2e-5 : 1e-12, what);
        expect_bitwise(chained, tiled.data(), what + " vs gathered passes");
        expect_bitwise(threaded, chained.data(), what + " four threads");

        // A reversed output (written through a tile slot and scattered), and a reversed input
        // (gathered): the same bits again.
        Buffer reversed(dt, rows * cols);
        char *last = static_cast<char *>(reversed.data()) + (cols - 1) * size;
        run_elementwise(p, {rows, cols}, chain_in, Strided{last, {cols, -1}}, &four);
        Buffer back(dt, rows * cols);
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j)
                back.set(i * cols + j, reversed.get(i * cols + cols - 1 - j));
        expect_bitwise(back, chained.data(), what + " reversed output");

        // In place: a = chain(a, ...).
        Buffer inplace = a;
        std::vector<Strided> in_place = chain_in;
        in_place[0].data = inplace.data();
        run_elementwise(p, {rows, cols}, in_place, Strided{inplace.data(), {cols, 1}}, &four);
        expect_bitwise(inplace, chained.data(), what + " in place");
    }
}

// A chain that touches at least half the last-level cache (here its output alone does) streams
// its output past it by every thread, each fencing once after its last tile: the values the
// calling thread reads after the run are the bits of the same chain stored normally (a run over a
// part of the rows, too small to stream) and within the reference's tolerance. Outputs on a cache
// line, 16 bytes past one (as a NumPy array's data), and rows of 4100 values starting 4 bytes past
// one (each row at another place in its line): a row that starts inside a line has its values up
// to the line's end stored as usual. The cache is set to 48 MiB through NANOGRAPH_CACHE_SIZE
// (main), so that the arrays do not grow with what the machine reports (480 MiB on one virtual
// machine: 240 MiB outputs, which took more than 5 minutes under ASan and 16 under memcheck).
void test_elementwise_streamed_output(void **) {
    assert_int_equal(last_level_cache_bytes(), int64_t(48) << 20);
    ng::ThreadPool two(2);
    const DType dt = NG_FLOAT32;
    Program p = tanh_fma(dt);
    const struct {
        int64_t cols;
        size_t misalign;  // of the streamed output, in bytes past a 64-byte boundary
    } cases[] = {{4096, 0}, {4096, 16}, {4100, 4}};
    for (const auto &shape : cases) {
        const int64_t cols = shape.cols,
                      rows = last_level_cache_bytes() / 2 / int64_t(sizeof(float)) / cols + 3;
        assert_true(streams_output(rows * cols * int64_t(sizeof(float))));
        const std::string what = "streamed output of " + std::to_string(rows) + " x " +
                                 std::to_string(cols) + ", " + std::to_string(shape.misalign) +
                                 " bytes past a line, two threads";
        Buffer a(dt, rows * cols), b(dt, rows * cols), c(dt, cols), s(dt, 1);
        kt::fill_random(a, 4, -3, 3), kt::fill_random(b, 5, -3, 3), kt::fill_random(c, 6, -1, 1);
        s.set(0, 0.5);
        std::vector<Strided> in = {Strided{a.data(), {cols, 1}}, Strided{b.data(), {cols, 1}},
                                   Strided{c.data(), {0, 1}}, Strided{s.data(), {0, 0}}};
        Buffer streamed(dt, rows * cols, shape.misalign), stored(dt, rows * cols);
        run_elementwise(p, {rows, cols}, in, Strided{streamed.data(), {cols, 1}}, &two);
        // The same rows a few at a time: outputs far below the threshold, stored normally.
        const int64_t size = int64_t(sizeof(float)), step = 64;
        for (int64_t r = 0; r < rows; r += step) {
            const int64_t count = std::min(step, rows - r);
            std::vector<Strided> part = in;
            part[0].data = static_cast<char *>(a.data()) + r * cols * size;
            part[1].data = static_cast<char *>(b.data()) + r * cols * size;
            assert_false(streams_output((3 * count + 1) * cols * size + size));  // a, b, out, c, s
            run_elementwise(
                p, {count, cols}, part,
                Strided{static_cast<char *>(stored.data()) + r * cols * size, {cols, 1}}, &two);
        }
        expect_bitwise(streamed, stored.data(), what);
        Buffer ref(dt, rows * cols);
        reference::run_elementwise(p, {rows, cols}, in, Strided{ref.data(), {cols, 1}});
        expect_close(streamed, ref, 2e-5, what + " against the reference");
    }
}

// A long chain sum keeps the accuracy of a pairwise sum: 2^21 + 77 copies of 0.1 (whole blocks,
// groups at every level of the cascade, single vectors and a tail) within 128 rounding errors of
// the exact sum, in every table and both float dtypes. Per-lane running sums of 2^21 / 16 values
// (no cascade) stray by thousands.
void test_chain_sum_long(void **) {
    const int64_t n = (int64_t{1} << 21) + 77;
    const std::vector<ChainStep> load = {step(Kind::Load, 0, 0)};
    const int step_one = 1;
    for (auto *t : kt::tables())
        for (DType dt : {NG_FLOAT32, NG_FLOAT64}) {
            Buffer x(dt, n);
            for (int64_t i = 0; i < n; ++i) x.set(i, 0.1);
            const void *in = x.data();
            alignas(8) unsigned char sum_bytes[8];
            t->chain_sum(dt, n, load.data(), 1, &in, &step_one, 1, 1, sum_bytes);
            const double got = dt == NG_FLOAT32 ? double(*reinterpret_cast<float *>(sum_bytes))
                                                : *reinterpret_cast<double *>(sum_bytes);
            const double exact = double(n) * x.get(0);
            const double eps = dt == NG_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
            if (!(std::fabs(got - exact) <= 128 * eps * exact))
                fail_msg("%s %s: chain_sum of %lld tenths %.17g, exact %.17g", t->name,
                         ng::dtype_name(dt), (long long)n, got, exact);
        }
}

void test_run_chain_errors(void **) {
    float x[4] = {1, 2, 3, 4}, out[4];
    const void *in[2] = {x, x};
    int steps[2] = {1, 0};
    std::vector<ChainStep> ok = {step(Kind::Load, 0, 0), bin(Kind::Binary, BinaryFn::Add, 1),
                                 un(UnaryFn::Tanh)};
    run_chain(NG_FLOAT32, 4, ok.data(), 3, in, steps, 2, 2, out, false);
    assert_true(std::fabs(out[1] - std::tanh(3.0f)) < 1e-6f);

    auto m = kt::expect_error(
        NG_ERR_DTYPE, [&] { run_chain(NG_INT32, 4, ok.data(), 3, in, steps, 2, 2, out, false); });
    kt::expect_contains(m, "int32");
    m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        run_chain(NG_FLOAT32, -1, ok.data(), 3, in, steps, 2, 2, out, false);
    });
    kt::expect_contains(m, "-1");
    kt::expect_error(NG_ERR_INTERNAL,
                     [&] { run_chain(NG_FLOAT32, 4, ok.data(), 0, in, steps, 2, 2, out, false); });
    auto bad = [&](std::vector<ChainStep> code, int32_t inputs, int32_t leaves, const char *part) {
        auto msg = kt::expect_error(NG_ERR_INTERNAL, [&] {
            run_chain(NG_FLOAT32, 4, code.data(), int32_t(code.size()), in, steps, inputs, leaves,
                      out, false);
        });
        kt::expect_contains(msg, part);
    };
    bad({un(UnaryFn::Tanh)}, 2, 2, "first");        // no Load first
    bad({step(Kind::Load, 0, 2)}, 2, 2, "leaf 2");  // no such leaf
    bad({step(Kind::Load, 0, 0), step(Kind::Unary, int32_t(UnaryFn::Tanh), 9)}, 2, 2, "leaf 9");
    bad({step(Kind::Load, 0, 0), step(Kind::Save, 0, 1)}, 2, 2, "not a chain step");  // input
    bad({step(Kind::Load, 0, 0), bin(Kind::Binary, BinaryFn::Add, 2)}, 2, 3, "before it is saved");
    bad({step(Kind::Load, 0, 0), un(UnaryFn::Sin)}, 2, 2, "not a chain step");
    bad({step(Kind::Load, 0, 0), un(UnaryFn::Copy)}, 2, 2, "not a chain step");
    bad({step(Kind::Load, 0, 0), bin(Kind::BinarySelf, BinaryFn::Power)}, 2, 2, "not a chain step");
    bad({step(Kind::Load, 0, 0), step(Kind(17), 0, 0)}, 2, 2, "not a chain step");
    bad({step(Kind::Load, 0, 0)}, 2, 1, "leaves");
    bad({step(Kind::Load, 0, 0)}, 2, kMaxChainLeaves + 1, "leaves");
    int two[2] = {1, 2};
    m = kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_chain(NG_FLOAT32, 4, ok.data(), 3, in, two, 2, 2, out, false);
    });
    kt::expect_contains(m, "step 2");

    // run_chain_sum: the same checks under its own name, and the sum itself.
    float sum = 0;
    run_chain_sum(NG_FLOAT32, 4, ok.data(), 3, in, steps, 2, 2, &sum);
    const double want = std::tanh(2.0) + std::tanh(3.0) + std::tanh(4.0) + std::tanh(5.0);
    assert_true(std::fabs(sum - want) < 4e-6);
    run_chain_sum(NG_FLOAT32, 0, ok.data(), 3, in, steps, 2, 2, &sum);
    assert_true(sum == 0.f);
    m = kt::expect_error(NG_ERR_DTYPE,
                         [&] { run_chain_sum(NG_INT32, 4, ok.data(), 3, in, steps, 2, 2, &sum); });
    kt::expect_contains(m, "run_chain_sum");
    m = kt::expect_error(NG_ERR_INVALID_ARGUMENT, [&] {
        run_chain_sum(NG_FLOAT32, -1, ok.data(), 3, in, steps, 2, 2, &sum);
    });
    kt::expect_contains(m, "-1");
    m = kt::expect_error(NG_ERR_INTERNAL,
                         [&] { run_chain_sum(NG_FLOAT32, 4, ok.data(), 3, in, two, 2, 2, &sum); });
    kt::expect_contains(m, "step 2");
    kt::expect_error(NG_ERR_INTERNAL, [&] {
        run_chain_sum(NG_FLOAT32, 4, ok.data(), 3, in, steps, 2, kMaxChainLeaves + 1, &sum);
    });
}

}  // namespace

int main(void) {
    setenv(kCacheSizeVariable, "48M", 1);  // before the first kernel reads it
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiler_steps),
        cmocka_unit_test(test_chain_programs_every_table),
        cmocka_unit_test(test_chain_every_function),
        cmocka_unit_test(test_elementwise_chain_paths),
        cmocka_unit_test(test_elementwise_streamed_output),
        cmocka_unit_test(test_chain_sum_long),
        cmocka_unit_test(test_run_chain_errors),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
