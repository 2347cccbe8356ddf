// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): the reductions
// (VectorTable::reduce_all, reduce_rows, accumulate, accumulate_rows, accumulate_lanes): float
// sums as pairwise cascades, products and extrema with several accumulators, and the outer-axis
// accumulations of several rows or lanes in one pass over the accumulators.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/streaming.hpp"
#include "kernels/vector_ops/loops.hpp"
#include "kernels/vector_ops/math.hpp"

namespace ng::kernels {
namespace {

template <class T>
constexpr T identity_of(ReduceFn f) {
    using L = std::numeric_limits<T>;
    switch (f) {
    case ReduceFn::Sum: return T(0);
    case ReduceFn::Prod: return T(1);
    case ReduceFn::Max: return L::has_infinity ? -L::infinity() : L::lowest();
    case ReduceFn::Min: return L::has_infinity ? L::infinity() : L::max();
    }
    return T(0);
}

// body(integral_constant<ReduceFn, F>) for the run-time f: one instantiation per reduction in a
// kernel whose loop is specialised for it; an unknown f is refused, naming the kernel.
template <class Body>
void by_reduce_fn(ReduceFn f, const char *kernel, Body body) {
    switch (f) {
    case ReduceFn::Sum: return body(std::integral_constant<ReduceFn, ReduceFn::Sum>{});
    case ReduceFn::Prod: return body(std::integral_constant<ReduceFn, ReduceFn::Prod>{});
    case ReduceFn::Max: return body(std::integral_constant<ReduceFn, ReduceFn::Max>{});
    case ReduceFn::Min: return body(std::integral_constant<ReduceFn, ReduceFn::Min>{});
    }
    bad_kernel_request(kernel);
}

// The batch operation of a reduction, one instantiation per ReduceFn.
template <ReduceFn F>
struct Combine {
    template <class B>
    B operator()(B a, B b) const {
        if constexpr (F == ReduceFn::Sum)
            return a + b;
        else if constexpr (F == ReduceFn::Prod)
            return a * b;
        else if constexpr (F == ReduceFn::Max)
            return maximum_nan(a, b);
        else
            return minimum_nan(a, b);
    }
};

// The whole vectors of an array, read by index for a product, max or min. On AVX-512, where the
// array starts inside a vector (a NumPy array's data starts 16 bytes into its allocation), every
// 64-byte load would cross a cache line: vector k is then assembled from the two aligned vectors it
// spans, with one permutation, except the first and the last, whose other aligned neighbour lies
// outside the array. The lanes hold the same values, so a reduction keeps its bits. Assembled
// vectors beat loads that cross lines (shown when sums read 512-bit vectors too: bench_ab
// --threads 1 --only sum_axis1 --offset 16).
template <class Arch, class T>
class VectorReader {
    using B = xsimd::batch<T, Arch>;
    using Lane = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;  // an index per lane
    static constexpr int64_t W = B::size;

public:
    // Only AVX-512's loads are a line wide (and the permutation is AVX-512's).
    static constexpr bool kAssembles = std::is_same_v<Arch, xsimd::avx512f>;
    // The elements of x since the vector boundary before it, on AVX-512; 0 where x starts on a
    // boundary or inside an element, and on other instruction sets. A reader is made only for a
    // shift other than 0.
    static int64_t shift_of(const T *x) {
        static_assert(!kAssembles || sizeof(B) == 64, "an AVX-512 vector is a line");
        const int64_t to_line = elements_to_line(x, sizeof(T));
        return kAssembles && to_line != 0 ? W - to_line : 0;
    }
    // A reader of arrays that start `shift` elements past a vector boundary: lane j of an
    // assembled vector is element shift + j of the two aligned vectors side by side. Made once per
    // block of a reduction, so the indices come from a constant and one addition.
    explicit VectorReader(int64_t shift)
        : shift_(shift),
          index_(xsimd::batch<Lane, Arch>::load_aligned(kLaneNumbers) +
                 xsimd::batch<Lane, Arch>(Lane(shift))) {}
    // Vector k of x[0..n), which starts shift elements past a boundary; k < n / W.
    B operator()(const T *x, int64_t n, int64_t k) const {
        if constexpr (kAssembles) {
            if (k > 0 && k + 2 <= n / W) {
                const T *aligned = x - shift_;
                const B low = B::load_aligned(aligned + k * W),
                        high = B::load_aligned(aligned + (k + 1) * W);
                if constexpr (sizeof(T) == 4)
                    return _mm512_permutex2var_ps(low, index_, high);
                else
                    return _mm512_permutex2var_pd(low, index_, high);
            }
        }
        return B::load_unaligned(x + k * W);
    }

private:
    alignas(64) static constexpr Lane kLaneNumbers[16] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                          8, 9, 10, 11, 12, 13, 14, 15};
    int64_t shift_;
    xsimd::batch<Lane, Arch> index_;
};

// f over x[0..n) for a product, max or min, with four independent vector accumulators (latency
// hiding); the tail is padded with the identity.
template <class Arch, class T, ReduceFn F, bool Assembled>
T reduce_block(const T *x, int64_t n) {
    static_assert(F != ReduceFn::Sum, "sums are pairwise_sum's");
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr T identity = identity_of<T>(F);
    Combine<F> op;
    // The vectors come from `vector(k)`: loaded as they lie, or assembled from aligned loads
    // (VectorReader) where x starts inside a vector.
    const auto lanes_of = [&](auto vector) {
        B acc0(identity), acc1(identity), acc2(identity), acc3(identity);
        int64_t i = 0;
        for (; i + 4 * W <= n; i += 4 * W) {
            acc0 = op(acc0, vector(i / W));
            acc1 = op(acc1, vector(i / W + 1));
            acc2 = op(acc2, vector(i / W + 2));
            acc3 = op(acc3, vector(i / W + 3));
        }
        for (; i + W <= n; i += W) acc0 = op(acc0, vector(i / W));
        if (i < n) acc1 = op(acc1, load_first_or<Arch>(x + i, n - i, identity));
        return op(op(acc0, acc1), op(acc2, acc3));
    };
    B acc;
    if constexpr (Assembled) {
        const VectorReader<Arch, T> read(VectorReader<Arch, T>::shift_of(x));
        acc = lanes_of([&](int64_t k) { return read(x, n, k); });
    } else
        acc = lanes_of([x](int64_t k) { return B::load_unaligned(x + k * W); });
    alignas(64) T lanes[W];
    acc.store_aligned(lanes);
    B folded(lanes[0]);
    for (int64_t j = 1; j < W; ++j) folded = op(folded, B(lanes[j]));
    return folded.get(0);
}

// The instruction set a float sum reads with: 256-bit vectors on AVX-512 too. The row sums of a
// matrix run closer to a plain read of it with 256-bit loads than with 512-bit ones, also from an
// array that starts inside a line, where half the 256-bit loads cross one (bench_ab --threads 1
// --only sum_axis1, with and without --offset 16, against a build that reads 512 bits).
template <class Arch>
using SumArch =
    std::conditional_t<std::is_same_v<Arch, xsimd::avx512f>, xsimd::fma3<xsimd::avx2>, Arch>;

// Values per chunk of cascade_sum: 16 steps of four vectors.
template <class Arch, class T>
constexpr int64_t kSumChunk = 64 * int64_t(xsimd::batch<T, Arch>::size);

// The sums of K arrays x[k][0..n), n at most four chunks, each as a cascade: four vector
// accumulators (latency hiding) take a chunk, 16 vectors each, and are then added to four of the
// next level; the levels and the lanes are added as trees at the end. Rounding chains of at most
// 16 + 4 additions before the trees. The K arrays are read side by side, vector by vector, and each
// sum gets the bits it gets alone. The loop stays rolled, one step of four loads per array after
// another: 256-value blocks, each unrolled and folded to one value, were slower (bench_ab
// --threads 1 --only sum_axis1).
template <class Arch, class T, int K>
void cascade_sums(const T *const *x, int64_t n, T *sums) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    const B zero(T(0));
    B level[K][4];
    for (auto &levels : level)
        for (B &v : levels) v = zero;
    int64_t i = 0;
    for (; i + kSumChunk<Arch, T> <= n;) {
        B acc[K][4];
        for (auto &lanes : acc)
            for (B &v : lanes) v = zero;
        for (int step = 0; step < 16; ++step, i += 4 * W)
            for (int lane = 0; lane < 4; ++lane)
                for (int k = 0; k < K; ++k) acc[k][lane] += B::load_unaligned(x[k] + i + lane * W);
        for (int k = 0; k < K; ++k)
            for (int lane = 0; lane < 4; ++lane) level[k][lane] += acc[k][lane];
    }
    for (int k = 0; k < K; ++k) {
        // The last partial chunk: its whole vectors, then the rest padded with zeros.
        B rest = zero;
        int64_t j = i;
        for (; j + W <= n; j += W) rest += B::load_unaligned(x[k] + j);
        if (j < n) rest += load_first<Arch>(x[k] + j, n - j);
        // xsimd's hadd adds halves to halves: a tree over the lanes too.
        sums[k] = xsimd::hadd(((level[k][0] + level[k][1]) + (level[k][2] + level[k][3])) + rest);
    }
}

