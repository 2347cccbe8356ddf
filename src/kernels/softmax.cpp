// run_softmax: exp(x - max) / sum(exp(x - max)) over the reduced dimensions (log-softmax:
// x - max - log(sum)). Subtracting the maximum keeps every exponent <= 0, so any finite input
// gives finite output.
//
// Two shapes of work:
//  - rows: the reduced points of one kept point, contiguous (used in place) or gathered into a
//    per-thread row buffer, each row done by the kernels' softmax_rows (max, exponentials with
//    their sum, scaling, while the row is in the cache); contiguous rows a stride apart go to it
//    a thread's range at a time;
//  - columns: when the innermost dimension is kept and contiguous (softmax over C of a (C, N)
//    tensor), a tile of N runs down the reduced points with vector accumulations: the max, the
//    shifted exponentials and their sums, then products by the reciprocals (log-softmax:
//    (x - max) - log(sum)).
#include <algorithm>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/parallel.hpp"
#include "kernels/scratch.hpp"
#include "kernels/streaming.hpp"

namespace ng::kernels {
namespace {

struct SoftmaxRun {
    bool log;
    DType dt;
    size_t size;
    IterationSpace &space;  // operands: 0 out, 1 in, 2 a marker with stride 0 on reduced dims
    char *out;
    const char *in;

    // Dimensions [0, kept) are kept, [kept, rank) reduced.
    void rows(ThreadPool *pool, int32_t kept) const {
        int32_t rank = space.rank();
        int64_t outputs = space.count(0, kept), n = space.count(kept, rank);
        bool in_place = rank - kept == 1 && space.last_stride(0) == 1 && space.last_stride(1) == 1;
        // Contiguous rows one stride apart (kept coalesced to one dimension, or a single row):
        // each thread's rows go to the kernel in one call.
        bool strided_rows = in_place && kept <= 1;
        // Such rows stream a large output past the cache (kernels/streaming.hpp): they read an
        // input of its size and write it, counted twice in place as an elementwise chain's are.
        bool stream = strided_rows && streams_output(2 * outputs * n * int64_t(size));
        for_items(pool, outputs, n, [&](int64_t begin, int64_t end) {
            if (strided_rows) {
                int64_t x_stride = kept ? space.stride(1, 0) : 0;
                int64_t y_stride = kept ? space.stride(0, 0) : 0;
                return softmax_rows(dt, log, end - begin, n,
                                    advance(const_cast<char *>(in), begin * x_stride, size),
                                    x_stride, advance(out, begin * y_stride, size), y_stride,
                                    stream);
            }
            auto buffer = in_place
                              ? nullptr
                              : static_cast<char *>(thread_scratch(ScratchArea::Row, n * size));
            auto offsets =
                static_cast<int64_t *>(thread_scratch(ScratchArea::Operands, 3 * sizeof(int64_t)));
            for (int64_t k = begin; k < end; ++k) {
                std::fill(offsets, offsets + 3, 0);
                space.add_offsets(0, kept, k, offsets);
                char *y = advance(out, offsets[0], size);
                const char *x = advance(const_cast<char *>(in), offsets[1], size);
                if (in_place) {
                    softmax_rows(dt, log, 1, n, x, 0, y, 0, false);
                    continue;
                }
                for_reduced_runs(kept, [&](int64_t at, int64_t in_off, int64_t, int64_t len) {
                    gather(size, len, x + in_off * int64_t(size), space.last_stride(1),
                           buffer + at * size);
                });
                softmax_rows(dt, log, 1, n, buffer, 0, buffer, 0, false);
                for_reduced_runs(kept, [&](int64_t at, int64_t, int64_t out_off, int64_t len) {
                    scatter(size, len, buffer + at * size, y + out_off * int64_t(size),
                            space.last_stride(0));
                });
            }
        });
    }

    // Calls f(position in row, in offset, out offset, length) for each innermost run of the
    // reduced block [kept, rank).
    template <class F>
    void for_reduced_runs(int32_t kept, F f) const {
        if (kept == space.rank()) return f(0, 0, 0, 1);  // nothing reduced: rows of one value
        int32_t last = space.rank() - 1;
        int64_t len = space.dim(last);
        for (int64_t r = 0, runs = space.count(kept, last); r < runs; ++r) {
            int64_t offsets[3] = {0, 0, 0};
            space.add_offsets(kept, last, r, offsets);
            f(r * len, offsets[1], offsets[0], len);
        }
    }

