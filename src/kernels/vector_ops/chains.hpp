// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the fused chains
// (VectorTable::chain and chain_sum), a ChainStep program applied to a few vectors at a time in
// registers, stored, streamed past the cache or summed.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/vector_ops/elementwise.hpp"
#include "kernels/vector_ops/loops.hpp"

namespace ng::kernels {
namespace {

// run_chain: the steps applied to kChainVectors vectors at a time, kept in registers from the
// first Load to the store, so every value is loaded and stored once whatever the chain's length
// and the transcendental steps of neighbouring vectors overlap. Leaf pointers advance with the
// block; broadcast values, temporaries and a padded last block live in `blocks`. One switch per
// step and block chooses the function (the case numbers are kind * 32 + fn). Eight vectors
// rather than four cut the dispatch per value (instructions per value of tanh_fma with the AVX2
// table: valgrind --tool=callgrind bench_ab --quick --only tanh_fma); with 16 vector registers
// the compiler keeps some accumulators on the stack around a transcendental step, which costs
// less than the dispatch saved.
constexpr int64_t kChainVectors = 8;

constexpr int32_t chain_case(ChainStep::Kind kind, int32_t fn) {
    return static_cast<int32_t>(kind) * 32 + fn;
}

// The functions of kernel_fns.def's polynomial column: their vector code holds many constants and
// intermediate values in registers.
constexpr bool is_polynomial_step(int32_t fn) {
    switch (fn) {
#define NG_POLYNOMIAL_false(Name)
#define NG_POLYNOMIAL_true(Name) case static_cast<int32_t>(UnaryFn::Name):
#define NG_UNARY_FN(Name, name, float_only, bool_ok, chainable, polynomial) \
    NG_POLYNOMIAL_##polynomial(Name)
#include "kernels/kernel_fns.def"
#undef NG_POLYNOMIAL_false
#undef NG_POLYNOMIAL_true
        return true;
    default: return false;
    }
}

// Whether a chain has only steps of a few instructions each (no is_polynomial_step function).
inline bool chain_is_cheap(const ChainStep *code, int32_t count) {
    for (int32_t s = 0; s < count; ++s)
        if (code[s].kind == ChainStep::Kind::Unary && is_polynomial_step(code[s].fn)) return false;
    return true;
}

// What a chain does with its values: stores them (Store), stores them past the cache to a
// vector-aligned output (Stream, for outputs of at least half the last-level cache), or adds them
// up (Sum).
enum class ChainOut { Store, Stream, Sum };

// The vectors of a block of a chain whose values are stored (ChainOut::Store), summed
// (ChainOut::Sum) or streamed past the cache (ChainOut::Stream). The last two mostly read their
// inputs from memory, and a step reads its input's whole block before the next step reads
// another input's, so with AVX-512 their blocks are shorter than AVX2's 8 vectors (256 bytes of
// each input, which 4 AVX-512 vectors read): reading two arrays 8 vectors of one, then 8 of the
// other, is slower than 4 and 4. Sums take 2 (l2_diff's sum((x - y)^2): bench_ab --threads 1
// --only l2_diff, one build per block length) and streamed chains 4 (tanh(a * b + c) * 0.5 + a,
// whose arithmetic is most of its time, was steadier with 4 than with 2: bench_ab --threads 1
// --only tanh_fma). Chains stored in the cache keep 8: 4 made them slower (bench_ab --threads 1
// --quick --only tanh_fma).
template <class Arch, ChainOut Out>
constexpr int64_t kChainBlockVectors =
    Out == ChainOut::Store || !std::is_same_v<Arch, xsimd::avx512f> ? kChainVectors
    : Out == ChainOut::Sum                                          ? 2
                                                                    : 4;

// One block of K vectors (kChainBlockVectors for its output, or 1 for the last few values): the
// steps applied to the accumulators, stored to o (Stream: past the cache, o aligned; Sum: added
// to the K aligned vectors at o). Temporaries are kChainVectors vectors apart in `temps`. The
// pointers come in as parameters (not through a closure), so stores of the accumulators do not make
// the compiler reload them at every step. Cheap: the chain is chain_is_cheap, so the block is
// compiled without the polynomial steps.
template <class Arch, int64_t K, class T, ChainOut Out = ChainOut::Store, bool Cheap = false>
void chain_block(const ChainStep *code, int32_t count, const T *const *leaf, T *temps, T *o) {
    using B = xsimd::batch<T, Arch>;
    using Kind = ChainStep::Kind;
    constexpr int64_t W = B::size;
    constexpr int64_t BW = kChainVectors * W;
    using Vectors = std::make_index_sequence<K>;
    B acc[K];  // code[0] is a Load (checked by run_chain)
    each_vector([&](auto k) { acc[k] = B::load_unaligned(leaf[code[0].leaf] + k * W); }, Vectors{});
    for (int32_t s = 1; s < count; ++s) {
        const ChainStep step = code[s];
        const T *p = leaf[step.leaf];
        switch (chain_case(step.kind, step.fn)) {
        case chain_case(Kind::Load, 0):
            each_vector([&](auto k) { acc[k] = B::load_unaligned(p + k * W); }, Vectors{});
            break;
        case chain_case(Kind::Save, 0):
            each_vector([&](auto k) { acc[k].store_aligned(temps + step.leaf * BW + k * W); },
                        Vectors{});
            break;
            // A case per function of kernel_fns.def's chainable column: its value, true or
            // false, picks the macro that writes the case or nothing.
#define NG_CHAIN_UNARY_false(Name, polynomial)
#define NG_CHAIN_UNARY_true(Name, polynomial)                                               \
    case chain_case(Kind::Unary, static_cast<int32_t>(UnaryFn::Name)):                      \
        if constexpr (Cheap && (polynomial))                                                \
            bad_kernel_request("polynomial step in a cheap chain");                         \
        else                                                                                \
            each_vector([&](auto k) { acc[k] = unary_value<UnaryFn::Name, Arch>(acc[k]); }, \
                        Vectors{});                                                         \
        break;
#define NG_UNARY_FN(Name, name, float_only, bool_ok, chainable, polynomial) \
    NG_CHAIN_UNARY_##chainable(Name, polynomial)
#define NG_CHAIN_BINARY_false(Name)
#define NG_CHAIN_BINARY_true(Name)                                                           \
    case chain_case(Kind::Binary, static_cast<int32_t>(BinaryFn::Name)):                     \
        each_vector(                                                                         \
            [&](auto k) {                                                                    \
                acc[k] = binary_value<BinaryFn::Name>(acc[k], B::load_unaligned(p + k * W)); \
            },                                                                               \
            Vectors{});                                                                      \
        break;                                                                               \
    case chain_case(Kind::BinaryReversed, static_cast<int32_t>(BinaryFn::Name)):             \
        each_vector(                                                                         \
            [&](auto k) {                                                                    \
                acc[k] = binary_value<BinaryFn::Name>(B::load_unaligned(p + k * W), acc[k]); \
            },                                                                               \
            Vectors{});                                                                      \
        break;                                                                               \
    case chain_case(Kind::BinarySelf, static_cast<int32_t>(BinaryFn::Name)):                 \
        each_vector([&](auto k) { acc[k] = binary_value<BinaryFn::Name>(acc[k], acc[k]); },  \
                    Vectors{});                                                              \
        break;
#define NG_BINARY_FN(Name, name, bool_ok, chainable) NG_CHAIN_BINARY_##chainable(Name)
#include "kernels/kernel_fns.def"
#undef NG_CHAIN_UNARY_false
#undef NG_CHAIN_UNARY_true
#undef NG_CHAIN_BINARY_false
#undef NG_CHAIN_BINARY_true
        default: bad_kernel_request("chain step");
        }
    }
    if constexpr (Out == ChainOut::Sum)
        each_vector([&](auto k) { (B::load_aligned(o + k * W) + acc[k]).store_aligned(o + k * W); },
                    Vectors{});
    else if constexpr (Out == ChainOut::Stream)
        each_vector([&](auto k) { store_streaming<Arch>(o + k * W, acc[k]); }, Vectors{});
    else
        each_vector([&](auto k) { acc[k].store_unaligned(o + k * W); }, Vectors{});
}

// The sum of `blocks` whole blocks of kChainBlockVectors<Arch, Sum> vectors, as one vector:
// chain_block inlined into one loop whose per-vector sums, and the cascade above them, the
// compiler keeps in registers from the first block to the last (a call per block, with the sums'
// loads and stores and the register file's cleanup, was slower: bench_ab --threads 1 --only
// l2_diff).
// Every kCascadeBlocks blocks the sums are combined pairwise into a group sum, added to level 1;
// every kCascadeBlocks group sums level 1 goes into level 2, and so on: each addition adds up
// values of like size, so the rounding error grows with the log of n, as in a pairwise sum, while
// the sums stay in registers however long the run (see innermost_reduced in reduce.cpp). The leaves
// with an advance move by it after each block. A Cheap chain's loop is compiled without the
// polynomial steps: their constants and intermediate values otherwise lead the compiler to keep
// the block's values and sums on the stack around the whole switch, and the cheap chains are the
// memory-bound ones (l2_diff's sum((x - y)^2) runs closer to a plain read of its inputs without
// the polynomial cases: bench_ab --threads 1 --only l2_diff, against a build with them).
template <class Arch, class T, bool Cheap>
[[gnu::flatten]] xsimd::batch<T, Arch> chain_sum_blocks(const ChainStep *code, int32_t count,
                                                        const T **leaf, const int64_t *advance,
                                                        int32_t leaf_count, T *temps,
                                                        int64_t blocks) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr int64_t V = kChainBlockVectors<Arch, ChainOut::Sum>;
    constexpr int64_t kCascadeBlocks = 16;
    using Vectors = std::make_index_sequence<V>;
    alignas(64) T local[V * W];
    const auto group_sum = [&] {
        B v[V];
        each_vector([&](auto k) { v[k] = B::load_aligned(local + k * W); }, Vectors{});
        for (int64_t width = V / 2; width >= 1; width /= 2)
            for (int64_t k = 0; k < width; ++k) v[k] = v[k] + v[k + width];
        each_vector([&](auto k) { B(T(0)).store_aligned(local + k * W); }, Vectors{});
        return v[0];
    };
    each_vector([&](auto k) { B(T(0)).store_aligned(local + k * W); }, Vectors{});
    B level1(T(0)), level2(T(0)), level3(T(0));
    for (int64_t b = 0; b < blocks; ++b) {
        chain_block<Arch, V, T, ChainOut::Sum, Cheap>(code, count, leaf, temps, local);
        for (int32_t l = 0; l < leaf_count; ++l) leaf[l] += advance[l];
        const int64_t done = b + 1;
        if (done % kCascadeBlocks) continue;
        level1 += group_sum();
        if (done % (kCascadeBlocks * kCascadeBlocks)) continue;
        level2 += level1;
        level1 = B(T(0));
        if (done % (kCascadeBlocks * kCascadeBlocks * kCascadeBlocks)) continue;
        level3 += level2;
        level2 = B(T(0));
    }
    return ((group_sum() + level1) + level2) + level3;
}

// Sum: out[0] = the sum of the chain's n values instead, none of them stored: the whole blocks
// summed in registers by chain_sum_blocks, the rest added to that vector, then its lanes added
// up. A reduction reads its inputs once and keeps nothing of the chain in memory (a tile of
// values stored and read back costs much more than the reads alone: bench_ab --threads 1 --only
// l2_diff). Stream: the whole blocks go past the cache when `out` is aligned to a vector (the
// tiles of an aligned tensor are), without a fence: the caller fences once after its last tile
// (fence_streamed_stores).
template <class Arch, class T, ChainOut Out>
void float_chain(int64_t n, const ChainStep *code, int32_t count, const T *const *inputs,
                 const int *input_steps, int32_t input_count, int32_t leaf_count, T *out) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr bool Sum = Out == ChainOut::Sum;
    // The values of a whole block; a temporary's or a broadcast value's block holds kChainVectors
    // vectors (chain_block's temps), of which a summed or streamed chain's blocks read the first.
    constexpr int64_t V = kChainBlockVectors<Arch, Out>;
    constexpr int64_t BW = V * W;
    alignas(64) T blocks[kMaxChainLeaves][kChainVectors * W];
    const T *leaf[kMaxChainLeaves];
    int64_t advance[kMaxChainLeaves];
    for (int32_t l = 0; l < leaf_count; ++l) {
        leaf[l] = blocks[l];
        advance[l] = 0;
    }
    const int64_t filled = n >= BW ? BW : W;  // of a broadcast value's block that is read
    for (int32_t l = 0; l < input_count; ++l) {
        if (input_steps[l]) {
            leaf[l] = inputs[l];
            advance[l] = BW;
        } else {
            for (int64_t j = 0; j < filled; ++j) blocks[l][j] = *inputs[l];
        }
    }

