// Plain scalar versions of every kernel, written for obviousness rather than speed: loops over
// the N-d index space (programs a row at a time, so that dispatch is paid once a row), libm in
// double, double accumulators for float sums. The tests compare the real kernels against these.
// Test support only: built into nanograph_test_support, never into the library.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernels.hpp"

namespace ng::kernels::reference {

void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out);
void binary(BinaryFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
            void *out);
void compare(CompareFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
             uint8_t *out);
void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int a_step, const void *b,
            int b_step, void *out);
void cast(DType from, DType to, int64_t n, const void *x, void *out);
void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result);
void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc);
void fill_identity(ReduceFn f, DType dt, int64_t n, void *out);
void fill(DType dt, int64_t n, double value, void *out);

void run_elementwise(const Program &program, const std::vector<int64_t> &shape,
                     const std::vector<Strided> &inputs, const Strided &out);
void run_reduce(ReduceFn f, const Program &program, const std::vector<int64_t> &shape,
                const std::vector<Strided> &inputs, const Strided &out);
void run_arg_reduce(bool is_max, DType dt, const std::vector<int64_t> &shape, int32_t dim,
                    const Strided &in, const Strided &out);
void run_softmax(bool log, DType dt, const std::vector<int64_t> &shape,
                 const std::vector<bool> &reduced, const Strided &in, const Strided &out);
void gemm(DType dt, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
          double alpha, const void *a, int64_t lda, const void *b, int64_t ldb, double beta,
          void *c, int64_t ldc);
void copy_strided(DType dt, const std::vector<int64_t> &shape, const Strided &src,
                  const Strided &dst);

}  // namespace ng::kernels::reference