template <class Arch, class T>
T cascade_sum(const T *x, int64_t n) {
    T sum;
    cascade_sums<Arch, T, 1>(&x, n, &sum);
    return sum;
}

// Values per leaf of pairwise_sum: four chunks.
template <class Arch, class T>
constexpr int64_t kSumLeaf = 4 * kSumChunk<SumArch<Arch>, T>;

template <class Arch, class T>
T pairwise_sum(const T *x, int64_t n);

// pairwise_sum above one leaf: the sums of two halves, the first a whole number of leaves. Kept
// out of line, so that pairwise_sum's leaf case inlines where it is called.
template <class Arch, class T>
[[gnu::noinline]] T pairwise_halves(const T *x, int64_t n) {
    constexpr int64_t kLeaf = kSumLeaf<Arch, T>;
    const int64_t half = (n / 2 + kLeaf - 1) / kLeaf * kLeaf;
    return pairwise_sum<Arch, T>(x, half) + pairwise_sum<Arch, T>(x + half, n - half);
}

// Pairwise summation over leaves of four chunks: the rounding error grows with log(n) instead of
// n. The same values give the same bits wherever they lie, on a line or not. A leaf is summed in
// the caller's loop, which is faster than a call per leaf (bench_ab --threads 1 --only sum_axis1,
// two leaves a row).
template <class Arch, class T>
inline T pairwise_sum(const T *x, int64_t n) {
    if (n <= kSumLeaf<Arch, T>) return cascade_sum<SumArch<Arch>, T>(x, n);
    return pairwise_halves<Arch, T>(x, n);
}

