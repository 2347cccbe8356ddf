// The kernel layer's interface. Two levels:
//  1. contiguous-array primitives (vector_ops): SIMD through xsimd, one implementation per
//     instruction set, chosen at run time (SSE2 baseline, AVX2+FMA, AVX-512);
//  2. strided drivers: run an elementwise *program* (a chain of primitives over registers, so a
//     fused chain is just a longer program) or a reduction over an N-d iteration space whose
//     operands have arbitrary strides (0 = broadcast). They coalesce dimensions, cut the space
//     into cache-sized tiles, gather non-contiguous operands into tile buffers, and split the
//     work over a ThreadPool.
// Every kernel has a plain scalar reference for the tests: tests/support/reference_kernels.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/dtype.hpp"

namespace ng {
class ThreadPool;
}

namespace ng::kernels {

// The kernel functions of each family, from kernel_fns.def.
enum class UnaryFn : int32_t {
#define NG_UNARY_FN(Name, ...) Name,
#include "kernels/kernel_fns.def"
};
enum class BinaryFn : int32_t {
#define NG_BINARY_FN(Name, ...) Name,
#include "kernels/kernel_fns.def"
};
enum class CompareFn : int32_t {
#define NG_COMPARE_FN(Name, ...) Name,
#include "kernels/kernel_fns.def"
};
enum class ReduceFn : int32_t {
#define NG_REDUCE_FN(Name, ...) Name,
#include "kernels/kernel_fns.def"
};

// ---- level 1: contiguous arrays of n elements; outputs may alias inputs ----------------------
// Float kernels for float32/float64; integer dtypes (int32, int64, uint8) use plain loops.
// Unary math (Exp, Log, Tanh, ...) is for float dtypes only; the others (Negative, Absolute, ...)
// work for all numeric dtypes: kernel_fns.def's float_only column says which.
// Defined for every input (no UB, no trap):
//  - integers wrap modulo 2^bits (Add, Subtract, Multiply, Negative, Square, Power, Sum, Prod);
//    Divide truncates toward zero, x / 0 = 0, INT_MIN / -1 = INT_MIN; Power with a negative
//    exponent is the truncated 1 / x^|e| (1 for x = 1, +-1 for x = -1, else 0).
//  - floats: Maximum/Minimum and Max/Min reductions propagate NaN (NumPy's maximum); Sign and Relu
//    keep NaN; Power is libm's pow; Sigmoid saturates to exactly 0 and 1 without NaN.
//  - bool accepts only what keeps values 0/1: the functions of kernel_fns.def's bool_ok column,
//    every compare and select. Others: NG_ERR_DTYPE.
//  - cast: NaN -> 0, float -> integer saturates and truncates, integer -> integer wraps,
//    anything -> bool is != 0.
// Invalid requests throw ng::Error (dtype, negative n, function code out of range, step not 0/1).
void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out);
// a_step / b_step: 1 = array, 0 = one value broadcast over the array.
void binary(BinaryFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
            void *out);
void compare(CompareFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
             uint8_t *out);
void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int a_step, const void *b,
            int b_step, void *out);
void cast(DType from, DType to, int64_t n, const void *x, void *out);
// What unary, binary and compare refuse of a function and dtype, for callers that check an
// instruction once and then call the vector table for each of its tiles (TileProgram).
void check_unary(UnaryFn f, DType dt);
void check_binary(BinaryFn f, DType dt);
void check_compare(CompareFn f, DType dt);
// *result = f over x[0..n) (n may be 0: the identity of f). Float sums use several accumulators.
void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result);
// out[r * out_stride] = f over row r, for `rows` rows of n contiguous values, row r at
// x + r * x_stride (strides in elements). A row longer than `tile` is reduced a tile at a time and
// the tiles' results reduced in turn, which is what reduce_all over each tile and then over their
// results gives, bit for bit; at most kMaxRowTiles tiles a row. One call for many rows saves the
// per-row dispatch of reduce_all (a sum over the rows of a 4096 x 4096 matrix made 12,000 calls).
constexpr int64_t kMaxRowTiles = 64;
void reduce_rows(ReduceFn f, DType dt, int64_t rows, int64_t n, int64_t tile, const void *x,
                 int64_t x_stride, void *out, int64_t out_stride);
// acc[i] = f(acc[i], x[i]).
void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc);
// acc[i] = f(acc[i], rows[0][i], ..., rows[count - 1][i]) in one pass over acc, for 1 to
// kMaxAccumulateRows rows (combined pairwise): the accumulators are read and written once per
// group of rows.
constexpr int32_t kMaxAccumulateRows = 8;
void accumulate_rows(ReduceFn f, DType dt, int64_t n, const void *const *rows, int32_t count,
                     void *acc);
