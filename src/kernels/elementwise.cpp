// run_elementwise and copy_strided: a Program over an N-d space, tile by tile along the
// innermost dimension, the output written in place when it is contiguous there.
#include <algorithm>

#include "core/error.hpp"
#include "kernels/iteration.hpp"
#include "kernels/parallel.hpp"
#include "kernels/tile_program.hpp"
#include "kernels/scratch.hpp"

namespace ng::kernels {
namespace {

// Operand 0 of `space` is the output, operand i + 1 is program input i; bases likewise.
// `scratch` is the calling thread's: workers reach its members through the references below.
void run_tiles(Scratch &scratch, const char *driver, IterationSpace &space, const Program &program,
               void *const *bases, ThreadPool *pool) {
    TileProgram &tile_program = scratch.tiles.program;
    std::vector<int64_t> &input_strides = scratch.tiles.input_strides;
    std::vector<size_t> &element_sizes = scratch.tiles.element_sizes;
    const TileProgram &tp = tile_program;
    std::vector<size_t> &sizes = element_sizes;

    if (space.numel() == 0) return;
    space.simplify_for(0);  // walk the output in memory order

    auto ops = space.operands();
    input_strides.resize(ops - 1);
    for (int32_t i = 1; i < ops; ++i) input_strides[i - 1] = space.last_stride(i);
    int64_t out_stride = space.last_stride(0);
    tile_program.prepare(driver, program, input_strides, out_stride == 1);
    sizes.resize(ops);
    sizes[0] = dtype_size(tile_program.result_dtype());
    for (int32_t i = 1; i < ops; ++i) sizes[i] = dtype_size(program.inputs[i - 1]);

    int32_t last = space.rank() - 1;
    int64_t length = space.dim(last);
    int64_t tiles = (length + kTile - 1) / kTile;
    int64_t tile_elements = std::min(length, kTile);
    DType out_dtype = tp.result_dtype();

    for_items(pool, space.count(0, last) * tiles, tile_elements, [&](int64_t begin, int64_t end) {
        void *scratch = thread_scratch(ScratchArea::Tile, tp.scratch_bytes());
        auto offsets = static_cast<int64_t *>(
            thread_scratch(ScratchArea::Operands, ops * (sizeof(int64_t) + sizeof(char *))));
        auto pointers = reinterpret_cast<char **>(offsets + ops);
        for (int64_t item = begin; item < end; ++item) {
            int64_t start = item % tiles * kTile;
            int64_t len = std::min(kTile, length - start);
            std::fill(offsets, offsets + ops, 0);
            space.add_offsets(0, last, item / tiles, offsets);
            for (int32_t op = 0; op < ops; ++op)
                pointers[op] =
                    advance(bases[op], offsets[op] + start * space.last_stride(op), sizes[op]);
            TileValues v = tp.run(scratch, len, pointers + 1, pointers[0]);
            if (v.data == pointers[0]) continue;  // written in place
            if (v.step) {
                if (out_stride == 1)
                    unary(UnaryFn::Copy, out_dtype, len, v.data, pointers[0]);
                else
                    scatter(sizes[0], len, v.data, pointers[0], out_stride);
            } else {
                broadcast(sizes[0], len, v.data, pointers[0], out_stride);
            }
        }
    });
}

}  // namespace

void run_elementwise(const Program &program, const std::vector<int64_t> &shape,
                     const std::vector<Strided> &inputs, const Strided &out, ThreadPool *pool) {
    if (inputs.size() != program.inputs.size())
        throw internal_error("run_elementwise: program has ", program.inputs.size(),
                             " inputs, given ", inputs.size());
    with_scratch([&](Scratch &scratch) {
        IterationSpace &space = scratch.elementwise.space;
        std::vector<void *> &bases = scratch.elementwise.bases;
        space.assign("run_elementwise", shape, {&out}, inputs);
        bases.resize(inputs.size() + 1);
        bases[0] = out.data;
        for (size_t i = 0; i < inputs.size(); ++i) bases[i + 1] = inputs[i].data;
        run_tiles(scratch, "run_elementwise", space, program, bases.data(), pool);
    });
}

void copy_strided(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                  const Strided &dst, ThreadPool *pool) {
    check_dtype(dt, "copy_strided");
    with_scratch([&](Scratch &scratch) {
        IterationSpace &space = scratch.copy.space;
        Program &copy = scratch.copy.program;
        copy.inputs.assign(1, dt);
        copy.result = 0;
        space.assign("copy_strided", shape, {&dst, &src});
        void *bases[2] = {dst.data, src.data};
        run_tiles(scratch, "copy_strided", space, copy, bases, pool);
    });
}

}  // namespace ng::kernels