// The sums of `rows` rows of n values (row r at x + r * x_stride, its sum to out[r * out_stride])
// as reduce_rows computes them for tiles of `tile` values, where every row is at most two tiles
// and a tile at most one leaf: each tile a cascade, a row's two tiles added. Row r is read side by
// side with row r + (rows + 1) / 2, two streams half the rows apart: faster than one row after
// another with the AVX-512 and the AVX2 tables, and than three or four streams; two adjacent rows
// read side by side are much slower than one row after another (bench_ab --threads 1 --only
// sum_axis1, one build per way).
template <class Arch, class T>
void paired_row_sums(int64_t rows, int64_t n, int64_t tile, const T *x, int64_t x_stride, T *out,
                     int64_t out_stride) {
    const int64_t half = (rows + 1) / 2;
    const auto sum_rows = [&](auto streams, int64_t r) {
        constexpr int K = decltype(streams)::value;
        const T *first[K], *second[K];
        T head[K], tail[K];
        for (int k = 0; k < K; ++k) {
            first[k] = x + (r + k * half) * x_stride;
            second[k] = first[k] + tile;
        }
        if (n <= tile) {
            cascade_sums<SumArch<Arch>, T, K>(first, n, head);
            for (int k = 0; k < K; ++k) out[(r + k * half) * out_stride] = head[k];
            return;
        }
        cascade_sums<SumArch<Arch>, T, K>(first, tile, head);
        cascade_sums<SumArch<Arch>, T, K>(second, n - tile, tail);
        for (int k = 0; k < K; ++k) out[(r + k * half) * out_stride] = head[k] + tail[k];
    };
    for (int64_t r = 0; r < rows - half; ++r) sum_rows(std::integral_constant<int, 2>{}, r);
    if (rows % 2) sum_rows(std::integral_constant<int, 1>{}, half - 1);
}

