// Part of the level-1 primitives (the map is in kernels/vector_ops_impl.hpp): softmax and
// log-softmax of contiguous rows (VectorTable::softmax_rows), each row's max, exponentials and sum,
// and scaling while the row is in the cache, with the narrow float exponentials where the row
// allows them and stores past the cache for large outputs.
#pragma once

#include <xsimd/xsimd.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/streaming.hpp"
#include "kernels/vector_ops/loops.hpp"
#include "kernels/vector_ops/math.hpp"

namespace ng::kernels {
namespace {

// The widest spread max - min of a float softmax row for exp_narrow_float.
constexpr float kNarrowSoftmaxRange = 87.f;

// The exponentials of a softmax row: every x - max of any row (Full), or, where fused
// multiply-adds exist, of a float row whose values lie within kNarrowSoftmaxRange of its max or,
// on AVX-512, of any float row whose exponentials come out finite (Narrow); on AVX-512, of any
// float row (NarrowClamped).
enum class RowExp { Full, Narrow, NarrowClamped };

// Where softmax takes a float row's exponentials by exp_narrow_float whatever the row's range:
// with AVX-512's vscalefps. A row goes unclamped, and again clamped only when its sum is not
// finite (-inf among its values, or values more than about 1e20 below its max; a NaN row stays
// NaN either way), so that no row needs its smallest value: a pass that finds only the max is
// faster (bench_ab --threads 1 --only softmax, against a build that finds both). The results are
// the same bits whether a row went clamped or not (clamped, values below -104 give exactly 0, as
// they do unclamped when the sum is finite), so they do not depend on how threads split the rows.
template <class Arch, class T>
constexpr bool kSoftmaxNarrowAnyRow =
    std::conjunction_v<std::is_same<Arch, xsimd::avx512f>, std::is_same<T, float>>;

// Whether a softmax row's range needs its smallest value: where the narrow exponential takes only
// rows within kNarrowSoftmaxRange of their max (AVX2 with fused multiply-adds). Double rows and
// rows without fused multiply-adds take the full exponential.
template <class Arch, class T>
constexpr bool kSoftmaxRowMin =
    kFusedMultiplyAdd<Arch> && !kSoftmaxNarrowAnyRow<Arch, T> && std::is_same_v<T, float>;

// exp(d) for d = x - shift <= 0 (or NaN): the float exp above, xsimd's (kept in its domain) for
// double.
template <class Arch, class T>
inline xsimd::batch<T, Arch> exp_nonpositive(xsimd::batch<T, Arch> d) {
    if constexpr (std::is_same_v<T, float>)
        return exp_nonpositive_float<Arch>(d);
    else
        return exp_double<Arch>(d);
}

template <class Arch, class T, RowExp Kind>
inline xsimd::batch<T, Arch> row_exp(xsimd::batch<T, Arch> d) {
    if constexpr (Kind == RowExp::Narrow) {
        static_assert(std::is_same_v<T, float>, "the narrow exponential is float's");
        return exp_narrow_float<Arch>(d);
    } else if constexpr (Kind == RowExp::NarrowClamped) {
        static_assert(kSoftmaxNarrowAnyRow<Arch, T>, "only vscalefps takes any row");
        return exp_narrow_float<Arch, true>(d);
    } else {
        return exp_nonpositive<Arch, T>(d);
    }
}

// The largest and, where kSoftmaxRowMin, the smallest of x[0..n), NaN ignored (-inf and +inf when
// every value is NaN or n is 0; min is -inf when not computed): the x86 max and min return their
// second operand when either is NaN, and the accumulators are always the second. A NaN still
// makes the whole softmax row NaN, through its exponential in the sum.
template <class T>
struct RowRange {
    T max, min;
};
//
// The same loop also runs a row's last pass: finish_vector(i) on the values [i, i + W) of every
// whole vector and finish_one(i) on each of the rest, over another row of n values. A row's
// last pass is bound by its stores and the next row's range by its loads and comparisons, so
// together they take little more than the stores alone (rows in the cache: bench_ab --threads 1
// --only softmax --shape 256,1024 --runs 200, against a build with the passes apart).
template <class Arch, class T, class FinishVector, class FinishOne>
inline RowRange<T> row_range_finishing(const T *x, int64_t n, FinishVector finish_vector,
                                       FinishOne finish_one) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr T inf = std::numeric_limits<T>::infinity();
    constexpr bool kMin = kSoftmaxRowMin<Arch, T>;
    B hi0(-inf), hi1(-inf), lo0(inf), lo1(inf);
    int64_t i = 0;
    for (; i + 2 * W <= n; i += 2 * W) {
        const B a = B::load_unaligned(x + i), b = B::load_unaligned(x + i + W);
        finish_vector(i);
        finish_vector(i + W);
        hi0 = xsimd::max(a, hi0);
        hi1 = xsimd::max(b, hi1);
        if constexpr (kMin) {
            lo0 = xsimd::min(a, lo0);
            lo1 = xsimd::min(b, lo1);
        }
    }
    for (; i + W <= n; i += W) {
        const B a = B::load_unaligned(x + i);
        finish_vector(i);
        hi0 = xsimd::max(a, hi0);
        if constexpr (kMin) lo0 = xsimd::min(a, lo0);
    }
    if (i < n) {  // the tail padded with values that change neither the max nor the min
        hi1 = xsimd::max(load_first_or<Arch>(x + i, n - i, -inf), hi1);
        if constexpr (kMin) lo1 = xsimd::min(load_first_or<Arch>(x + i, n - i, inf), lo1);
        for (; i < n; ++i) finish_one(i);
    }
    // The accumulators hold no NaN, so the order the lanes are folded in does not matter.
    const auto larger = [](T a, T b) { return b > a ? b : a; };
    const auto smaller = [](T a, T b) { return b < a ? b : a; };
    RowRange<T> r{fold_lanes<Arch>(xsimd::max(hi0, hi1), larger), -inf};
    if constexpr (kMin) r.min = fold_lanes<Arch>(xsimd::min(lo0, lo1), smaller);
    return r;
}

template <class Arch, class T>
inline RowRange<T> row_range(const T *x, int64_t n) {
    const auto nothing = [](int64_t) {};
    return row_range_finishing<Arch>(x, n, nothing, nothing);
}

// Sums of blocks combined pairwise, as a binary counter: the sum of 2^k blocks waits at level k
// until a second one of the same size arrives, so the rounding error grows with the log of the
// number of blocks (as in pairwise_sum) while the values are visited once, in order.
template <class B>
struct PairwiseBlocks {
    B level[48];
    uint64_t count = 0;
    void add(B s) {
        int k = 0;
        for (uint64_t c = count; c & 1; c >>= 1) s = level[k++] + s;
        level[k] = s;
        ++count;
    }
    B total() const {
        B s(typename B::value_type(0));
        bool any = false;
        for (int k = 0; k < 48 && (count >> k) != 0; ++k)
            if (count >> k & 1) {
                s = any ? level[k] + s : level[k];
                any = true;
            }
        return s;
    }
};

// Sum of exp(x[i] - m) over the row; writes the exponentials to e unless it is null. Blocks of
// kSumBlock values go to two vector accumulators, blocks are combined pairwise. `fetch`: null or
// a row read later (n values of T), fetched into the cache one line per line of x; with it,
// `fetch_out`: null or the row written next, fetched for writing. along(i) runs once for each
// whole vector [i, i + W) of the row, in order, in the same loop: another row's work at the same
// positions (softmax_rows_pipelined's last pass over the row before). kStores: whether e is set,
// known when the loop is compiled (see row_exp_sum below).
template <class Arch, class T, RowExp Kind, bool kStores, class Along>
inline T row_exp_sum_storing(const T *x, int64_t n, T m, T *e, const T *fetch, const T *fetch_out,
                             Along along) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    constexpr int64_t kSumBlock = 256;
    static_assert(kSumBlock % (2 * W) == 0, "a block is whole pairs of vectors");
    constexpr int64_t kLine = 64 / int64_t(sizeof(T));
    const B shift(m);
    PairwiseBlocks<B> blocks;
    int64_t i = 0;
    for (; i + kSumBlock <= n; i += kSumBlock) {
        B s0(T(0)), s1(T(0));
        for (int64_t j = i; j < i + kSumBlock; j += 2 * W) {
            if (fetch)
                for (int64_t l = 0; l < 2 * W; l += kLine) {
                    __builtin_prefetch(fetch + j + l);
                    if (fetch_out) __builtin_prefetch(fetch_out + j + l, 1);
                }
            B v0 = row_exp<Arch, T, Kind>(B::load_unaligned(x + j) - shift);
            B v1 = row_exp<Arch, T, Kind>(B::load_unaligned(x + j + W) - shift);
            along(j);
            along(j + W);
            if constexpr (kStores) {
                v0.store_unaligned(e + j);
                v1.store_unaligned(e + j + W);
            }
            s0 += v0;
            s1 += v1;
        }
        blocks.add(s0 + s1);
    }
    if (fetch)
        for (int64_t l = i; l < n; l += kLine) {
            __builtin_prefetch(fetch + l);
            if (fetch_out) __builtin_prefetch(fetch_out + l, 1);
        }
    // The last partial block: whole vectors, then the tail padded with m (a value both
    // exponentials take) through the same vector code, the padding's exponentials set to 0.
    if (i < n) {
        B s(T(0));
        for (; i + W <= n; i += W) {
            B v = row_exp<Arch, T, Kind>(B::load_unaligned(x + i) - shift);
            along(i);
            if constexpr (kStores) v.store_unaligned(e + i);
            s += v;
        }
        if (i < n) {
            const B v = keep_first<Arch>(
                row_exp<Arch, T, Kind>(load_first_or<Arch>(x + i, n - i, m) - shift), n - i, T(0));
            if constexpr (kStores) store_first<Arch>(e + i, n - i, v);
            s += v;
        }
        blocks.add(s);
    }
    return fold_lanes<Arch>(blocks.total(), std::plus<T>());  // the lanes as a tree too
}

