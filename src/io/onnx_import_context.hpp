// What the translation of ONNX nodes works with: every ONNX value as an op whose axes are named by
// position ("d0", "d1", ... from the left), plus the host value of those known at import
// (initializers, Constant nodes, shapes), which shape-like inputs (Reshape's shape, Slice's
// starts, ...) must be.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "core/tensor.hpp"
#include "graph/graph.hpp"
#include "io/onnx_types.hpp"

namespace ng::onnx_io {

// Limits on what an untrusted model may make the importer allocate or build.
constexpr int32_t kMaxRank = 32;
constexpr int64_t kMaxKnownElements = int64_t{1} << 28;  // per tensor read (bounded by its bytes)
constexpr int64_t kMaxBuiltElements = int64_t{1} << 24;  // per value made at import from a shape

// A host value known at import: dense row-major.
struct Known {
    DType dtype = 0;
    Dims shape;
    std::vector<uint8_t> data;
    int64_t numel() const;
    // Elements as int64 / double, whatever the (numeric) dtype.
    std::vector<int64_t> ints(const std::string &what) const;
    std::vector<double> doubles(const std::string &what) const;
};

// A TensorProto decoded after checking its dtype, dims and data sizes. NG_ERR_DTYPE for an element
// type nanograph lacks, NG_ERR_FORMAT for inconsistent sizes, NG_ERR_UNSUPPORTED for external data.
Known decode_tensor(const onnx::TensorProto &t, const std::string &what);

class ImportContext {
public:
    ImportContext(Graph &g, int64_t opset) : graph(g), opset(opset) {}

    Graph &graph;
    int64_t opset;  // of the default domain

    // Positional axes "d0".. of the given lengths.
    Axes axes_for(const Dims &shape);
    // op with its axes renamed to positional ones (a free view; op itself when they already are).
    Op *positional(Op *op);
    // A constant op holding a known value.
    Op *constant(const Known &k);

    void define(const std::string &name, Op *op) { values_[name] = op; }
    void define_known(const std::string &name, Known k) { known_[name] = std::move(k); }
    // A value computed at import: later nodes read a constant of it (made on first use), not
    // the ops that computed it, so folding the next node does not compute them again.
    void define_folded(const std::string &name, Known k) {
        known_[name] = std::move(k);
        values_.erase(name);
    }
    bool has(const std::string &name) const { return values_.count(name) || known_.count(name); }
    // The op of a value (made from its known value on first use); NG_ERR_FORMAT when undefined.
    Op *op(const std::string &name);
    // The known value of an input, or NG_ERR_UNSUPPORTED naming `node` and `what` when it is
    // computed at run time.
    const Known &known(const std::string &name, const std::string &node, const char *what) const;
    const Known *known_or_null(const std::string &name) const;

private:
    std::unordered_map<std::string, Op *> values_;
    std::unordered_map<std::string, Known> known_;
};

// Translates one node: defines its outputs in the context. NG_ERR_UNSUPPORTED naming the operator
// when it has no translation.
void translate_node(ImportContext &c, const onnx::NodeProto &node);

}  // namespace ng::onnx_io