// A product, max or min reads its vectors one way for the whole call, chosen once: each way gets
// an instantiation of its own (a test in every block made a sum of aligned rows, when sums read
// this way, slower: bench_ab --threads 1 --only sum_axis1).
template <class Arch, class T, bool Assembled>
T float_reduce_read(ReduceFn f, const T *x, int64_t n) {
    switch (f) {
    case ReduceFn::Prod: return reduce_block<Arch, T, ReduceFn::Prod, Assembled>(x, n);
    case ReduceFn::Max: return reduce_block<Arch, T, ReduceFn::Max, Assembled>(x, n);
    case ReduceFn::Min: return reduce_block<Arch, T, ReduceFn::Min, Assembled>(x, n);
    case ReduceFn::Sum: break;  // float_reduce's
    }
    bad_kernel_request("reduce_all");
}

template <class Arch, class T>
T float_reduce(ReduceFn f, const T *x, int64_t n) {
    if (f == ReduceFn::Sum) return pairwise_sum<Arch, T>(x, n);  // the same reads anywhere
    if constexpr (VectorReader<Arch, T>::kAssembles)
        if (VectorReader<Arch, T>::shift_of(x) != 0)
            return float_reduce_read<Arch, T, true>(f, x, n);
    return float_reduce_read<Arch, T, false>(f, x, n);
}

template <class T>
inline T integer_combine(ReduceFn f, T acc, T v) {
    using U = Unsigned<T>;
    switch (f) {
    case ReduceFn::Sum: return static_cast<T>(U(acc) + U(v));
    case ReduceFn::Prod: return static_cast<T>(U(acc) * U(v));
    case ReduceFn::Max: return acc < v ? v : acc;
    case ReduceFn::Min: return v < acc ? v : acc;
    }
    return acc;
}

template <class T>
T integer_reduce(ReduceFn f, const T *x, int64_t n) {
    T acc = identity_of<T>(f);
    switch (f) {  // one loop per function so each one vectorises
    case ReduceFn::Sum:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Sum, acc, x[i]);
        break;
    case ReduceFn::Prod:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Prod, acc, x[i]);
        break;
    case ReduceFn::Max:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Max, acc, x[i]);
        break;
    case ReduceFn::Min:
        for (int64_t i = 0; i < n; ++i) acc = integer_combine(ReduceFn::Min, acc, x[i]);
        break;
    }
    return acc;
}

template <class Arch, class T>
void float_accumulate(ReduceFn f, int64_t n, const T *x, T *acc) {
    by_reduce_fn(f, "accumulate", [&](auto fn) {
        map_binary<Arch>(n, acc, 1, x, 1, acc, Combine<decltype(fn)::value>{});
    });
}

template <class T>
void integer_accumulate(ReduceFn f, int64_t n, const T *x, T *acc) {
    switch (f) {
    case ReduceFn::Sum:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Sum, a, v); });
    case ReduceFn::Prod:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Prod, a, v); });
    case ReduceFn::Max:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Max, a, v); });
    case ReduceFn::Min:
        return scalar_binary(n, acc, 1, x, 1, acc,
                             [](T a, T v) { return integer_combine(ReduceFn::Min, a, v); });
    }
    bad_kernel_request("accumulate");
}

// (r0 r1) r2 for three.
template <int32_t Lo, int32_t Hi, class T, class Op, class Load>
auto combine_rows(const T *const *rows, Op op, Load load) {
    if constexpr (Hi - Lo == 1) {
        return load(rows[Lo]);
    } else {
        constexpr int32_t Mid = Lo + (Hi - Lo + 1) / 2;
        return op(combine_rows<Lo, Mid>(rows, op, load), combine_rows<Mid, Hi>(rows, op, load));
    }
}

