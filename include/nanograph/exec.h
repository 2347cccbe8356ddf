/**
 * @file exec.h
 * @brief Transformers and computations: compiling graphs and running them on the CPU.
 *
 * A transformer holds the values of every persistent tensor (placeholders, persistent tensors,
 * variables) used by the computations made on it, and shares them between those computations.
 * Initializers (initial values) run once, before the first run that needs them. A value belongs to
 * its op alone: an op created later never sees it, even one that reuses the memory of a destroyed
 * op.
 *
 * Graphs, transformers, computations and tensors may be destroyed in any order. A computation
 * holds everything it needs (its copy of the graph and axes, the descriptions and compiled
 * initializers of its persistent tensors) and keeps its transformer's values alive, so it runs,
 * initializers included, after its graph and its transformer handle are gone.
 *
 * A computation is compiled once from result ops and parameter placeholders: the compiler works
 * on its own copy of the graph (dead code, common subexpressions, constant folding, algebraic
 * simplification), turns views into strides, and plans all intermediate memory in one arena, so a
 * run allocates nothing except tensors for NULL output slots. Persistent values change only
 * through `ng_assign` ops that the computation's results reach: a computation of
 * `x + 1` does not run an `assign(x, 5)` that exists elsewhere in the graph, while
 * `ng_sequential({assign(x, 5), x + 1})` does, in that order.
 *
 * The order of side effects is the graph's, never the result list's: each element of a
 * sequential sees the assignments of the elements before it; an op is computed once, at its first
 * position in that order (later assignments do not change its value); a read that no sequential
 * orders against an assignment sees the value at the start of the run; a persistent tensor listed
 * itself as a result is its value after the run. Two assignments to one tensor that no sequential
 * orders are refused (::NG_ERR_INVALID_ARGUMENT). docs/transformer.md has examples.
 *
 * Threads: every transformer and computation function may be called from any thread.
 * - Runs of one computation from several threads at once take turns (they are serialised).
 * - Computations of one transformer run in parallel, except that runs of computations that use
 *   persistent tensors (placeholders, persistent tensors, variables) take turns: a training
 *   step that writes a variable never overlaps a run that reads it. ng_transformer_get_value()
 *   and ng_transformer_set_value() wait for such runs too.
 * - ng_transformer_set_num_threads() may be called at any time: runs under way finish with the
 *   threads they started with.
 * - Destroy a handle only when no other thread is using it.
 */
