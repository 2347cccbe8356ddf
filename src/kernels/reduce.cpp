// run_reduce: f over the values of a Program, into an output with stride 0 on reduced
// dimensions. The program runs tile by tile and each tile is reduced at once, so a fused
// sum((x - y)^2) never stores x - y (seed 000).
//
// After simplification the space is [kept outer dims][reduced outer dims][innermost dim]:
//  - innermost reduced: each tile is reduce_all'ed; tile results collect in a small buffer that is
//    reduced pairwise, so long float sums keep their accuracy. With few outputs the reduced work is
//    cut into a fixed number of chunks (by size, not by thread count: results do not depend on
//    the pool) whose partial results are combined in order.
//  - innermost kept: an output tile accumulates the program's tile for every reduced point.
#include <algorithm>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/kernel_names.hpp"
#include "kernels/parallel.hpp"
#include "kernels/prepared.hpp"
#include "kernels/scratch.hpp"
#include "kernels/tile_program.hpp"

namespace ng::kernels {
namespace {

constexpr int64_t kChunkedMaxOutputs = 16;  // more outputs than this: parallel over outputs
constexpr int64_t kReduceChunkElements = 65536;
constexpr int64_t kMaxChunks = 64;
// Outer-axis reductions: the accumulators of one column block (16 KiB: a row of 4096 floats);
// the (kept point, block, chunk) items wanted, so that a thread slowed down by the load leaves its
// remaining items to the others (each chunk beyond one costs a partial block of scratch); and the
// elements a chunk of rows holds at least.
constexpr int64_t kKeptBlockBytes = 16384;
constexpr int64_t kKeptMinItems = 4;
constexpr int64_t kKeptChunkElements = int64_t{1} << 16;
// Outer-axis reductions: the rows combined per pass over the accumulators, one from each of this
// many equal segments of the rows (at most kMaxAccumulateRows): five where a block holds at least
// kWideBlockBytes, four for narrower blocks. Sums over the rows of float matrices at one thread
// on an AVX-512 Zen 4 core: with five lanes a 4096 x 4096 matrix read at 84 to 88% of a plain
// read against 80 to 84% with four (four processes, both builds in each), 2048 x 8192 took 5 to
// 12% less time, and with the AVX2 table the two were about even; 16384 x 1024 and 4096 x 256
// took 7 to 13% longer with five. Six lanes were slower than five on every one of these shapes.
constexpr int32_t kNarrowLanes = 4;
constexpr int32_t kWideLanes = 5;
constexpr int64_t kWideBlockBytes = 8192;
static_assert(kWideLanes <= kMaxAccumulateRows && kWideLanes <= kMaxAccumulateLanes &&
                  kNarrowLanes <= kWideLanes,
              "accumulate_rows and accumulate_lanes take every lane at once");

struct ReduceRun {
    ReduceFn f;
    DType dt;
    size_t out_size;
    const IterationSpace &space;
    const TileProgram &program;
    const std::vector<size_t> &sizes;  // element size per operand
    void *const *bases;
    int32_t kept;  // leading kept outer dimensions
    int32_t last;  // innermost dimension

    int32_t ops() const { return space.operands(); }

    // Per-thread arrays: offsets of the kept point, offsets of the current point, pointers.
    struct Cursor {
        int64_t *base, *offsets;
        char **pointers;
    };
    Cursor cursor() const {
        auto n = static_cast<size_t>(ops());
        auto mem = static_cast<int64_t *>(
            thread_scratch(ScratchArea::Operands, n * (2 * sizeof(int64_t) + sizeof(char *))));
        return Cursor{mem, mem + n, reinterpret_cast<char **>(mem + 2 * n)};
    }
    void set_kept(Cursor &c, int64_t k, int64_t start) const {
        std::fill(c.base, c.base + ops(), 0);
        space.add_offsets(0, kept, k, c.base);
        for (int32_t op = 0; op < ops(); ++op) c.base[op] += start * space.last_stride(op);
    }
    // The operands' tile pointers at reduced point r of the current kept point.
    void locate(Cursor &c, int64_t r) const {
        std::copy(c.base, c.base + ops(), c.offsets);
        space.add_offsets(kept, last, r, c.offsets);
        for (int32_t op = 0; op < ops(); ++op)
            c.pointers[op] = advance(bases[op], c.offsets[op], sizes[op]);
    }
    // Evaluates the program at reduced point r of the current kept point; a one-value result is
    // spread over `spread` so that callers always get len values.
    const void *evaluate(Cursor &c, int64_t r, int64_t len, void *scratch, void *spread) const {
        locate(c, r);
        TileValues v = program.run(scratch, len, c.pointers + 1, nullptr, false);
        if (v.step) return v.data;
        broadcast(out_size, len, v.data, spread, 1);
        return spread;
    }
    char *output_at(int64_t k) const {
        int64_t offset = 0;
        for (int32_t d = kept - 1; d >= 0; --d) {
            offset += k % space.dim(d) * space.stride(0, d);
            k /= space.dim(d);
        }
        return advance(bases[0], offset, out_size);
    }

