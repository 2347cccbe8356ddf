// Graphs as ONNX models (docs/onnx.md has the mapping): every op that computes a result becomes
// one or a few ONNX nodes whose tensors have the op's axes, in order, as positional dimensions.
#pragma once

#include <string>
#include <vector>

#include "graph/op.hpp"

namespace ng {

class Transformer;

// The serialized ModelProto computing `results` from the placeholders `params` (the model's
// inputs, in order). Other assignable tensors become initializers: constants with their data,
// the rest with their value in `values` (their initial value when it has none; a private
// transformer when `values` is null). Throws NG_ERR_UNSUPPORTED naming an op ONNX cannot express.
std::string onnx_export(const std::vector<Op *> &results, const std::vector<Op *> &params,
                        Transformer *values);

}  // namespace ng