// float_accumulate_rows for Count rows, a count known at compile time, with the row pointers
// copied into locals first. The loop that took the count at run time and read the pointers
// through the caller's array was slower, with the AVX-512 and the AVX2 tables (an outer-axis sum:
// bench_ab --threads 1 --only sum_axis0).
template <class Arch, class T, ReduceFn F, int32_t Count>
void accumulate_rows_of(int64_t n, const T *const *rows, T *acc) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    Combine<F> op;
    const T *row[Count];
    for (int32_t r = 0; r < Count; ++r) row[r] = rows[r];
    int64_t i = 0;
    for (; i + W <= n; i += W)
        op(B::load_unaligned(acc + i),
           combine_rows<0, Count>(row, op, [i](const T *p) { return B::load_unaligned(p + i); }))
            .store_unaligned(acc + i);
    if (i == n) return;
    // The tail through the same vector code, as map_binary's.
    const int64_t m = n - i;
    const auto first = [i, m](const T *p) { return load_first<Arch>(p + i, m); };
    store_first<Arch>(acc + i, m, op(first(acc), combine_rows<0, Count>(row, op, first)));
}

// acc[i] = f(acc[i], f over rows[0..count)[i], combined pairwise) for 1 to kMaxAccumulateRows
// rows: one pass over acc for several rows (an outer-axis reduction reads and writes its
// accumulators once per group of rows instead of once per row).
template <class Arch, class T, ReduceFn F>
void float_accumulate_rows(int64_t n, const T *const *rows, int32_t count, T *acc) {
    static_assert(kMaxAccumulateRows == 8, "one case per count below");
    switch (count) {
    case 1: return accumulate_rows_of<Arch, T, F, 1>(n, rows, acc);
    case 2: return accumulate_rows_of<Arch, T, F, 2>(n, rows, acc);
    case 3: return accumulate_rows_of<Arch, T, F, 3>(n, rows, acc);
    case 4: return accumulate_rows_of<Arch, T, F, 4>(n, rows, acc);
    case 5: return accumulate_rows_of<Arch, T, F, 5>(n, rows, acc);
    case 6: return accumulate_rows_of<Arch, T, F, 6>(n, rows, acc);
    case 7: return accumulate_rows_of<Arch, T, F, 7>(n, rows, acc);
    case 8: return accumulate_rows_of<Arch, T, F, 8>(n, rows, acc);
    }
    bad_kernel_request("accumulate_rows");
}

template <class T>
void integer_accumulate_rows(ReduceFn f, int64_t n, const T *const *rows, int32_t count, T *acc) {
    for (int32_t r = 0; r < count; ++r) integer_accumulate(f, n, rows[r], acc);
}