// acc[i] = f(acc[i], column i of every row of `lanes` lanes), for 1 to kMaxAccumulateLanes lanes,
// lane j being `rows` rows of n values lying one after another from starts[j] (an outer-axis
// reduction's rows cut into equal segments). Each lane is read as one stream, the lanes one vector
// apart; each column's values go into acc lane by lane, f(acc, ((lane 0 lane 1) lane 2) ...) for
// every row, the same for any thread count.
constexpr int32_t kMaxAccumulateLanes = 5;
void accumulate_lanes(ReduceFn f, DType dt, int64_t n, int64_t rows, const void *const *starts,
                      int32_t lanes, void *acc);
// out[i] = exp(x[i] - shift[i * shift_step]) (shift_step 0: one shift, 1: one per element) for a
// float dtype where no x[i] exceeds its shift (softmax's exponentials, in one pass; values below
// the smallest normal may come out as 0).
void exp_shifted(DType dt, int64_t n, const void *x, const void *shift, int shift_step, void *out);
// Softmax (log: log-softmax) of `rows` rows of n contiguous values of a float dtype, row r from
// x + r * x_stride into y + r * y_stride (strides in elements; y may be x): max, exponentials and
// their sum (blocks of values summed pairwise), then the scaling, while the row is in the cache.
// stream_out: y is written with stores that bypass the cache where a row allows it (an output of
// at least half the last-level cache, kernels/streaming.hpp), and is in memory on return.
void softmax_rows(DType dt, bool log, int64_t rows, int64_t n, const void *x, int64_t x_stride,
                  void *y, int64_t y_stride, bool stream_out);
// A float chain evaluated a few vectors at a time in registers (run_chain): one running value,
// the accumulator, goes through the steps; its operands are leaves. Leaves 0..inputs-1 are the
// chain's inputs (arrays or one broadcast value), the others temporaries that a Save fills
// before anything reads them. Each step rounds as the level-1 primitive of the same function
// does, so a chain gives the bits of the same functions applied one pass at a time.
struct ChainStep {
    enum class Kind : int32_t {
        Load,            // acc = leaf
        Save,            // leaf (a temporary) = acc
        Unary,           // acc = fn(acc)
        Binary,          // acc = fn(acc, leaf)
        BinaryReversed,  // acc = fn(leaf, acc)
        BinarySelf,      // acc = fn(acc, acc)
    } kind;
    int32_t fn = 0;    // UnaryFn or BinaryFn
    int32_t leaf = 0;  // Load, Save, Binary, BinaryReversed (the others: any leaf, unread)
};
constexpr int32_t kMaxChainLeaves = 16;
// Whether run_chain evaluates the function: kernel_fns.def's chainable column.
bool chain_supports(UnaryFn f);
bool chain_supports(BinaryFn f);
// out[0..n) = the chain (steps code[0..count), the first a Load, the value left in the
// accumulator written out) for a float dtype. inputs[l] / input_steps[l] (1 = array, 0 = one
// value) for the leaves l < input_count; leaves input_count..leaf_count-1 are temporaries. `out`
// may be one of the input arrays (in place), not overlap one otherwise. stream_out: `out` is
// written with stores that bypass the cache where it is aligned to a vector (an output of at
// least half the last-level cache, kernels/streaming.hpp), and is in memory on return (the
// vector table's chain leaves the fence to its caller, fence_streamed_stores).
void run_chain(DType dt, int64_t n, const ChainStep *code, int32_t count, const void *const *inputs,
               const int *input_steps, int32_t input_count, int32_t leaf_count, void *out,
               bool stream_out);
// sum[0] = the sum of the chain's n values (0 for n = 0), none of them stored: the values summed
// in a block's vector accumulators, combined pairwise. Same arguments as run_chain.
void run_chain_sum(DType dt, int64_t n, const ChainStep *code, int32_t count,
                   const void *const *inputs, const int *input_steps, int32_t input_count,
                   int32_t leaf_count, void *sum);

// Fills n elements with the identity of f (0 for Sum, -inf/lowest for Max, ...).
void fill_identity(ReduceFn f, DType dt, int64_t n, void *out);
void fill(DType dt, int64_t n, double value, void *out);

