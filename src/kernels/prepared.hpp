// Strided drivers planned once for fixed shapes and strides. What run_elementwise, copy_strided
// and run_reduce derive from the shape and the operands' strides alone (the validated and
// simplified iteration space, the tile program's register steps and scratch slots, the tiles and
// the split of the work) is worked out by prepare(); run() takes only the operands' base
// addresses. A compiled computation, whose layouts are fixed when it is compiled, prepares each
// step once and pays only run() at every run; the drivers of kernels.hpp prepare and run at once.
//
// run() is const and keeps nothing of a run in the plan (its temporaries are in the running
// threads' scratch, kernels/scratch.hpp), so several threads may run one plan at once. A plan
// refers to nothing outside itself: it may be copied, moved and kept after the Program and the
// vectors it was prepared from are gone.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/iteration.hpp"
#include "kernels/kernels.hpp"
#include "kernels/tile_program.hpp"

namespace ng::kernels {

// out[i] = program(inputs[i]) over a space (run_elementwise), or a strided copy (copy_strided).
class ElementwisePlan {
public:
    // Plans run_elementwise(program, shape, inputs, out, pool): only the strides of `inputs` and
    // `out` are read (their data pointers are ignored). Throws what run_elementwise throws for
    // the same arguments (a program is checked only when the space is not empty).
    void prepare(const Program &program, const std::vector<int64_t> &shape,
                 const std::vector<Strided> &inputs, const Strided &out);
    // Plans copy_strided(dt, shape, src, dst, pool), likewise.
    void prepare_copy(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                      const Strided &dst);

    // bases[0] is the address of the output's element (0, ..., 0), bases[1 + i] that of input i
    // (of the source, for a copy).
    void run(void *const *bases, ThreadPool *pool) const;

private:
    void plan_tiles(const char *driver, const Program &program);
    int64_t touched_bytes() const;
    void store(const TileValues &v, char *out, int64_t len) const;
    void run_one_tile(void *const *bases) const;

    IterationSpace space_;  // operand 0 is the output, operand 1 + i input i
    TileProgram program_;
    // Kept so that preparing again does not allocate: prepare_copy's program, the innermost
    // strides of the inputs.
    Program copy_;
    std::vector<int64_t> input_strides_;
    std::vector<size_t> sizes_;   // element size per operand
    int64_t length_ = 0;          // of the innermost dimension
    int64_t tiles_ = 0;           // per row of the innermost dimension (see run)
    int64_t items_ = 0;           // (row, tile) pairs
    int64_t out_stride_ = 0;      // innermost
    bool empty_ = true;           // no points: nothing to do
    bool stream_output_ = false;  // streamed past the cache (kernels/streaming.hpp)
};

// out = f over a program's values (run_reduce).
class ReducePlan {
public:
    // Plans run_reduce(f, program, shape, inputs, out, pool); only strides are read. Throws what
    // run_reduce throws for the same arguments.
    void prepare(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                 const std::vector<Strided> &inputs, const Strided &out);
    // bases as for ElementwisePlan::run: the output first, then the program's inputs.
    void run(void *const *bases, ThreadPool *pool) const;

private:
    IterationSpace space_;  // simplified: [kept outer dims][reduced outer dims][innermost dim]
    TileProgram program_;
    std::vector<int64_t> input_strides_;  // kept so that preparing again does not allocate
    std::vector<size_t> sizes_;           // element size per operand
    ReduceFn f_ = ReduceFn::Sum;
    DType dt_ = 0;
    int32_t kept_ = 0;    // leading kept dimensions
    int32_t last_ = 0;    // innermost dimension
    bool empty_ = false;  // no points: each output gets the identity of f
};

}  // namespace ng::kernels