    // One row of an input read in place per output (a sum over the last axis of a matrix): the
    // rows go straight to reduce_rows, without evaluating the program or locating the operands at
    // every tile, which took 9% of the time of a sum over the rows of a 4096 x 4096 matrix, and
    // with one kernel call for a range of rows where the rows lie evenly spaced (one kept
    // dimension). reduce_rows reduces tiles and combines their results as the general loop does,
    // so the bits are the same.
    void rows_in_place(ThreadPool *pool, int32_t input, int64_t outputs, int64_t length) const {
        const int32_t op = 1 + input;
        for_items(pool, outputs, length, [&](int64_t begin, int64_t end) {
            Cursor c = cursor();
            if (kept == 1) {
                set_kept(c, begin, 0);
                reduce_rows(f, dt, end - begin, length, kTile,
                            advance(bases[op], c.base[op], sizes[op]), space.stride(op, 0),
                            output_at(begin), space.stride(0, 0));
                return;
            }
            for (int64_t k = begin; k < end; ++k) {
                set_kept(c, k, 0);
                reduce_rows(f, dt, 1, length, kTile, advance(bases[op], c.base[op], sizes[op]), 0,
                            output_at(k), 0);
            }
        });
    }

    // Inner-axis reductions: each output's tiles are reduced at once (a sum of a chain without
    // storing the tile) and the tile results combined, one row after another: on an AVX-512 Zen 4
    // core that reads a matrix faster than several adjacent rows side by side do, 2.0 against 3.1
    // ms for 64 MiB. (reduce_rows, for rows read in place, reads two rows half its range apart
    // side by side, which is faster still.)
    void innermost_reduced(ThreadPool *pool) const {
        int64_t outputs = space.count(0, kept), reduced = space.count(kept, last),
                length = space.dim(last);
        int64_t tiles = (length + kTile - 1) / kTile;
        const int32_t in_place = program.in_place_input();
        if (reduced == 1 && in_place >= 0 && tiles <= kMaxRowTiles && outputs > kChunkedMaxOutputs)
            return rows_in_place(pool, in_place, outputs, length);
        int64_t units = reduced * tiles;  // (reduced point, tile) pairs per output
        int64_t chunks = 1;
        if (outputs <= kChunkedMaxOutputs)
            chunks = std::clamp<int64_t>(reduced * length / kReduceChunkElements, 1,
                                         std::min(kMaxChunks, units));
        int64_t per_chunk = (units + chunks - 1) / chunks;
        char *partials = chunks > 1 ? static_cast<char *>(thread_scratch(
                                          ScratchArea::Partials, outputs * chunks * out_size))
                                    : nullptr;
        const size_t tile_bytes = kTile * out_size;
        // A float sum of a register chain adds the chain's values up as they are computed.
        const bool in_registers = f == ReduceFn::Sum && program.sums_in_registers();

        // An item: one chunk of one output.
        for_items(
            pool, outputs * chunks, per_chunk * std::min(length, kTile),
            [&](int64_t begin, int64_t end) {
                auto scratch =
                    static_cast<char *>(thread_scratch(ScratchArea::Tile, program.scratch_bytes()));
                // The output's tile results, then its spread buffer.
                auto row = static_cast<char *>(thread_scratch(ScratchArea::Row, 2 * tile_bytes));
                Cursor c = cursor();
                for (int64_t item = begin; item < end; ++item) {
                    const int64_t k = item / chunks;
                    const int64_t first = item % chunks * per_chunk;
                    const int64_t stop = std::min(units, first + per_chunk);
                    char *result = chunks > 1 ? partials + item * out_size : output_at(k);
                    if (in_registers && reduced == 1) {
                        // The chunk's tiles are one contiguous run of the innermost dimension:
                        // one chain sum over all of them keeps its sums in registers throughout.
                        // A chain sum per tile, its results passed through memory, was slower
                        // whenever the host was busy: l2_diff at one thread on an AVX-512 Zen 4
                        // core, bench_ab in three processes, 70 to 94% of a plain read of the
                        // inputs against 81 to 97% for one sum per chunk.
                        const int64_t start = first * kTile;
                        set_kept(c, k, start);
                        locate(c, 0);
                        program.run_sum(std::min(length, stop * kTile) - start, c.pointers + 1,
                                        result);
                        continue;
                    }
                    int64_t count = 0;
                    for (int64_t u = first; u < stop; ++u) {
                        int64_t start = u % tiles * kTile, len = std::min(kTile, length - start);
                        set_kept(c, k, start);
                        if (in_registers) {
                            locate(c, u / tiles);
                            program.run_sum(len, c.pointers + 1, row + count * out_size);
                        } else {
                            const void *values =
                                evaluate(c, u / tiles, len, scratch, row + tile_bytes);
                            reduce_all(f, dt, len, values, row + count * out_size);
                        }
                        if (++count == kTile) {
                            reduce_all(f, dt, count, row, row);
                            count = 1;
                        }
                    }
                    reduce_all(f, dt, count, row, result);
                }
            });
        if (chunks > 1)
            for (int64_t k = 0; k < outputs; ++k)
                reduce_all(f, dt, chunks, partials + k * chunks * out_size, output_at(k));
    }