// Random values: Uniform in [a, b), Normal with mean a and standard deviation b.
enum class RandomFn : int32_t { Uniform, Normal };
// What one op's values in one run are a function of: the generator's seed, the number of the
// draw (one per run that draws), and the op's stream (distinct per op of a graph).
struct RandomKey {
    uint64_t seed = 0;
    uint64_t draw = 0;
    uint64_t stream = 0;
};
// out[0..n) for a float dtype; element i depends only on (key, i), never on threads.
void random_fill(RandomFn f, DType dt, int64_t n, const RandomKey &key, double a, double b,
                 void *out);

// ---- level 2: strided drivers ----------------------------------------------------------------

// An operand: the address of element (0,...,0) and one stride (in elements) per dimension of
// the iteration space; stride 0 broadcasts.
struct Strided {
    void *data = nullptr;
    std::vector<int64_t> strides;
};

// An elementwise program. Registers 0..inputs.size()-1 hold the inputs; instruction k writes
// register inputs.size() + k. Each instruction's dtype is the dtype of its operands; compare
// instructions produce NG_BOOL, Cast produces `to`.
struct Instruction {
    enum class Type : int32_t { Unary, Binary, Compare, Select, Cast } type;
    int32_t fn = 0;   // UnaryFn / BinaryFn / CompareFn value
    DType dtype = 0;  // operand dtype
    DType to = 0;     // Cast only
    int32_t src[3] = {-1, -1, -1};
};

struct Program {
    std::vector<DType> inputs;  // dtype of each input register
    std::vector<Instruction> code;
    int32_t result = -1;  // register written to the output
    DType result_dtype() const;
};

// out[i] = program(inputs[i]) for every index i of `shape`.
void run_elementwise(const Program &program, const std::vector<int64_t> &shape,
                     const std::vector<Strided> &inputs, const Strided &out, ThreadPool *pool);

// out = f over the program's values, where `out.strides` has 0 on every reduced dimension (the
// output is the reduction of all iteration points that map to the same output element). The
// output is overwritten (not accumulated into). Mean = Sum then a Multiply by 1/n in the caller.
// Work is split into chunks by size only and partial results are combined in a fixed order, so
// the result is bitwise identical whatever the pool's thread count.
void run_reduce(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                const std::vector<Strided> &inputs, const Strided &out, ThreadPool *pool);

// Index (int64) of the first maximum/minimum along dimension `dim` of `shape`; `out.strides`
// has 0 at `dim`. NaN compares as greater than everything for argmax (first NaN wins).
void run_arg_reduce(bool is_max, DType dt, const std::vector<int64_t> &shape, int32_t dim,
                    const Strided &in, const Strided &out, ThreadPool *pool);

// One-hot encoding: for every index point of `shape`, the class k = indices[point] (an integer
// dtype) sets out[point + k * depth_stride] to 1 in dtype dt when 0 <= k < depth; other classes,
// and every class of an index out of that range, are left as they are: the caller zeroes `out`
// first. `indices` and `out` have one stride per dimension of `shape` (the class axis is not one
// of them: depth_stride is its stride in `out`).
void run_one_hot(DType index_dtype, const Strided &indices, DType dt, const Strided &out,
                 const std::vector<int64_t> &shape, int64_t depth, int64_t depth_stride);

// Max-subtracted softmax (or log-softmax) over the dimensions with reduced[d] = true. Finite for
// inputs of any magnitude.
void run_softmax(bool log, DType dt, const std::vector<int64_t> &shape,
                 const std::vector<bool> &reduced, const Strided &in, const Strided &out,
                 ThreadPool *pool);

// Throws invalid_argument, naming `fn` and the dimension `name`, unless a row-major matrix whose
// stored rows hold row_length elements has leading dimension ld >= max(1, row_length).
void check_leading_dimension(const char *fn, const char *name, int64_t ld, int64_t row_length);

// C[M,N] = alpha * op(A) op(B) + beta * C through OpenBLAS (float32/float64); row-major, with
// leading dimensions in elements. Other dtypes use a plain loop. A float product with one row or
// one column of 65536 to 2^19 elements (a batch-1 layer) is split over `pool` when it has
// several threads (gemm_threads says Pool); other products ignore it.
void gemm(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
          double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
          void *c, int64_t ldc, ThreadPool *pool = nullptr);

// Where gemm with these arguments runs: on the calling thread alone, on the threads of the pool it
// is given (a matrix-vector product gemm splits itself), or in OpenBLAS, which may wake its own
// threads (the caller then sends its pool's polling workers to rest, to leave them the cores).
enum class GemmThreads { Caller, Pool, OpenBlas };
GemmThreads gemm_threads(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n,
                         int64_t k, int64_t ldc);

// Copies src to dst elementwise over `shape` (both strided, same dtype).
void copy_strided(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                  const Strided &dst, ThreadPool *pool);

}  // namespace ng::kernels