// row_exp_sum_storing with kStores set from e: a test of e in the loop was slower for rows in the
// cache (bench_ab --threads 1 --only softmax --shape 128,1024 --runs 200).
template <class Arch, class T, RowExp Kind, class Along>
inline T row_exp_sum(const T *x, int64_t n, T m, T *e, const T *fetch, const T *fetch_out,
                     Along along) {
    if (e) return row_exp_sum_storing<Arch, T, Kind, true>(x, n, m, e, fetch, fetch_out, along);
    return row_exp_sum_storing<Arch, T, Kind, false>(x, n, m, e, fetch, fetch_out, along);
}

// row_exp_sum over a row with the given range: most rows (a network's logits) lie within the
// narrow range, whose exponentials need neither clamping nor a two-part ln2. Not for NaN or
// infinite spreads (false here). Where kSoftmaxNarrowAnyRow, every row goes narrow: clamped when
// `clamp_rows` is set, else unclamped and, when that sum is not finite, again clamped (without
// `along`, which has run), setting `clamp_rows` for the call's later rows (masked rows tend to
// come together: each then costs the clamp rather than two passes).
template <class Arch, class T, class Along>
inline T row_exp_sum_in(RowRange<T> range, const T *x, int64_t n, T *e, const T *fetch,
                        const T *fetch_out, Along along, bool &clamp_rows) {
    if constexpr (kSoftmaxNarrowAnyRow<Arch, T>) {
        if (!clamp_rows) {
            const T total =
                row_exp_sum<Arch, T, RowExp::Narrow>(x, n, range.max, e, fetch, fetch_out, along);
            if (std::isfinite(total)) return total;
            clamp_rows = true;
            return row_exp_sum<Arch, T, RowExp::NarrowClamped>(x, n, range.max, e, nullptr, nullptr,
                                                               [](int64_t) {});
        }
        return row_exp_sum<Arch, T, RowExp::NarrowClamped>(x, n, range.max, e, fetch, fetch_out,
                                                           along);
    } else if constexpr (kSoftmaxRowMin<Arch, T>) {
        if (range.max - range.min <= kNarrowSoftmaxRange)
            return row_exp_sum<Arch, T, RowExp::Narrow>(x, n, range.max, e, fetch, fetch_out,
                                                        along);
    }
    return row_exp_sum<Arch, T, RowExp::Full>(x, n, range.max, e, fetch, fetch_out, along);
}