    // Dimensions [0, kept) kept outer, [kept, last) reduced, `last` kept and contiguous.
    void columns(ThreadPool *pool, int32_t kept) const {
        int32_t last = space.rank() - 1;
        int64_t inner = space.dim(last), tiles = (inner + kTile - 1) / kTile;
        int64_t reduced = space.count(kept, last);
        for_items(
            pool, space.count(0, kept) * tiles, reduced * std::min(inner, kTile),
            [&](int64_t begin, int64_t end) {
                auto buffers =
                    static_cast<char *>(thread_scratch(ScratchArea::Row, 3 * kTile * size));
                char *max = buffers, *total = buffers + kTile * size,
                     *tmp = buffers + 2 * kTile * size;
                for (int64_t item = begin; item < end; ++item) {
                    int64_t start = item % tiles * kTile, len = std::min(kTile, inner - start);
                    int64_t base[3] = {start, start, 0};
                    space.add_offsets(0, kept, item / tiles, base);
                    auto at = [&](int64_t r, int op) {
                        int64_t offsets[3] = {base[0], base[1], 0};
                        space.add_offsets(kept, last, r, offsets);
                        return advance(op == 0 ? out : const_cast<char *>(in), offsets[op], size);
                    };
                    fill_identity(ReduceFn::Max, dt, len, max);
                    for (int64_t r = 0; r < reduced; ++r)
                        accumulate(ReduceFn::Max, dt, len, at(r, 1), max);
                    fill(dt, len, 0.0, total);
                    for (int64_t r = 0; r < reduced; ++r) {
                        char *e = log ? tmp : at(r, 0);
                        exp_shifted(dt, len, at(r, 1), max, 1, e);
                        accumulate(ReduceFn::Sum, dt, len, e, total);
                    }
                    // Softmax: products by the reciprocals of the sums (within an ulp of
                    // divisions). Log-softmax: (x - max) - log(sum), as the rows compute it.
                    unary(log ? UnaryFn::Log : UnaryFn::Reciprocal, dt, len, total, total);
                    for (int64_t r = 0; r < reduced; ++r) {
                        char *y = at(r, 0);
                        if (log) {
                            binary(BinaryFn::Subtract, dt, len, at(r, 1), 1, max, 1, y);
                            binary(BinaryFn::Subtract, dt, len, y, 1, total, 1, y);
                        } else {
                            binary(BinaryFn::Multiply, dt, len, y, 1, total, 1, y);
                        }
                    }
                }
            });
    }
};

}  // namespace

void run_softmax(bool log, DType dt, const std::vector<int64_t> &shape,
                 const std::vector<bool> &reduced, const Strided &in, const Strided &out,
                 ThreadPool *pool) {
    with_scratch([&](Scratch &scratch) {
        IterationSpace &space = scratch.softmax.space;
        Strided &marker = scratch.softmax.marker;

        if (!dtype_is_float(dt))
            throw dtype_error("run_softmax: needs float32 or float64, not ", dtype_name(dt));
        if (reduced.size() != shape.size())
            throw internal_error("run_softmax: ", reduced.size(), " reduced flags for rank ",
                                 shape.size());
        // The marker operand is a dense layout of the kept dimensions: coalescing then never merges
        // a kept with a reduced dimension, and stride 0 tells which is which after any reordering.
        marker.strides.assign(shape.size(), 0);
        int64_t step = 1;
        for (size_t d = shape.size(); d-- > 0;) {
            if (reduced[d]) continue;
            marker.strides[d] = step;
            step *= std::max<int64_t>(shape[d], 1);
        }
        space.assign("run_softmax", shape, {&out, &in, &marker});
        if (space.numel() == 0) return;
        // Unsorted: the contiguous-rows path below needs the innermost dimension to stay last.
        space.simplify_for(IterationSpace::kKeepOrder);

        SoftmaxRun run{log,
                       dt,
                       dtype_size(dt),
                       space,
                       static_cast<char *>(out.data),
                       static_cast<const char *>(in.data)};
        auto is_kept = [&](int32_t d) { return space.stride(2, d) != 0; };
        int32_t last = space.rank() - 1;
        if (is_kept(last) && space.last_stride(0) == 1 && space.last_stride(1) == 1) {
            int32_t kept = space.partition(last, is_kept);
            return run.columns(pool, kept);
        }
        space.partition(space.rank(), is_kept);
        space.coalesce();
        int32_t kept = 0;
        while (kept < space.rank() && is_kept(kept)) ++kept;
        run.rows(pool, kept);
    });
}

}  // namespace ng::kernels
