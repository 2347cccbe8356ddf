/**
 * @file checkpoint.h
 * @brief Checkpoints: a transformer's persistent values saved to a file and loaded again.
 *
 * A checkpoint holds the value of every persistent tensor a transformer knows (variables,
 * optimizer state, other persistent tensors; not constants, which come from the graph, nor
 * placeholders, which are inputs), each found by its op's name with its dtype and axes, and the
 * state of the transformer's random generator. The tensors a transformer knows are those of
 * every computation created on it (while one of them exists, or once it has run) and those whose
 * value was set with ng_transformer_set_value(). docs/serialization.md describes the file format.
 *
 * In a new process, build the same graph (same op names), create the same computations on a new
 * transformer, then load: the loaded values replace the initial values, which are then never
 * computed.
 * @code
 * ng_computation_t *step = ng_computation_create(t, &update, 1, params, 2);
 * if (ng_transformer_load(t, "model.ckpt") != NG_OK) { ... ng_last_error() says why ... }
 * ... train ...
 * ng_transformer_save(t, "model.ckpt");
 * @endcode
 */
#ifndef NANOGRAPH_CHECKPOINT_H
#define NANOGRAPH_CHECKPOINT_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Saves the transformer's persistent values and random generator state to a file.
 * @param t The transformer.
 * @param path Where to write (UTF-8). An existing file is replaced atomically: the checkpoint is
 *        written to a new file in the same directory, flushed to the disk, renamed over `path`,
 *        and the directory is flushed; a failure at any point leaves the old file as it was.
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid t or a NULL path;
 *         ::NG_ERR_STATE when two of the tensors have the same name (ops of different graphs:
 *         values are found by name, so rename one before creating its computations);
 *         ::NG_ERR_IO when the file cannot be written (the message names the path and the
 *         system's reason); ::NG_ERR_UNSUPPORTED for a checkpoint larger than 2 GiB;
 *         ::NG_ERR_OUT_OF_MEMORY.
 *
 * A tensor that a computation uses but no run has created a value for yet is given its initial
 * value first, as its first run would. Runs of the transformer's computations wait while the
 * values are copied, so the checkpoint never holds a half-done step; it is safe to call from any
 * thread. Nothing is retained: the caller keeps `t` and `path`.
 */
NG_API ng_status_t ng_transformer_save(ng_transformer_t *t, const char *path);

/**
 * @brief Replaces the transformer's persistent values and random generator state with those of
 * a checkpoint written by ng_transformer_save().
 * @param t The transformer. Every computation whose tensors the checkpoint holds must already be
 *        created on it (or their values set), so that it knows each tensor's name, dtype and axes.
 * @param path The checkpoint file (UTF-8).
 * @return ::NG_OK; ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid t or a NULL path;
 *         ::NG_ERR_IO when the file cannot be read (nonexistent, no permission);
 *         ::NG_ERR_FORMAT for a file that is not a checkpoint or is damaged (empty, truncated,
 *         wrong magic bytes, a CRC-32 that does not match, a payload that does not parse, a value
 *         without elements, two values of one name); ::NG_ERR_UNSUPPORTED for a checkpoint format
 *         version this library does not read; ::NG_ERR_NOT_FOUND when a tensor of the transformer
 *         has no value in the checkpoint, or the checkpoint has a value for a tensor the
 *         transformer does not know (the message names them); ::NG_ERR_DTYPE when a value's
 *         dtype differs from its tensor's; ::NG_ERR_AXES when its axes (names or lengths, in
 *         order) differ; ::NG_ERR_STATE when two of the transformer's tensors have the same name;
 *         ::NG_ERR_OUT_OF_MEMORY.
 *
 * All or nothing: the whole file is checked and decoded before any value changes, so on any
 * failure every value is as it was. Runs of the transformer's computations wait while the values
 * are replaced; it is safe to call from any thread. Nothing is retained.
 */
NG_API ng_status_t ng_transformer_load(ng_transformer_t *t, const char *path);

#ifdef __cplusplus
}
#endif

#endif
