// One ONNX node under translation: checked access to its inputs and attributes, and the shared
// positional helpers (NumPy broadcasting by renaming, reshapes to positional axes).
#pragma once

#include <string>
#include <vector>

#include "io/onnx_import_context.hpp"

namespace ng::onnx_io {

class Node {
public:
    Node(ImportContext &c, const onnx::NodeProto &n);

    ImportContext &c;
    const onnx::NodeProto &proto;
    std::string label;  // "Reshape node 'r1'": how messages name the node

    int num_inputs() const { return proto.input_size(); }
    bool has_input(int i) const { return i < proto.input_size() && !proto.input(i).empty(); }
    Op *in(int i);  // NG_ERR_FORMAT when absent
    const Known &known(int i, const char *what);
    const Known *known_or_null(int i);

    const onnx::AttributeProto *attr(const char *name, onnx::AttributeProto_AttributeType t) const;
    int64_t attr_int(const char *name, int64_t fallback) const;
    float attr_float(const char *name, float fallback) const;
    std::string attr_string(const char *name, const std::string &fallback) const;
    std::vector<int64_t> attr_ints(const char *name) const;  // empty when absent
    bool has_attr(const char *name) const;

    int num_outputs() const { return proto.output_size(); }
    void out(int i, Op *op);  // the op, made positional, becomes output i (if it is wanted)
    void out_known(int i, Known k);
    Error unsupported_here(const std::string &what) const;
    Error bad(const std::string &what) const;  // NG_ERR_FORMAT naming the node
};

Dims dims_of(const Op *op);
// An axis index of ONNX (negative counts from the end) checked against rank.
int64_t normalize_axis(const Node &n, int64_t axis, int64_t rank);
// x's elements onto positional axes of `shape` (x itself when its shape is already that).
Op *reshape_to(ImportContext &c, Op *x, const Dims &shape);
// The ops broadcast NumPy-style: each with its axes renamed to the result's positions and its
// length-1 dimensions that broadcast dropped. `out` receives the result's dims.
std::vector<Op *> broadcast_operands(Node &n, const std::vector<Op *> &xs, Dims &out);
// An op whose axes are the positional names of `rank` positions, in any order, put in order.
Op *in_positional_order(ImportContext &c, Op *x);
// kind(a, b) with NumPy broadcasting.
Op *elementwise(Node &n, OpKind kind, Op *a, Op *b);
// A rank-0 constant of dtype dt.
Op *scalar_like(ImportContext &c, DType dt, double value);

// Registers the translations of each family; translate_node looks them up by op_type.
using Translation = void (*)(Node &);
void add_translation(const char *op_type, Translation t);
void register_elementwise();
void register_shape_ops();
void register_reductions();

}  // namespace ng::onnx_io