// Softmax (or log-softmax) of `rows` rows of n contiguous values: row r reads x + r * x_stride
// and writes y + r * y_stride (y may be x). Three passes over a row that stays in the cache: the
// max; exp(x - max) into y with its sum; y times the reciprocal of the sum (one division and n
// products, within an ulp of n divisions), or for log-softmax (x - max) - log(sum). Each row
// fetches a later one into the cache while it computes its exponentials (the row about
// kSoftmaxFetchBytes on, at least the next), and its last pass runs in one loop with the next
// row's first (row_range_finishing) unless its output overlaps the next row (rows closer than n
// apart, in place: then the next row reads what this one wrote).
//
// stream_out (an output of at least half the last-level cache, kernels/streaming.hpp): a row of
// at most kStreamedRowBytes whose output is aligned to a vector keeps its exponentials in a
// buffer on the stack instead of y, and the last pass writes y with stores that bypass the cache,
// so that the cache never reads y's lines (a third of the memory traffic); a fence at the end.
// On AVX-512 and AVX2, streamed rows of at most half that whose outputs all start on a vector go
// through softmax_rows_pipelined instead.
constexpr int64_t kStreamedRowBytes = 16384;

// How far ahead a softmax row fetches: the row this many bytes of values on (at least the next).
// Fetching only the next row was slower, and so were 12 and 16 KiB, for rows of 256 to 2048
// floats (bench_ab --threads 1 --only softmax --shape 4096,N, one build per distance).
constexpr int64_t kSoftmaxFetchBytes = 8192;