// accumulate_lanes for Lanes lanes of `rows` rows of n values, n a whole number of vectors. Each
// lane is one stream of rows * n / W vectors, and lane j reads its vector v at step v + j, one
// vector behind lane j - 1, so that at any step the lanes read different columns. Vector v's
// column gathers lane 0's value at step v and lane j's at step v + j in registers (a ring of
// Lanes vectors), and goes into acc at step v + Lanes - 1: f(acc, ((lane 0 lane 1) lane 2) ...).
// Faster than one call of accumulate_rows_of per row of every lane, each call reading the lanes
// at the same column, with the AVX-512 and the AVX2 tables (an outer-axis sum, five lanes:
// bench_ab --threads 1 --only sum_axis0); a likely reason, unconfirmed without cache counters:
// rows 16 KiB apart put the lanes' lines of one column in a single set of the first-level cache.
template <class Arch, class T, ReduceFn F, int32_t Lanes>
void accumulate_lanes_of(int64_t n, int64_t rows, const T *const *starts, T *acc) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    Combine<F> op;
    const T *lane[Lanes];
    for (int32_t j = 0; j < Lanes; ++j) lane[j] = starts[j];
    const int64_t per_row = n / W, vectors = rows * per_row;  // vectors per lane
    // The column of vector v gathers in slot v % Lanes of a ring of separate variables (GCC kept
    // an array of them partly in memory).
    B s0(T(0)), s1(T(0)), s2(T(0)), s3(T(0)), s4(T(0));
    static_assert(Lanes <= kMaxAccumulateLanes && kMaxAccumulateLanes == 5, "a slot per lane");
    const auto ring = [&](auto slot) -> B & {
        return std::get<decltype(slot)::value>(std::tie(s0, s1, s2, s3, s4));
    };
    int64_t column = 0;  // of the vector that completes at this step
    // Step t, Phase = t % Lanes; checked: some lane may have no vector t - j (the first and last
    // Lanes - 1 steps).
    const auto step = [&](auto phase, int64_t t, auto checked) __attribute__((always_inline)) {
        constexpr int32_t Phase = int32_t(decltype(phase)::value);
        each_vector(
            [&](auto lane_index) {
                constexpr int32_t j = int32_t(decltype(lane_index)::value);
                constexpr int32_t slot = ((Phase - j) % Lanes + Lanes) % Lanes;
                const int64_t v = t - j;
                if (decltype(checked)::value && (v < 0 || v >= vectors)) return;
                const B x = B::load_unaligned(lane[j] + v * W);
                B &sum = ring(std::integral_constant<size_t, slot>{});
                sum = j == 0 ? x : op(sum, x);
            },
            std::make_index_sequence<Lanes>{});
        const int64_t done = t - (Lanes - 1);
        if (decltype(checked)::value && (done < 0 || done >= vectors)) return;
        T *a = acc + column * W;
        op(B::load_unaligned(a), ring(std::integral_constant<size_t, (Phase + 1) % Lanes>{}))
            .store_unaligned(a);
        if (++column == per_row) column = 0;
    };
    // Every phase of a block of Lanes steps from t, a multiple of Lanes: the ring's slots stay
    // compile-time indices, so the ring stays in registers.
    const auto block = [&](int64_t t, auto checked) __attribute__((always_inline)) {
        each_vector(
            [&](auto phase) __attribute__((always_inline)) {
                step(phase, t + int64_t(decltype(phase)::value), checked);
            },
            std::make_index_sequence<Lanes>{});
    };
    const int64_t steps = vectors + Lanes - 1;
    block(0, std::true_type{});  // the first steps, where the later lanes have not started
    int64_t t = Lanes;
    // The steps where every lane has a vector: t >= Lanes - 1 and t + Lanes <= vectors.
    for (; t + Lanes <= vectors; t += Lanes) block(t, std::false_type{});
    for (; t < steps; t += Lanes) block(t, std::true_type{});
}

// acc[i] = f(acc[i], column i of every row of 1 to kMaxAccumulateLanes lanes), lane j being `rows`
// rows of n values one after another from starts[j]. Rows of a whole number of vectors go
// through accumulate_lanes_of; others one row of each lane at a time through accumulate_rows_of.
template <class Arch, class T, ReduceFn F>
void float_accumulate_lanes(int64_t n, int64_t rows, const T *const *starts, int32_t lanes,
                            T *acc) {
    constexpr int64_t W = xsimd::batch<T, Arch>::size;
    if (n % W != 0) {
        const T *row[kMaxAccumulateLanes];
        for (int64_t r = 0; r < rows; ++r) {
            for (int32_t j = 0; j < lanes; ++j) row[j] = starts[j] + r * n;
            float_accumulate_rows<Arch, T, F>(n, row, lanes, acc);
        }
        return;
    }
    static_assert(kMaxAccumulateLanes == 5, "one case per count below");
    switch (lanes) {
    case 1: return accumulate_lanes_of<Arch, T, F, 1>(n, rows, starts, acc);
    case 2: return accumulate_lanes_of<Arch, T, F, 2>(n, rows, starts, acc);
    case 3: return accumulate_lanes_of<Arch, T, F, 3>(n, rows, starts, acc);
    case 4: return accumulate_lanes_of<Arch, T, F, 4>(n, rows, starts, acc);
    case 5: return accumulate_lanes_of<Arch, T, F, 5>(n, rows, starts, acc);
    }
    bad_kernel_request("accumulate_lanes");
}

template <class T>
void integer_accumulate_lanes(ReduceFn f, int64_t n, int64_t rows, const T *const *starts,
                              int32_t lanes, T *acc) {
    for (int64_t r = 0; r < rows; ++r)
        for (int32_t j = 0; j < lanes; ++j) integer_accumulate(f, n, starts[j] + r * n, acc);
}

}  // namespace
}  // namespace ng::kernels