    T *po = out;
    const int64_t len = n;
    B total(T(0));
    int64_t i = 0;
    const auto whole_blocks = [&](auto how) {
        for (; i + BW <= len; i += BW) {
            chain_block<Arch, V, T, decltype(how)::value>(code, count, leaf, blocks[0], po + i);
            for (int32_t l = 0; l < input_count; ++l) leaf[l] += advance[l];
        }
    };
    if constexpr (Sum) {
        const int64_t whole = len / BW;
        total = chain_is_cheap(code, count)
                    ? chain_sum_blocks<Arch, T, true>(code, count, leaf, advance, input_count,
                                                      blocks[0], whole)
                    : chain_sum_blocks<Arch, T, false>(code, count, leaf, advance, input_count,
                                                       blocks[0], whole);
        i = len / BW * BW;
    } else if (Out == ChainOut::Stream && reinterpret_cast<uintptr_t>(po) % sizeof(B) == 0) {
        whole_blocks(std::integral_constant<ChainOut, ChainOut::Stream>{});
    } else {
        whole_blocks(std::integral_constant<ChainOut, ChainOut::Store>{});
    }
    // The rest one vector at a time (short rows are common: a [128, 10] tile is 10 values), the
    // last values through the same code on a zero-padded copy of one vector of each array (its
    // leaves read memory), loaded with load_first.
    for (; i + W <= len; i += W) {
        if constexpr (Sum) {
            alignas(64) T values[W];
            chain_block<Arch, 1>(code, count, leaf, blocks[0], values);
            total += B::load_aligned(values);
        } else {
            chain_block<Arch, 1>(code, count, leaf, blocks[0], po + i);
        }
        for (int32_t l = 0; l < input_count; ++l) leaf[l] += advance[l] ? W : 0;
    }
    if (i < len) {
        const int64_t m = len - i;
        for (int32_t l = 0; l < input_count; ++l) {
            if (!advance[l]) continue;
            load_first<Arch>(inputs[l] + i, m).store_aligned(blocks[l]);
            leaf[l] = blocks[l];
        }
        alignas(64) T tail[W];
        chain_block<Arch, 1>(code, count, leaf, blocks[0], tail);
        if constexpr (Sum)
            total += keep_first<Arch>(B::load_aligned(tail), m, T(0));  // the padding's are 0
        else
            store_first<Arch>(po + i, m, B::load_aligned(tail));
    }
    if constexpr (Sum) out[0] = xsimd::hadd(total);
}

}  // namespace
}  // namespace ng::kernels
