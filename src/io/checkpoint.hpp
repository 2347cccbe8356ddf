// Checkpoints: the values of a transformer's persistent tensors (variables, optimizer state,
// other persistent tensors; not constants, which come from the graph, nor placeholders, which are
// inputs) and its random generator's state, in one file.
//
// The file (integers little-endian):
//   offset  0  8 bytes  magic: 0x89 'N' 'G' 'C' 'K' 'P' 'T' '\n'
//   offset  8  uint32   format version, kCheckpointVersion
//   offset 12  uint32   CRC-32 (zlib's, the ISO 3309 polynomial) of the payload
//   offset 16  uint64   payload length: the file is exactly 24 + length bytes
//   offset 24  payload  an ng.io.ckpt.Checkpoint message (io/checkpoint.proto)
// Each value is found by its op's name and carries its axis names; dtype, axis lengths and
// elements are a TensorFlow TensorProto with tensor_content.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "runtime/transformer.hpp"

namespace ng::io {

constexpr uint32_t kCheckpointVersion = 1;
constexpr size_t kCheckpointHeaderSize = 24;

struct CheckpointValue {
    std::string name;
    std::vector<std::string> axis_names;
    Tensor value;  // dense, row-major, owning its memory
};

struct CheckpointContents {
    std::vector<CheckpointValue> values;  // names unique
    uint64_t random_seed = 0;
    uint64_t random_draws = 0;
};

// The bytes of a checkpoint of `t`, taken under its value lock so that no run changes a value
// half-way. Tensors that computations use but no run has created yet are created first, as
// their first run would. Two tensors of one name are NG_ERR_STATE.
std::string checkpoint_bytes(Transformer &t);

// Checks and decodes a whole checkpoint file's bytes; `what` names them in messages (the path).
// Every length, count and size is checked before it is used: damaged bytes are NG_ERR_FORMAT (a
// version this library does not read is NG_ERR_UNSUPPORTED), never a crash.
CheckpointContents decode_checkpoint(const void *bytes, size_t size, const std::string &what);

// Sets the values of `t` from a decoded checkpoint, all or nothing: the checkpoint must hold
// exactly the tensors `t` knows (NG_ERR_NOT_FOUND names those missing on either side), each of
// the same dtype (NG_ERR_DTYPE) and axes (NG_ERR_AXES). On a failure no value has changed.
void apply_checkpoint(Transformer &t, CheckpointContents contents, const std::string &what);

// Writes checkpoint_bytes(t) atomically to `path`; reads, decodes and applies `path`.
void save_checkpoint(Transformer &t, const std::string &path);
void load_checkpoint(Transformer &t, const std::string &path);

}  // namespace ng::io
