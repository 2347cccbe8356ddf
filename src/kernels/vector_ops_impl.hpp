// The level-1 primitives, written once and instantiated per instruction set. Only the
// vector_ops_<isa>.cpp files include this header, each with its instruction set's compiler flags,
// and each makes its VectorTable from Primitives<Arch> below.
//
// Everything here and in the parts has internal linkage (anonymous namespace) or is a template on
// the xsimd architecture, so no function compiled with AVX flags can be merged by the linker with
// a baseline copy of the same name. For the same reason this code calls no standard-library
// template that could be emitted out of line (no std::vector, error formatting): argument checks
// and error messages live in dispatch.cpp, which validated every request before it reaches a
// table.
//
// Where each family lives (kernels/vector_ops/, included in this order):
//   loops.hpp         loop skeletons (map_unary, map_binary, with_steps, each_vector), the masked
//                     loads and stores of a tail (load_first, store_first, keep_first), fold_lanes,
//                     store_streaming
//   math.hpp          math on vectors: NaN-propagating maximum/minimum, exp, tanh, sin and cos
//                     kept in xsimd's domain, multiply_add, the fast float exp and tanh
//   softmax_rows.hpp  softmax and log-softmax rows (softmax_rows_typed)
//   elementwise.hpp   unary, binary, compare, select; unary_value and binary_value, shared with
//                     the chains
//   reductions.hpp    reduce_all, reduce_rows (pairwise cascaded float sums), accumulate,
//                     accumulate_rows, accumulate_lanes
//   chains.hpp        fused chains, stored, streamed or summed (float_chain)
//   products.hpp      gemv_transposed and the packed column panel of a float32 product
// Below: the dispatch on the dtype and the table of one instruction set (Primitives).
#pragma once

