/* The benchmark workloads: each one's inputs, its nanograph graph and an independent check of
 * its result. bench/peers.py runs the same workloads in NumPy and PyTorch; the names and the
 * shape labels are the join keys of bench/run_all.py, so keep the two files in step. */
#ifndef NG_BENCH_WORKLOADS_H
#define NG_BENCH_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#include "nanograph/nanograph.h"

#define BENCH_MAX_INPUTS 3
#define BENCH_MAX_RANK 2
#define BENCH_MAX_REPS 64 /* upper bound of bench_sizes_t's repetition counts */

/* Problem sizes and repetition counts: the full benchmark, or --quick for a smoke test. */
typedef struct bench_sizes {
    int64_t elementwise;                /* elements of each elementwise input */
    int64_t softmax_rows, softmax_cols; /* softmax over the columns of each row */
    int64_t matmul;                     /* square matrices */
    int64_t reduce_side;                /* square input of the per-axis sums */
    int64_t tiny_calls;                 /* runs of the tiny graph per timed repetition */
    int32_t reps;                       /* timed repetitions of the large workloads */
    int32_t tiny_reps;                  /* timed repetitions of the tiny graph */
} bench_sizes_t;

void bench_sizes_init(bench_sizes_t *s, int quick);

/* One input: a float32 placeholder over named axes, filled with uniform values in [-1, 1). */
typedef struct bench_input {
    const char *axis_names[BENCH_MAX_RANK];
    int64_t dims[BENCH_MAX_RANK];
    int32_t rank;
} bench_input_t;

typedef struct bench_workload {
    const char *name;
    int32_t num_inputs;
    /* 1: the tiny graph, run tiny_calls times per repetition, writing into one preallocated
     * output (as the peers do with out=); 0: one run per repetition returning a new result
     * tensor (as NumPy and PyTorch expressions do). */
    int32_t is_tiny;
    void (*describe_inputs)(const bench_sizes_t *s, bench_input_t *inputs);
    /* The result op, from one placeholder per input (in order). */
    ng_op_t *(*build)(ng_graph_t *g, ng_op_t *const *params);
    /* The worst difference between `result` (dense row-major float32) and a scalar double
     * computation, in units of its tolerance: <= 1 passes; NaN or +inf fails. */
    double (*check)(const bench_input_t *shapes, const float *const *inputs, const float *result);
} bench_workload_t;

extern const bench_workload_t bench_workloads[];
extern const size_t bench_num_workloads;

/* The workload called `name`, or NULL. */
const bench_workload_t *bench_find_workload(const char *name);

/* Fills n floats with uniform values in [-1, 1) from a fixed seed. */
void bench_fill_uniform(float *data, int64_t n, uint64_t seed);

#endif