// Softmax of rows whose outputs are streamed, with two rows' exponentials at a time in `buffer`
// (kStreamedRowBytes): row r's exponentials run in one loop with row r - 1's last pass (its
// exponentials times the reciprocal of its sum, streamed to y), so that the stores spread over
// the arithmetic instead of following it; then row r + 1's range, alone. The same bits as
// softmax_rows_typed's other paths, and faster than each row's last pass beside the next row's
// range (bench_ab --threads 1 --only softmax, against a build without this path).
template <class Arch, class T>
void softmax_rows_pipelined(int64_t rows, int64_t n, const T *x, int64_t x_stride, T *y,
                            int64_t y_stride, int64_t fetch_rows, T *buffer) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    const int64_t whole = n / W * W;
    T *const exps[2] = {buffer, buffer + (n + W - 1) / W * W};
    // The row before: its exponentials, its output and the reciprocal of its sum. Its last pass
    // takes them by value: taken by reference, they escaped into the out-of-line instances of the
    // exponentials' loop, which then reloaded them after every streamed store (slower in
    // bench_ab --threads 1 --only softmax).
    struct LastRow {
        const T *exps;
        T *y;
        T inv;
    };
    const auto finish_vectors = [](LastRow last) {
        return [last](int64_t i) {
            store_streaming<Arch>(last.y + i, B::load_aligned(last.exps + i) * B(last.inv));
        };
    };
    const auto finish_tail = [whole, n](LastRow last) {
        for (int64_t i = whole; i < n; ++i) last.y[i] = last.exps[i] * last.inv;
    };
    LastRow last{nullptr, nullptr, T(0)};
    bool clamp_rows = false;
    RowRange<T> range = row_range<Arch>(x, n);
    for (int64_t r = 0; r < rows; ++r) {
        const T *xr = x + r * x_stride;
        const T *fetch = r + fetch_rows < rows ? xr + fetch_rows * x_stride : nullptr;
        T *e = exps[r % 2];
        T total;
        if (last.y) {
            total = row_exp_sum_in<Arch, T>(range, xr, n, e, fetch, nullptr, finish_vectors(last),
                                            clamp_rows);
            finish_tail(last);
        } else {
            total = row_exp_sum_in<Arch, T>(
                range, xr, n, e, fetch, nullptr, [](int64_t) {}, clamp_rows);
        }
        last = {e, y + r * y_stride, T(1) / total};
        if (r + 1 < rows) range = row_range<Arch>(xr + x_stride, n);
    }
    const auto finish_last = finish_vectors(last);
    for (int64_t i = 0; i < whole; i += W) finish_last(i);
    finish_tail(last);
}