#include <xsimd/xsimd.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/vector_ops/loops.hpp"
#include "kernels/vector_ops/math.hpp"
#include "kernels/vector_ops/softmax_rows.hpp"
#include "kernels/vector_ops/elementwise.hpp"
#include "kernels/vector_ops/reductions.hpp"
#include "kernels/vector_ops/chains.hpp"
#include "kernels/vector_ops/products.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {
namespace {

// ---- dtype dispatch (without visit_dtype, whose error path formats a message) -------------------

template <class Body>
inline void by_dtype(DType dt, Body &&body) {
    switch (dt) {
    case NG_BOOL:
    case NG_UINT8: return body(uint8_t{});
    case NG_INT32: return body(int32_t{});
    case NG_INT64: return body(int64_t{});
    case NG_FLOAT32: return body(float{});
    case NG_FLOAT64: return body(double{});
    default: bad_kernel_request("dtype");
    }
}

template <class T>
constexpr bool is_float_v = std::is_floating_point_v<T>;

template <class Arch>
struct Primitives {
    static void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_unary<Arch>(f, n, static_cast<const T *>(x), static_cast<T *>(out));
            else
                integer_unary(f, n, static_cast<const T *>(x), static_cast<T *>(out));
        });
    }
    static void binary(BinaryFn f, DType dt, int64_t n, const void *a, int as, const void *b,
                       int bs, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto pa = static_cast<const T *>(a);
            auto pb = static_cast<const T *>(b);
            if constexpr (is_float_v<T>)
                float_binary<Arch>(f, n, pa, as, pb, bs, static_cast<T *>(out));
            else
                integer_binary(f, n, pa, as, pb, bs, static_cast<T *>(out));
        });
    }
    static void compare(CompareFn f, DType dt, int64_t n, const void *a, int as, const void *b,
                        int bs, uint8_t *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            compare_typed(f, n, static_cast<const T *>(a), as, static_cast<const T *>(b), bs, out);
        });
    }
    static void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int as,
                       const void *b, int bs, void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            select_typed(n, cond, static_cast<const T *>(a), as, static_cast<const T *>(b), bs,
                         static_cast<T *>(out));
        });
    }
    static void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            *static_cast<T *>(result) = reduce_values<T>(f, static_cast<const T *>(x), n);
        });
    }
    // f over values[0..n) of one dtype: what reduce_all and reduce_rows compute.
    template <class T>
    static T reduce_values(ReduceFn f, const T *values, int64_t n) {
        if constexpr (is_float_v<T>)
            return float_reduce<Arch>(f, values, n);
        else
            return integer_reduce(f, values, n);
    }
    static void reduce_rows(ReduceFn f, DType dt, int64_t rows, int64_t n, int64_t tile,
                            const void *x, int64_t x_stride, void *out, int64_t out_stride) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            const auto reduce = [f](const T *values, int64_t count) {
                return reduce_values<T>(f, values, count);
            };
            if constexpr (is_float_v<T>)
                if (f == ReduceFn::Sum && tile <= kSumLeaf<Arch, T> && n <= 2 * tile)
                    return paired_row_sums<Arch>(rows, n, tile, static_cast<const T *>(x), x_stride,
                                                 static_cast<T *>(out), out_stride);
            T tiles[kMaxRowTiles];
            for (int64_t r = 0; r < rows; ++r) {
                const T *row = static_cast<const T *>(x) + r * x_stride;
                T *result = static_cast<T *>(out) + r * out_stride;
                if (n <= tile) {
                    *result = reduce(row, n);
                    continue;
                }
                if constexpr (is_float_v<T>)
                    if (f == ReduceFn::Sum && n <= 2 * tile) {
                        // Two tiles: what reduce gives them, inlined, and their sum, which is
                        // what reducing the two results gives (padded with zeros; a tile's sum is
                        // never -0) without passing them through memory. Every float sum of
                        // reduce_values inlined instead made this row sum slower (bench_ab
                        // --threads 1 --only sum_axis1).
                        *result = pairwise_sum<Arch, T>(row, tile) +
                                  pairwise_sum<Arch, T>(row + tile, n - tile);
                        continue;
                    }
                int64_t count = 0;
                for (int64_t start = 0; start < n; start += tile)
                    tiles[count++] = reduce(row + start, std::min(tile, n - start));
                *result = reduce(tiles, count);
            }
        });
    }
    static void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_accumulate<Arch>(f, n, static_cast<const T *>(x), static_cast<T *>(acc));
            else
                integer_accumulate(f, n, static_cast<const T *>(x), static_cast<T *>(acc));
        });
    }

    static void accumulate_rows(ReduceFn f, DType dt, int64_t n, const void *const *rows,
                                int32_t count, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto r = reinterpret_cast<const T *const *>(rows);
            auto a = static_cast<T *>(acc);
            if constexpr (is_float_v<T>) {
                by_reduce_fn(f, "accumulate_rows", [&](auto fn) {
                    float_accumulate_rows<Arch, T, decltype(fn)::value>(n, r, count, a);
                });
            } else {
                integer_accumulate_rows(f, n, r, count, a);
            }
        });
    }

    static void accumulate_lanes(ReduceFn f, DType dt, int64_t n, int64_t rows,
                                 const void *const *starts, int32_t lanes, void *acc) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            auto s = reinterpret_cast<const T *const *>(starts);
            auto a = static_cast<T *>(acc);
            if constexpr (is_float_v<T>) {
                by_reduce_fn(f, "accumulate_lanes", [&](auto fn) {
                    float_accumulate_lanes<Arch, T, decltype(fn)::value>(n, rows, s, lanes, a);
                });
            } else {
                integer_accumulate_lanes(f, n, rows, s, lanes, a);
            }
        });
    }

    static void exp_shifted(DType dt, int64_t n, const void *x, const void *shift, int shift_step,
                            void *out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>) {
                using B = xsimd::batch<T, Arch>;
                map_binary<Arch>(n, static_cast<const T *>(x), 1, static_cast<const T *>(shift),
                                 shift_step, static_cast<T *>(out),
                                 [](B v, B s) { return exp_nonpositive<Arch, T>(v - s); });
            } else {
                bad_kernel_request("exp_shifted");
            }
        });
    }

    static void chain(DType dt, int64_t n, const ChainStep *code, int32_t count,
                      const void *const *inputs, const int *input_steps, int32_t input_count,
                      int32_t leaf_count, void *out, bool stream_out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            const auto run = [&](auto how) {
                float_chain<Arch, T, decltype(how)::value>(
                    n, code, count, reinterpret_cast<const T *const *>(inputs), input_steps,
                    input_count, leaf_count, static_cast<T *>(out));
            };
            if constexpr (!is_float_v<T>)
                bad_kernel_request("chain");
            else if (stream_out)
                run(std::integral_constant<ChainOut, ChainOut::Stream>{});
            else
                run(std::integral_constant<ChainOut, ChainOut::Store>{});
        });
    }

    static void chain_sum(DType dt, int64_t n, const ChainStep *code, int32_t count,
                          const void *const *inputs, const int *input_steps, int32_t input_count,
                          int32_t leaf_count, void *sum) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_chain<Arch, T, ChainOut::Sum>(
                    n, code, count, reinterpret_cast<const T *const *>(inputs), input_steps,
                    input_count, leaf_count, static_cast<T *>(sum));
            else
                bad_kernel_request("chain_sum");
        });
    }

    static void gemv_transposed(DType dt, int64_t rows, int64_t n, double alpha, const void *a,
                                int64_t lda, const void *x, int64_t incx, double beta, void *y) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                float_gemv_transposed<Arch, T>(rows, n, T(alpha), static_cast<const T *>(a), lda,
                                               static_cast<const T *>(x), incx, T(beta),
                                               static_cast<T *>(y));
            else
                bad_kernel_request("gemv_transposed");
        });
    }

    static void softmax_rows(DType dt, bool log, int64_t rows, int64_t n, const void *x,
                             int64_t x_stride, void *y, int64_t y_stride, bool stream_out) {
        by_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (is_float_v<T>)
                softmax_rows_typed<Arch>(log, rows, n, static_cast<const T *>(x), x_stride,
                                         static_cast<T *>(y), y_stride, stream_out);
            else
                bad_kernel_request("softmax_rows");
        });
    }

    static constexpr VectorTable table(const char *name) {
        return VectorTable{name,
                           &unary,
                           &binary,
                           &compare,
                           &select,
                           &reduce_all,
                           &reduce_rows,
                           &accumulate,
                           &accumulate_rows,
                           &accumulate_lanes,
                           &exp_shifted,
                           &softmax_rows,
                           &chain,
                           &chain_sum,
                           &gemv_transposed,
                           panel_width<Arch>(),
                           panel_product<Arch>()};
    }
};

}  // namespace
}  // namespace ng::kernels
