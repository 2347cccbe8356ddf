// run_elementwise and copy_strided: a Program over an N-d space, tile by tile along the
// innermost dimension, the output written in place when it is contiguous there. ElementwisePlan
// (kernels/prepared.hpp) does the planning once; the drivers prepare and run at each call.
#include <algorithm>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/parallel.hpp"
#include "kernels/prepared.hpp"
#include "kernels/scratch.hpp"
#include "kernels/streaming.hpp"
#include "kernels/tile_program.hpp"

namespace ng::kernels {

namespace {
// The register table of a program of up to 32 values; a scratch slot alone is 16 KiB.
constexpr size_t kStackTileScratch = 256;
}  // namespace

void ElementwisePlan::prepare(const Program &program, const std::vector<int64_t> &shape,
                              const std::vector<Strided> &inputs, const Strided &out) {
    if (inputs.size() != program.inputs.size())
        throw internal_error("run_elementwise: program has ", program.inputs.size(),
                             " inputs, given ", inputs.size());
    space_.assign("run_elementwise", shape, {&out}, inputs);
    plan_tiles("run_elementwise", program);
}

void ElementwisePlan::prepare_copy(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                                   const Strided &dst) {
    check_dtype(dt, "copy_strided");
    copy_.inputs.assign(1, dt);
    copy_.code.clear();
    copy_.result = 0;
    space_.assign("copy_strided", shape, {&dst, &src});
    plan_tiles("copy_strided", copy_);
}

// Operand 0 of space_ is the output, operand i + 1 is program input i.
void ElementwisePlan::plan_tiles(const char *driver, const Program &program) {
    empty_ = space_.numel() == 0;
    if (empty_) return;
    space_.simplify_for(0);  // walk the output in memory order

    const int32_t ops = space_.operands();
    input_strides_.resize(ops - 1);
    for (int32_t i = 1; i < ops; ++i) input_strides_[i - 1] = space_.last_stride(i);
    out_stride_ = space_.last_stride(0);
    program_.prepare(driver, program, input_strides_, out_stride_ == 1);
    sizes_.resize(ops);
    sizes_[0] = dtype_size(program_.result_dtype());
    for (int32_t i = 1; i < ops; ++i) sizes_[i] = dtype_size(program.inputs[i - 1]);

    const int32_t last = space_.rank() - 1;
    length_ = space_.dim(last);
    stream_output_ = out_stride_ == 1 && streams_output(touched_bytes());
    // A streamed row that starts inside a line takes one more tile (see run).
    tiles_ = (length_ + kTile - 1) / kTile + (stream_output_ ? 1 : 0);
    items_ = space_.count(0, last) * tiles_;
}

// The bytes the plan reads and writes: the elements each operand spans times their size.
int64_t ElementwisePlan::touched_bytes() const {
    int64_t total = 0;
    for (int32_t op = 0; op < space_.operands(); ++op)
        total += space_.elements_of(op) * int64_t(sizes_[size_t(op)]);
    return total;
}

// Writes a tile's values to the output tile `out` of `len` elements, unless they are there.
void ElementwisePlan::store(const TileValues &v, char *out, int64_t len) const {
    if (v.data == out) return;  // written in place
    const size_t size = sizes_[0];
    if (!v.step)
        broadcast(size, len, v.data, out, out_stride_);
    else if (out_stride_ == 1)
        unary(UnaryFn::Copy, program_.result_dtype(), len, v.data, out);
    else
        scatter(size, len, v.data, out, out_stride_);
}

// One tile, which starts at every operand's base: small runs skip the bookkeeping. A program
// whose registers fit in kStackTileScratch and that keeps no values in scratch slots evaluates in
// a buffer on the stack, without looking up the thread's scratch (a thread-local read that costs
// a call into the dynamic linker from a shared library), which saves a few percent of the
// instructions of a run of a 4-float add (valgrind --tool=callgrind bench_call 1000).
void ElementwisePlan::run_one_tile(void *const *bases) const {
    auto inputs = reinterpret_cast<const char *const *>(bases + 1);
    auto evaluate = [&](void *scratch) {
        store(program_.run(scratch, length_, inputs, bases[0], false),
              static_cast<char *>(bases[0]), length_);
    };
    if (program_.scratch_bytes() <= kStackTileScratch) {
        alignas(64) unsigned char local[kStackTileScratch];
        return evaluate(local);
    }
    with_scratch([&](Scratch &own) {
        evaluate(scratch_buffer(own, ScratchArea::Tile, program_.scratch_bytes()));
    });
}

void ElementwisePlan::run(void *const *bases, ThreadPool *pool) const {
    if (empty_) return;
    if (items_ == 1) return run_one_tile(bases);
    with_scratch([&](Scratch &) {
        const int32_t ops = space_.operands(), last = space_.rank() - 1;
        // Workers take their own scratch (thread_scratch), the calling thread `own`.
        for_items(pool, items_, std::min(length_, kTile), [&](int64_t begin, int64_t end) {
            void *scratch = thread_scratch(ScratchArea::Tile, program_.scratch_bytes());
            auto offsets = static_cast<int64_t *>(
                thread_scratch(ScratchArea::Operands, ops * (sizeof(int64_t) + sizeof(char *))));
            auto pointers = reinterpret_cast<char **>(offsets + ops);
            for (int64_t item = begin; item < end; ++item) {
                std::fill(offsets, offsets + ops, 0);
                space_.add_offsets(0, last, item / tiles_, offsets);
                // A streamed row whose first element lies inside a line: its first tile takes
                // the elements up to the line's end, stored as usual, and the others start on
                // lines, streamed whole. Its values stay those of the usual tiles (each computed
                // alone), but the chain streams only a tile that starts on a vector boundary,
                // which is much faster than storing the row as usual (bench_ab --threads 1 --only
                // tanh_fma --offset 16). A row that starts on a line leaves its last tile empty.
                const int64_t lead =
                    stream_output_
                        ? elements_to_line(advance(bases[0], offsets[0], sizes_[0]), sizes_[0])
                        : 0;
                const int64_t tile = item % tiles_;
                int64_t start = tile * kTile, stop = start + kTile;
                if (lead != 0) {
                    start = tile == 0 ? 0 : lead + (tile - 1) * kTile;
                    stop = tile == 0 ? lead : start + kTile;
                }
                stop = std::min(stop, length_);
                if (start >= stop) continue;
                const int64_t len = stop - start;
                for (int32_t op = 0; op < ops; ++op)
                    pointers[op] = advance(bases[op], offsets[op] + start * space_.last_stride(op),
                                           sizes_[op]);
                store(program_.run(scratch, len, pointers + 1, pointers[0], stream_output_),
                      pointers[0], len);
            }
            if (stream_output_) fence_streamed_stores();
        });
    });
}

// The drivers keep their plan in the calling thread's scratch, so a warm call does not allocate.
void run_elementwise(const Program &program, const std::vector<int64_t> &shape,
                     const std::vector<Strided> &inputs, const Strided &out, ThreadPool *pool) {
    with_scratch([&](Scratch &scratch) {
        ElementwisePlan &plan = scratch.elementwise.plan;
        std::vector<void *> &bases = scratch.elementwise.bases;
        plan.prepare(program, shape, inputs, out);
        bases.resize(inputs.size() + 1);
        bases[0] = out.data;
        for (size_t i = 0; i < inputs.size(); ++i) bases[i + 1] = inputs[i].data;
        plan.run(bases.data(), pool);
    });
}

void copy_strided(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                  const Strided &dst, ThreadPool *pool) {
    with_scratch([&](Scratch &scratch) {
        ElementwisePlan &plan = scratch.copy.plan;
        plan.prepare_copy(dt, shape, src, dst);
        void *bases[2] = {dst.data, src.data};
        plan.run(bases, pool);
    });
}

}  // namespace ng::kernels