// The bytes [first, end) that `rows` rows of n values of T, `stride` apart, span.
template <class T>
inline std::pair<uintptr_t, uintptr_t> rows_span(const T *p, int64_t rows, int64_t n,
                                                 int64_t stride) {
    const auto first = reinterpret_cast<uintptr_t>(p);
    const auto last = reinterpret_cast<uintptr_t>(p + (rows - 1) * stride);
    return {std::min(first, last), std::max(first, last) + uintptr_t(n) * sizeof(T)};
}

// Whether softmax pipelines its rows (softmax_rows_pipelined) on this instruction set: AVX-512
// and AVX2 with fused multiply-adds, where it beats the passes apart on the cores that run those
// tables (bench_ab --threads 1 --only softmax, against a build without it). The AVX2 table run on
// an AVX-512 core can be slower pipelined, but such a core never runs that table.
template <class Arch>
constexpr bool kSoftmaxPipelined = std::disjunction_v<std::is_same<Arch, xsimd::avx512f>,
                                                      std::is_same<Arch, xsimd::fma3<xsimd::avx2>>>;

// Whether softmax_rows_pipelined takes these streamed rows: two rows' exponentials fit its
// buffer, every output row starts on a vector, and no row's output is an input read after it
// (outputs apart from the inputs, or in place with rows at least n apart).
template <class Arch, class T>
bool softmax_pipelines(int64_t rows, int64_t n, const T *x, int64_t x_stride, const T *y,
                       int64_t y_stride) {
    constexpr auto kVector = sizeof(xsimd::batch<T, Arch>);
    if (2 * n * int64_t(sizeof(T)) > kStreamedRowBytes ||
        reinterpret_cast<uintptr_t>(y) % kVector != 0 ||
        uint64_t(y_stride) * sizeof(T) % kVector != 0)
        return false;
    if (y == x && y_stride == x_stride) return x_stride >= n || x_stride <= -n;
    const auto in = rows_span(x, rows, n, x_stride), out = rows_span(y, rows, n, y_stride);
    return out.second <= in.first || in.second <= out.first;
}