#ifndef NANOGRAPH_EXEC_H
#define NANOGRAPH_EXEC_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Creates a transformer.
 * @param backend NULL or "cpu" (the only backend).
 * @return A new transformer (destroy with ng_transformer_destroy()), or NULL with
 *         ::NG_ERR_UNSUPPORTED for another backend name.
 *
 * The transformer keeps a pool of threads, one per core (see ng_transformer_set_num_threads()):
 * the calling thread and worker threads named "nanograph-pool". The workers start with the first
 * run that may split its work over them, so a transformer whose thread count is then set to 1, or
 * that only runs small computations, starts none. Idle workers poll for the next job for up to
 * 200 microseconds before they sleep. float32 matrix products by a constant or by a
 * persistent tensor that the computation does not write (a layer's weights at inference) run in
 * nanograph's own kernels on these threads (on CPUs with AVX2 or AVX-512), the matrix packed once
 * and kept from run to run while the tensor is unchanged; other matrix products go to OpenBLAS,
 * which keeps threads of its own as long as it is loaded. nanograph never changes OpenBLAS's
 * process-wide thread count (set it with OPENBLAS_NUM_THREADS or openblas_set_num_threads()).
 */
NG_API ng_transformer_t *ng_transformer_create(const char *backend);

/**
 * @brief Destroys a transformer handle.
 * @param t The transformer, or NULL. Computations made on it keep its persistent values and
 *          threads alive and go on working; when the handle and all those computations are
 *          destroyed, the threads are joined and the values freed (so a host may then dlclose
 *          the library). Tensors taken with ng_transformer_get_value() are copies and stay valid.
 */
NG_API void ng_transformer_destroy(ng_transformer_t *t);

/**
 * @brief Seeds the transformer's random generator, which ng_uniform() and ng_normal() draw from,
 * and restarts its count of draws: the runs that follow draw the same values as after any other
 * call with this seed. A new transformer has seed 0.
 * @param t The transformer.
 * @param seed Any value.
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid t.
 */
NG_API ng_status_t ng_transformer_set_seed(ng_transformer_t *t, uint64_t seed);

/**
 * @brief Sets the number of threads the transformer's kernels use (OpenBLAS's own thread count,
 * a process-wide setting, is left as it is).
 * @param t The transformer.
 * @param threads 1 or more; 0 means the number of cores. The old workers are joined once the
 *        runs using them finish; the new ones start with the next run that uses them.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for a NULL transformer or a negative count.
 */
NG_API ng_status_t ng_transformer_set_num_threads(ng_transformer_t *t, int32_t threads);

/**
 * @brief The number of threads the transformer's kernels use (including the calling thread).
 * @param t The transformer.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a NULL transformer.
 */
NG_API int32_t ng_transformer_num_threads(const ng_transformer_t *t);

/**
 * @brief Gives a transformer its own allocator, used instead of the process-wide one
 * (ng_set_allocator()) for the large blocks the transformer and its computations make from now
 * on.
 * @param t The transformer.
 * @param allocator The functions and ctx (the struct is copied and may be freed after the call;
 *        ctx is not owned), or NULL to go back to the process-wide allocator, whichever is
 *        installed when each block is made.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid t, a struct_size smaller than
 *         the first published ::ng_allocator_t, or a NULL allocate or deallocate;
 *         ::NG_ERR_UNSUPPORTED for a larger struct_size with fields this library does not know
 *         set. On failure the transformer keeps the allocator it had.
 *
 * What it covers, for blocks made after the call:
 * - the values of t's persistent tensors (variables, persistent tensors, placeholders and
 *   constants, whether created by a run, ng_transformer_set_value() or ng_transformer_load());
 * - for computations created on t after the call: their arena and the constant data of their
 *   plan (compiled constants, folded values);
 * - for every run of a computation of t (whenever it was created): the output tensors it makes
 *   (outputs passed as NULL) and a larger arena made when inputs arrive with new strides.
 *
 * Not covered: tensors the caller makes (ng_tensor_create(), ng_tensor_wrap(), ...), the copies
 * ng_transformer_get_value() returns, and the library's small bookkeeping objects (graphs, ops,
 * handles, plans), which use the process-wide allocator or the C++ allocator as before.
 *
 * Memory made before the call stays with the allocator that made it and is freed through it
 * (the rule of ng_set_allocator()): keep an allocator's functions and ctx valid until every
 * block it made is returned, that is until t, every computation created on t and every output
 * tensor of their runs are destroyed or released, in any order. (A computation keeps the memory
 * of its last new output per result for reuse, see ng_computation_run(): after a release, that
 * block goes back when the computation is destroyed or when a run finds another allocator.)
 *
 * Thread safety: may be called from any thread, also while computations of t run on others; a
 * run under way may finish with the allocator it started with. Calls on one transformer from
 * several threads at once leave one of the allocators given.
 */
NG_API ng_status_t ng_transformer_set_allocator(ng_transformer_t *t,
                                                const ng_allocator_t *allocator);

/**
 * @brief Compiles a computation.
 * @param t The transformer whose persistent values the computation uses.
 * @param results The ops whose values a run returns, in order (may include assigns and
 * sequentials).
 * @param nresults Number of results (0 or more; a computation of only side effects is fine).
 * @param params The placeholders whose values each run takes as inputs, in order.
 * @param nparams Number of parameters.
 * @return A new computation (destroy with ng_computation_destroy()), or NULL:
 *         ::NG_ERR_INVALID_ARGUMENT for NULL handles or a parameter that is not a placeholder or
 *         is listed twice; ::NG_ERR_STATE when a placeholder the results need is neither a
 *         parameter nor has a value or an initial value (the message names it);
 *         ::NG_ERR_UNSUPPORTED for a graph the CPU backend cannot run.
 */
NG_API ng_computation_t *ng_computation_create(ng_transformer_t *t, ng_op_t *const *results,
                                               int32_t nresults, ng_op_t *const *params,
                                               int32_t nparams);

/**
 * @brief Destroys a computation.
 * @param c The computation, or NULL.
 */
NG_API void ng_computation_destroy(ng_computation_t *c);

/**
 * @brief The number of parameters a computation takes: the length of a run's `inputs`.
 * @param c The computation (its graph may already be destroyed).
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid handle.
 */
NG_API int32_t ng_computation_num_params(const ng_computation_t *c);

/**
 * @brief The number of results a computation returns: the length of a run's `outputs`.
 * @param c The computation (its graph may already be destroyed).
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid handle.
 */
NG_API int32_t ng_computation_num_results(const ng_computation_t *c);

/**
 * @name Parameters and results of a computation
 * What a computation takes and returns, for hosts that did not build its graph. Everything here
 * stays answerable after the graph and the transformer handle are destroyed. `i` indexes the
 * parameters (0 to ng_computation_num_params() - 1) or the results, `axis` the value's axes (0
 * to rank - 1). An index out of range, like a NULL or invalid handle, is
 * ::NG_ERR_INVALID_ARGUMENT and gives NULL / -1 / 0.
 */
/**@{*/

/**
 * @brief The name of parameter i (the placeholder's name).
 * @param c The computation.
 * @param i The parameter's index.
 * @return A string owned by the computation, valid until it is destroyed; NULL on failure.
 */
NG_API const char *ng_computation_param_name(const ng_computation_t *c, int32_t i);

/**
 * @brief The dtype an input tensor for parameter i must have.
 * @param c The computation.
 * @param i The parameter's index.
 * @return The dtype, or 0 on failure.
 */
NG_API ng_dtype_t ng_computation_param_dtype(const ng_computation_t *c, int32_t i);

/**
 * @brief The rank of parameter i.
 * @param c The computation.
 * @param i The parameter's index.
 * @return The number of axes (0 for a scalar), or -1 on failure.
 */
NG_API int32_t ng_computation_param_rank(const ng_computation_t *c, int32_t i);

/**
 * @brief The name of one axis of parameter i; an input's dims follow the axes in this order.
 * @param c The computation.
 * @param i The parameter's index.
 * @param axis The axis' position.
 * @return A string owned by the computation, valid until it is destroyed; NULL on failure.
 */
NG_API const char *ng_computation_param_axis_name(const ng_computation_t *c, int32_t i,
                                                  int32_t axis);

/**
 * @brief The length of one axis of parameter i: the input's dim at that position.
 * @param c The computation.
 * @param i The parameter's index.
 * @param axis The axis' position.
 * @return The length (0 or more), or -1 on failure.
 */
NG_API int64_t ng_computation_param_axis_length(const ng_computation_t *c, int32_t i, int32_t axis);

/**
 * @brief The name of result i (the result op's name).
 * @param c The computation.
 * @param i The result's index.
 * @return A string owned by the computation, valid until it is destroyed; NULL on failure.
 */
NG_API const char *ng_computation_result_name(const ng_computation_t *c, int32_t i);

/**
 * @brief The dtype of result i.
 * @param c The computation.
 * @param i The result's index.
 * @return The dtype, or 0 on failure.
 */
NG_API ng_dtype_t ng_computation_result_dtype(const ng_computation_t *c, int32_t i);

/**
 * @brief The rank of result i.
 * @param c The computation.
 * @param i The result's index.
 * @return The number of axes (0 for a scalar), or -1 on failure.
 */
NG_API int32_t ng_computation_result_rank(const ng_computation_t *c, int32_t i);

/**
 * @brief The name of one axis of result i; an output's dims follow the axes in this order.
 * @param c The computation.
 * @param i The result's index.
 * @param axis The axis' position.
 * @return A string owned by the computation, valid until it is destroyed; NULL on failure.
 */
NG_API const char *ng_computation_result_axis_name(const ng_computation_t *c, int32_t i,
                                                   int32_t axis);

/**
 * @brief The length of one axis of result i: the output's dim at that position.
 * @param c The computation.
 * @param i The result's index.
 * @param axis The axis' position.
 * @return The length (0 or more), or -1 on failure.
 */
NG_API int64_t ng_computation_result_axis_length(const ng_computation_t *c, int32_t i,
                                                 int32_t axis);
/**@}*/

/**
 * @brief Runs a computation once.
 * @param c The computation.
 * @param inputs nparams tensors, one per parameter, each with the placeholder's dtype and its
 *        dims in the order of the placeholder's axes; any strides. Not modified, not retained.
 *        May be NULL when num_inputs is 0.
 * @param num_inputs The length of `inputs`: must equal the computation's parameter count
 *        (ng_computation_num_params()).
 * @param outputs nresults slots. A NULL slot receives a new row-major tensor that the caller
 *        releases; a non-NULL slot is written in place and must match the result's dtype and
 *        shape (any strides). May be NULL when nresults is 0. An output may share memory with
 *        an input or another output (running `x = f(x)` in place is allowed): such a result is
 *        written after every input has been read. A dense result into a dense output that shares
 *        nothing is computed straight into it, with no copy (output forwarding).
 *        New tensors are recycled: the computation keeps the memory of the last new tensor it
 *        made for each result, and when the caller has released that tensor and every view of
 *        it, the next run that makes a new tensor for the result reuses the memory (same data
 *        pointer, new values) instead of allocating. A loop that releases each result before the
 *        next run thus allocates nothing once warm, and holds no more memory than the previous
 *        run handed out. A tensor still referenced is never reused or written. The memory stays
 *        with the allocator that made it: a run whose allocator (ng_transformer_set_allocator(),
 *        ng_set_allocator()) differs gives it back and allocates anew; ng_computation_destroy()
 *        gives it back too.
 * @param num_outputs The length of `outputs`: must equal the computation's result count
 *        (ng_computation_num_results()).
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments or inputs, or a count that is
 *         not the computation's; ::NG_ERR_DTYPE /
 *         ::NG_ERR_AXES for an input or output slot whose dtype / shape does not match;
 *         ::NG_ERR_OUT_OF_MEMORY when the system cannot start the transformer's worker threads
 *         (see ng_transformer_create()) or give memory for the outputs. Inputs
 *         and outputs are validated before anything runs: a failed run changes no persistent
 *         value and fills no NULL slot.
 */
NG_API ng_status_t ng_computation_run(ng_computation_t *c, ng_tensor_t *const *inputs,
                                      int32_t num_inputs, ng_tensor_t **outputs,
                                      int32_t num_outputs);

/** @brief Figures of a compiled computation's plan (for tests, benchmarks and tuning). Starts
 * with struct_size and only ever gains fields at the end (see ng_api_t). */
typedef struct ng_computation_stats {
    size_t struct_size;     /**< Set by the caller to sizeof(ng_computation_stats_t). */
    size_t arena_bytes;     /**< Bytes of the one arena holding every intermediate value. */
    int32_t num_buffers;    /**< Intermediate buffers placed in the arena (before reuse). */
    int32_t num_kernels;    /**< Kernel launches per run. */
    int32_t num_nodes;      /**< Ops left after the compiler's passes (views included). */
    int32_t num_source_ops; /**< Ops of the user's graph the computation was compiled from. */
    size_t buffer_bytes; /**< Sum of the intermediate buffers' sizes: arena_bytes without reuse. */
} ng_computation_stats_t;

/**
 * @brief Reads the figures of a computation's plan.
 * @param c The computation.
 * @param out Receives the figures. The caller sets out->struct_size to
 *        sizeof(ng_computation_stats_t) first; only that many bytes are written (fields the
 *        library does not know are zeroed).
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for NULL arguments or a struct_size smaller than
 *         the first published struct.
 *
 * @code
 * ng_computation_stats_t st = {.struct_size = sizeof st};
 * ng_computation_stats(c, &st);
 * @endcode
 */
NG_API ng_status_t ng_computation_stats(const ng_computation_t *c, ng_computation_stats_t *out);

/**
 * @brief Reads the value of a persistent tensor (placeholder, persistent tensor or variable).
 * @param t The transformer.
 * @param persistent The op.
 * @param out Receives a new tensor holding a copy of the value (row-major); the caller releases it.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments or an op that is not a persistent
 *         tensor; ::NG_ERR_NOT_FOUND when the tensor has no value yet (never set, no initializer
 *         run); *out is NULL on failure.
 */
NG_API ng_status_t ng_transformer_get_value(ng_transformer_t *t, const ng_op_t *persistent,
                                            ng_tensor_t **out);

/**
 * @brief Sets the value of a persistent tensor (placeholder, persistent tensor or variable).
 * @param t The transformer.
 * @param persistent The op; constants are refused.
 * @param value A tensor of the op's dtype with dims in the order of its axes (any strides); copied.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for NULL arguments or a constant; ::NG_ERR_DTYPE or
 *         ::NG_ERR_AXES for a value that does not match.
 */
NG_API ng_status_t ng_transformer_set_value(ng_transformer_t *t, const ng_op_t *persistent,
                                            const ng_tensor_t *value);

#ifdef __cplusplus
}
#endif

#endif