    // Outer-axis reductions. The kept innermost dimension is cut into column blocks of at most
    // kKeptBlockBytes (accumulators that stay in the first-level cache). The rows are cut into
    // segments (lanes, four or five) and a pass adds one row of each lane into a block's
    // accumulators, tile by tile, so the accumulators are read and written once per pass; with a
    // block spanning the row, a dense input is read as one long stream per lane, and a chunk of
    // each lane's rows goes to accumulate_lanes at once (each column into the accumulators once
    // per pass still, the lanes one vector apart). Eight
    // adjacent rows per pass were 1.3 to 1.6 times slower on an AVX-512 Zen 4 core at every size
    // from 128 x 256 to 4096 x 4096: rows a power of two apart fall in one set of the
    // first-level cache, whose 8 ways cannot hold them and the accumulators, and a stream that
    // ends with each 16 KiB row keeps the prefetcher starting over. Few (kept point, block) pairs
    // would leave threads idle or waiting for one slow half, so the lanes are then also cut into
    // chunks, each summed into a partial block, and the partial blocks combined in chunk order
    // afterwards (a contiguous output holds the first chunk's block itself: one partial block
    // less). Lanes and chunks follow from the shape alone, never from the thread count: every pool
    // gets the same bits.
    void innermost_kept(ThreadPool *pool) const {
        const int64_t outputs = space.count(0, kept), reduced = space.count(kept, last),
                      length = space.dim(last);
        const int64_t block = std::min(
            length, std::max<int64_t>(kTile, kKeptBlockBytes / static_cast<int64_t>(out_size)));
        const int64_t blocks = (length + block - 1) / block;
        const int64_t pairs = outputs * blocks;
        const size_t block_bytes = static_cast<size_t>(block) * out_size;
        const int32_t lanes = int64_t(block_bytes) >= kWideBlockBytes ? kWideLanes : kNarrowLanes;
        // Row r of lane j is reduced row j * lane_rows + r (the last lane may be shorter).
        const int64_t lane_rows = (reduced + lanes - 1) / lanes;
        int64_t chunks = 1;
        if (pairs < kKeptMinItems)
            chunks =
                std::clamp<int64_t>(reduced * block / kKeptChunkElements, 1, kKeptMinItems / pairs);
        const int64_t per_chunk = (lane_rows + chunks - 1) / chunks;  // lane rows
        chunks = (lane_rows + per_chunk - 1) / per_chunk;
        const int64_t out_stride = space.last_stride(0);
        // Partial blocks per pair: chunks after the first one when that one goes to the output.
        const int64_t direct = out_stride == 1 ? 1 : 0, slots = chunks - direct;
        char *partials = chunks > 1 ? static_cast<char *>(thread_scratch(
                                          ScratchArea::Partials, pairs * slots * block_bytes))
                                    : nullptr;
        // An input read in place goes to accumulate_rows a whole block row at a time, without
        // evaluating the program tile by tile (a sum over the rows of a 4096 x 4096 matrix at one
        // thread: medians 2.10 to 2.20 ms against 2.19 to 2.30 ms, alternating builds);
        // accumulate_rows works element by element, so the bits are the same. Otherwise each row
        // of a pass is evaluated into its own scratch (and spread buffer).
        const int32_t in_place = program.in_place_input();
        // Whole rows of an input read in place lying one after another (one reduced dimension,
        // a dense matrix): accumulate_lanes takes each lane's rows of a chunk in one call
        // (f(acc, ((lane 0 lane 1) lane 2) ...) per row, where accumulate_rows combines a pass's
        // rows pairwise: other bits, the same for every pool).
        const bool rows_one_after_another = in_place >= 0 && blocks == 1 && last == kept + 1 &&
                                            space.last_stride(1 + in_place) == 1 &&
                                            space.stride(1 + in_place, kept) == length;
        const size_t scratch_step = (program.scratch_bytes() + 63) / 64 * 64;
        for_items(pool, pairs * chunks, per_chunk * lanes * block, [&](int64_t begin, int64_t end) {
            auto scratch =
                static_cast<char *>(thread_scratch(ScratchArea::Tile, lanes * scratch_step));
            // The accumulators of a block whose output is strided, then the spread buffers.
            auto row = static_cast<char *>(
                thread_scratch(ScratchArea::Row, block_bytes + lanes * kTile * out_size));
            const void *values[kWideLanes];
            Cursor c = cursor();
            for (int64_t item = begin; item < end; ++item) {
                const int64_t pair = item / chunks, chunk = item % chunks;
                const int64_t first = chunk * per_chunk;
                const int64_t stop = std::min(lane_rows, first + per_chunk);
                const int64_t col = pair % blocks * block;
                const int64_t width = std::min(block, length - col);
                set_kept(c, pair / blocks, col);
                char *out = advance(bases[0], c.base[0], out_size);
                char *acc = chunk < direct ? out
                            : chunks > 1 ? partials + (pair * slots + chunk - direct) * block_bytes
                                         : row;
                fill_identity(f, dt, width, acc);
                // The lanes that have a row r: a first few of them, fewer as r grows.
                const auto lanes_at = [&](int64_t r) {
                    int32_t count = 1;
                    while (count < lanes && count * lane_rows + r < reduced) ++count;
                    return count;
                };
                for (int64_t r = first; rows_one_after_another && r < stop;) {
                    const int32_t count = lanes_at(r);
                    // Until the last of these lanes runs out of rows.
                    const int64_t until = std::min(stop, reduced - (count - 1) * lane_rows);
                    for (int32_t j = 0; j < count; ++j) {
                        locate(c, j * lane_rows + r);
                        values[j] = c.pointers[1 + in_place];
                    }
                    accumulate_lanes(f, dt, width, until - r, values, count, acc);
                    r = until;
                }
                for (int64_t r = first; !rows_one_after_another && r < stop; ++r) {
                    const int32_t count = lanes_at(r);
                    if (in_place >= 0) {
                        for (int32_t j = 0; j < count; ++j) {
                            locate(c, j * lane_rows + r);
                            values[j] = c.pointers[1 + in_place];
                        }
                        accumulate_rows(f, dt, width, values, count, acc);
                        continue;
                    }
                    for (int64_t start = 0; start < width; start += kTile) {
                        const int64_t len = std::min(kTile, width - start);
                        for (int32_t op = 0; op < ops(); ++op)
                            c.base[op] += start * space.last_stride(op);
                        for (int32_t j = 0; j < count; ++j)
                            values[j] =
                                evaluate(c, j * lane_rows + r, len, scratch + j * scratch_step,
                                         row + block_bytes + j * kTile * out_size);
                        for (int32_t op = 0; op < ops(); ++op)
                            c.base[op] -= start * space.last_stride(op);
                        accumulate_rows(f, dt, len, values, count, acc + start * out_size);
                    }
                }
                if (chunks == 1 && acc != out) scatter(out_size, width, acc, out, out_stride);
            }
        });
        if (chunks > 1) combine_chunks(pairs, blocks, block, chunks - slots, slots, partials);
    }

