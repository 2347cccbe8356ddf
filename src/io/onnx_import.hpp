// ONNX models as graphs (docs/onnx.md): inputs become placeholders, initializers constants (or
// variables), nodes ops, outputs ops named as in the model. Every size, count and offset of the
// (untrusted) model is checked before anything is allocated or read from it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "graph/graph.hpp"

namespace ng {

struct OnnxImportOptions {
    std::map<std::string, int64_t> dims;  // lengths of the symbolic dimensions, by name
    bool trainable = false;               // float initializers become variables
};

std::unique_ptr<Graph> onnx_import(const void *bytes, size_t size,
                                   const OnnxImportOptions &options);

}  // namespace ng