template <class Arch, class T>
void softmax_rows_typed(bool log, int64_t rows, int64_t n, const T *x, int64_t x_stride, T *y,
                        int64_t y_stride, bool stream_out) {
    using B = xsimd::batch<T, Arch>;
    constexpr int64_t W = B::size;
    if (rows <= 0) return;
    alignas(64) T row_buffer[kStreamedRowBytes / sizeof(T)];
    const bool stream_rows = stream_out && n * int64_t(sizeof(T)) <= kStreamedRowBytes;
    const int64_t fetch_rows =
        std::max<int64_t>(1, kSoftmaxFetchBytes / std::max<int64_t>(1, n * int64_t(sizeof(T))));
    if constexpr (kSoftmaxPipelined<Arch>)
        if (stream_rows && !log && softmax_pipelines<Arch>(rows, n, x, x_stride, y, y_stride)) {
            softmax_rows_pipelined<Arch>(rows, n, x, x_stride, y, y_stride, fetch_rows, row_buffer);
            fence_streamed_stores();
            return;
        }
    bool clamp_rows = false;
    RowRange<T> range = row_range<Arch>(x, n);
    for (int64_t r = 0; r < rows; ++r) {
        const T *xr = x + r * x_stride;
        T *yr = y + r * y_stride;
        const T *ahead = r + 1 < rows ? xr + x_stride : nullptr;
        const T m = range.max;
        const int64_t to_line = elements_to_line(yr, sizeof(T));
        const bool aligned = reinterpret_cast<uintptr_t>(yr) % sizeof(B) == 0;
        const bool stream = stream_rows && (aligned || (to_line != 0 && to_line < n));
        T *e = log ? nullptr : stream ? row_buffer : yr;
        const T *fetch = r + fetch_rows < rows ? xr + fetch_rows * x_stride : nullptr;
        const T *fetch_out = fetch && !stream ? yr + y_stride : nullptr;
        const T total = row_exp_sum_in<Arch>(
            range, xr, n, e, fetch, fetch_out, [](int64_t) {}, clamp_rows);
        // The last pass over this row, in one loop with the next row's range.
        const auto finish = [&](auto finish_vector, auto finish_one) {
            const auto out_at = reinterpret_cast<uintptr_t>(yr);
            const auto next_at = reinterpret_cast<uintptr_t>(ahead);
            const auto bytes = uintptr_t(n) * sizeof(T);
            if (ahead && (next_at + bytes <= out_at || out_at + bytes <= next_at)) {
                range = row_range_finishing<Arch>(ahead, n, finish_vector, finish_one);
                return;
            }
            int64_t i = 0;
            for (; i + W <= n; i += W) finish_vector(i);
            for (; i < n; ++i) finish_one(i);
            if (ahead) range = row_range<Arch>(ahead, n);
        };
        // A streamed row whose output starts inside a line is written rotated by `lead`: what the
        // last pass computes for i goes to i + lead, so that its vectors land on vector
        // boundaries, and the values past the row's end wrap to its start, one at a time. Each
        // value is computed alone, so no bit changes. Into an output that starts inside a line
        // this is faster than stores through the cache (bench_ab --threads 1 --only softmax
        // --offset 16).
        //
        // The loop's lambdas take what they use by value, and whether the row streams picks a loop
        // rather than being tested in it. Taken by reference, the row's pointers, its reciprocal
        // and that test were reloaded from the stack for every vector with the AVX-512 table,
        // which made rows in the cache and in memory slower (bench_ab --threads 1 --only softmax,
        // with and without --shape 128,1024 --runs 200).
        const int64_t lead = stream && !aligned ? to_line : 0;
        const auto last_pass = [&, yr, n](auto vector_at, auto value_at) {
            const auto one = [yr, value_at](int64_t i) { yr[i] = value_at(i); };
            if (!stream) {
                finish([yr, vector_at](int64_t i) { vector_at(i).store_unaligned(yr + i); }, one);
                return;
            }
            if (lead == 0) {  // a separate loop: the rotation's index arithmetic costs time
                finish([yr, vector_at](int64_t i) { store_streaming<Arch>(yr + i, vector_at(i)); },
                       one);
                return;
            }
            const auto at = [lead, n](int64_t i) { return i + lead < n ? i + lead : i + lead - n; };
            finish(
                [yr, vector_at, value_at, lead, n, at](int64_t i) {
                    if (i + lead + W <= n)
                        store_streaming<Arch>(yr + i + lead, vector_at(i + lead));
                    else
                        for (int64_t k = i; k < i + W; ++k) yr[at(k)] = value_at(at(k));
                },
                [yr, value_at, at](int64_t i) { yr[at(i)] = value_at(at(i)); });
        };
        if (!log) {
            const T inv_one = T(1) / total;
            const B inv(inv_one);
            last_pass([e, inv](int64_t j) { return B::load_unaligned(e + j) * inv; },
                      [e, inv_one](int64_t j) { return e[j] * inv_one; });
        } else {
            const T lse = T(__builtin_log(double(total)));
            const B shift(m), sub(lse);
            last_pass(
                [xr, shift, sub](int64_t j) { return (B::load_unaligned(xr + j) - shift) - sub; },
                [xr, m, lse](int64_t j) { return (xr[j] - m) - lse; });
        }
    }
    if (stream_rows) fence_streamed_stores();
}

}  // namespace
}  // namespace ng::kernels