    // out = f over the partial blocks of each (kept point, block) pair, in chunk order, a group
    // of rows at a time; `direct` (1): the output holds the first chunk's block already.
    void combine_chunks(int64_t pairs, int64_t blocks, int64_t block, int64_t direct, int64_t slots,
                        const char *partials) const {
        const int64_t length = space.dim(last), out_stride = space.last_stride(0);
        const size_t block_bytes = static_cast<size_t>(block) * out_size;
        auto row = static_cast<char *>(thread_scratch(ScratchArea::Row, block_bytes));
        const void *values[kMaxAccumulateRows];
        Cursor c = cursor();
        for (int64_t pair = 0; pair < pairs; ++pair) {
            const int64_t col = pair % blocks * block, width = std::min(block, length - col);
            set_kept(c, pair / blocks, col);
            char *out = advance(bases[0], c.base[0], out_size);
            char *acc = out_stride == 1 ? out : row;
            if (!direct) fill_identity(f, dt, width, acc);
            for (int64_t ch = 0; ch < slots; ch += kMaxAccumulateRows) {
                auto count =
                    static_cast<int32_t>(std::min<int64_t>(kMaxAccumulateRows, slots - ch));
                for (int32_t j = 0; j < count; ++j)
                    values[j] = partials + (pair * slots + ch + j) * block_bytes;
                accumulate_rows(f, dt, width, values, count, acc);
            }
            if (acc != out) scatter(out_size, width, acc, out, out_stride);
        }
    }
};

}  // namespace

void ReducePlan::prepare(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                         const std::vector<Strided> &inputs, const Strided &out) {
    check_fn(f);
    if (inputs.size() != program.inputs.size())
        throw internal_error("run_reduce: program has ", program.inputs.size(), " inputs, given ",
                             inputs.size());
    space_.assign("run_reduce", shape, {&out}, inputs);
    f_ = f;
    dt_ = program.result_dtype();
    empty_ = space_.numel() == 0;
    if (empty_) {
        // Every output element gets the identity: the kept dimensions first.
        kept_ =
            space_.partition(space_.rank(), [&](int32_t d) { return space_.stride(0, d) != 0; });
        return;
    }

    // Read input 0 in memory order.
    space_.simplify_for(inputs.empty() ? IterationSpace::kKeepOrder : 1);
    // Kept outer dimensions first; the innermost stays innermost.
    space_.partition(space_.rank() - 1, [&](int32_t d) { return space_.stride(0, d) != 0; });
    space_.coalesce();
    last_ = space_.rank() - 1;
    kept_ = 0;
    while (kept_ < last_ && space_.stride(0, kept_) != 0) ++kept_;

    const int32_t ops = space_.operands();
    input_strides_.resize(ops - 1);
    for (int32_t i = 1; i < ops; ++i) input_strides_[i - 1] = space_.last_stride(i);
    program_.prepare("run_reduce", program, input_strides_, false);
    sizes_.resize(ops);
    sizes_[0] = dtype_size(dt_);
    for (int32_t i = 1; i < ops; ++i) sizes_[i] = dtype_size(program.inputs[i - 1]);
}

void ReducePlan::run(void *const *bases, ThreadPool *pool) const {
    with_scratch([&](Scratch &) {  // the calling thread's part uses thread_scratch()
        if (empty_) {
            unsigned char identity[8];
            fill_identity(f_, dt_, 1, identity);
            const size_t size = dtype_size(dt_);
            auto offsets = static_cast<int64_t *>(
                thread_scratch(ScratchArea::Operands, space_.operands() * sizeof(int64_t)));
            for (int64_t k = 0, n = space_.count(0, kept_); k < n; ++k) {
                std::fill(offsets, offsets + space_.operands(), 0);
                space_.add_offsets(0, kept_, k, offsets);
                broadcast(size, 1, identity, advance(bases[0], offsets[0], size), 1);
            }
            return;
        }
        ReduceRun run{f_, dt_, sizes_[0], space_, program_, sizes_, bases, kept_, last_};
        if (space_.last_stride(0) == 0)
            run.innermost_reduced(pool);
        else
            run.innermost_kept(pool);
    });
}

void run_reduce(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                const std::vector<Strided> &inputs, const Strided &out, ThreadPool *pool) {
    with_scratch([&](Scratch &scratch) {
        ReducePlan &plan = scratch.reduce.plan;
        std::vector<void *> &bases = scratch.reduce.bases;
        plan.prepare(f, program, shape, inputs, out);
        bases.resize(inputs.size() + 1);
        bases[0] = out.data;
        for (size_t i = 0; i < inputs.size(); ++i) bases[i + 1] = inputs[i].data;
        plan.run(bases.data(), pool);
    });
}

}  // namespace ng::kernels
