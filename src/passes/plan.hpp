// A compiled computation: a list of kernel launches over planned buffers. Lowering (passes/
// lower.cpp) builds it from an ExecGraph, the memory planner (passes/memory_plan.cpp) places
// the arena buffers, and the executor (runtime/executor.cpp) runs it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/storage.hpp"
#include "core/tensor.hpp"
#include "graph/op.hpp"
#include "kernels/kernels.hpp"

namespace ng {

class ThreadPool;

struct Buffer {
    enum class Kind : int32_t {
        Arena,       // an intermediate value; placed in the arena by the memory planner
        Persistent,  // a persistent tensor's storage, held by the transformer
        Constant,    // a constant's data, held by the plan
        Param,       // the input tensor of a parameter, bound at each run
    };
    Kind kind = Kind::Arena;
    DType dtype = 0;
    size_t bytes = 0;
    size_t arena_offset = 0;                  // Arena
    uint64_t persistent = 0;                  // Persistent: the tensor's op uid
    std::shared_ptr<Storage> constant;        // Constant
    int32_t param = -1;                       // Param: index into the run's inputs
    int32_t first_step = -1, last_step = -1;  // liveness (Arena), filled by the planner
    int32_t reuses = -1;  // Arena: another buffer whose memory this one takes over in place
};

// A value of the computation: a strided view of a buffer over the node's axes.
struct Value {
    int32_t buffer = -1;
    Layout layout;  // offset in elements of the buffer's dtype
};

// An operand of a kernel launch: a buffer and strides over the launch's iteration space.
struct Operand {
    int32_t buffer = -1;
    int64_t offset = 0;
    std::vector<int64_t> strides;
};

// What a Kernel step's call receives at run time: its operands' addresses, with the strides the
// plan gave them, and the run's context. Everything else it needs (shapes, the op's attributes)
// it captured when it was made.
struct KernelRun {
    const std::vector<kernels::Strided> &inputs;
    const kernels::Strided &output;
    ThreadPool *pool;
    uint64_t seed, draw;  // the run's random key (see kernels::RandomKey)
};

// The call of a Kernel step, made by the op's lowering.
struct KernelCall {
    std::function<void(const KernelRun &)> run;
    bool may_use_pool = false;  // whether it may hand work to the run's thread pool
    bool draws_random = false;  // whether its values depend on the run's random key
};

struct Step {
    enum class Kind : int32_t {
        Elementwise,  // program over shape
        Reduce,       // reduce_fn of program over shape into output (0 strides on reduced dims)
        Gemm,         // see gemm fields; inputs[0] = A, inputs[1] = B, output = C
        Copy,         // inputs[0] -> output over shape
        Fill,         // output = value over shape
        Kernel,       // kernel.run: any op whose work is one kernel call over its operands
    };
    Kind kind = Kind::Elementwise;
    kernels::Program program;
    kernels::ReduceFn reduce_fn = kernels::ReduceFn::Sum;
    bool flag = false;
    double value = 0;
    DType dtype = 0;  // dtype of the inputs for Copy/Fill/Gemm
    std::vector<int64_t> shape;
    std::vector<Operand> inputs;
    Operand output;
    KernelCall kernel;  // Kernel
    // Gemm: C[m,n] = alpha * op(A)[m,k] op(B)[k,n] + beta * C, row-major leading dimensions.
    // Optional operands after A and B (their index in inputs, -1 when absent): scale_input, one
    // value alpha is multiplied by at run time; bias_input, copied over C before the product
    // (its strides and the output's are over `shape`; beta is then 1). flag: ReLU over C after.
    bool transpose_a = false, transpose_b = false;
    int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
    double alpha = 1, beta = 0;
    int32_t scale_input = -1, bias_input = -1;
};

struct Plan {
    std::vector<Buffer> buffers;
    std::vector<Step> steps;
    std::vector<Value> results;  // value of each result
    std::vector<Dims> result_shapes;
    std::vector<DType> result_dtypes;
    std::vector<int32_t> param_buffers;  // buffer of each parameter (-1 when unused)
    size_t arena_bytes = 0;
    size_t buffer_bytes = 0;
    int32_t num_arena_buffers = 0;
    int32_t num_nodes = 0;
};

}  // namespace ng
