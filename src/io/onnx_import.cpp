// The model level of the ONNX importer: parse, check the opset, bind inputs and symbolic dims,
// make initializers, translate nodes in order, name the outputs.
#include "io/onnx_import.hpp"

#include <climits>
#include <unordered_set>

#include "graph/builders.hpp"
#include "io/arena_message.hpp"
#include "io/onnx_import_context.hpp"
#include "runtime/computation.hpp"

namespace ng {
namespace {

using namespace onnx_io;

Error format_error(const std::string &message) {
    return Error(NG_ERR_FORMAT, message);
}

int64_t default_opset(const onnx::ModelProto &model) {
    int64_t opset = -1;
    for (const onnx::OperatorSetIdProto &o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
    return opset;  // -1: only operators of other domains may appear
}

Dims input_shape(const onnx::ValueInfoProto &v, const OnnxImportOptions &options) {
    const onnx::TypeProto_Tensor &t = v.type().tensor_type();
    if (!t.has_shape()) throw invalid_argument("model input '", v.name(), "' has no shape");
    if (t.shape().dim_size() > kMaxRank)
        throw format_error(concat("model input '", v.name(), "' has ", t.shape().dim_size(),
                                  " dims (at most ", kMaxRank, ")"));
    Dims shape;
    for (const onnx::TensorShapeProto_Dimension &d : t.shape().dim()) {
        if (d.has_dim_value()) {
            if (d.dim_value() < 0)
                throw format_error(concat("model input '", v.name(), "' has a negative dim"));
            shape.push_back(d.dim_value());
            continue;
        }
        auto bound = options.dims.find(d.dim_param());
        if (d.dim_param().empty() || bound == options.dims.end())
            throw invalid_argument("dimension ", shape.size(), " of model input '", v.name(),
                                   "' is symbolic ('", d.dim_param(),
                                   "'): give its length by name (dim_names, dim_lengths)");
        shape.push_back(bound->second);
    }
    return shape;
}

// Gives `op` the model's name for it. A name another op holds is taken from it; an op that
// already carries a model name (an input, another output) is first copied by a free view.
Op *claim_name(Graph &g, Op *op, const std::string &name, std::unordered_set<const Op *> &named) {
    if (op->name == name && named.count(op)) return op;
    if (named.count(op)) op = build::cast_axes(op, op->axes);
    if (Op *holder = g.find(name); holder && holder != op)
        g.rename(holder, name + "." + std::to_string(holder->id));
    g.rename(op, name);
    named.insert(op);
    return op;
}

// Values up to this size computed from known values only are evaluated at import, so that shape
// computations (Shape, Cast, Mul, Concat, ... feeding a Reshape or a Range) stay known.
constexpr int64_t kMaxFoldedElements = 1 << 16;

bool inputs_known(const ImportContext &c, const onnx::NodeProto &node) {
    if (node.input_size() == 0) return false;
    for (const std::string &name : node.input())
        if (!name.empty() && !c.known_or_null(name)) return false;
    return true;
}

void fold_outputs(ImportContext &c, const onnx::NodeProto &node, Transformer &values) {
    for (const std::string &name : node.output()) {
        if (name.empty() || c.known_or_null(name)) continue;
        Op *op = c.op(name);
        Dims shape;
        int64_t count = 1;
        for (const Axis *a : op->axes) shape.push_back(a->length), count *= a->length;
        if (count > kMaxFoldedElements) continue;
        Computation comp(values.shared_from_this(), {op}, {});
        Tensor out;
        comp.run(nullptr, std::vector<Tensor *>{nullptr}.data(), &out);
        Known k{op->dtype, shape,
                std::vector<uint8_t>(static_cast<size_t>(count) * dtype_size(op->dtype))};
        out.read(k.data.data(), k.data.size());
        c.define_folded(name, std::move(k));
    }
}

}  // namespace

std::unique_ptr<Graph> onnx_import(const void *bytes, size_t size,
                                   const OnnxImportOptions &options) {
    if (size > static_cast<size_t>(INT_MAX))
        throw format_error(
            concat("the model has ", size, " bytes; protobuf reads at most ", INT_MAX));
    ArenaMessage<onnx::ModelProto> arena_model;
    const onnx::ModelProto &model = *arena_model;
    if (!arena_model->ParseFromArray(bytes, static_cast<int>(size)))
        throw format_error("the bytes are not an ONNX ModelProto");
    if (!model.has_graph()) throw format_error("the model has no graph");
    for (const auto &[name, length] : options.dims)
        if (length < 0)
            throw invalid_argument("dimension '", name, "' has negative length ", length);

    auto graph = std::make_unique<Graph>();
    ImportContext c(*graph, default_opset(model));
    const onnx::GraphProto &gp = model.graph();
    std::unordered_set<const Op *> named;

    std::unordered_set<std::string> initializer_names;
    for (const onnx::TensorProto &t : gp.initializer()) initializer_names.insert(t.name());
    for (const onnx::ValueInfoProto &v : gp.input()) {
        if (initializer_names.count(v.name())) continue;  // a default value: the initializer wins
        if (!v.type().has_tensor_type())
            throw unsupported("model input '", v.name(), "' is not a tensor");
        DType dt = dtype_of_onnx(v.type().tensor_type().elem_type());
        if (dt == 0)
            throw dtype_error("model input '", v.name(), "' has element type ",
                              onnx_type_name(v.type().tensor_type().elem_type()),
                              ", which nanograph lacks");
        if (c.has(v.name())) throw format_error(concat("model input '", v.name(), "' repeats"));
        Op *p = build::placeholder(*graph, dt, c.axes_for(input_shape(v, options)), nullptr);
        c.define(v.name(), claim_name(*graph, p, v.name(), named));
    }
    for (const onnx::TensorProto &t : gp.initializer()) {
        Known k = decode_tensor(t, "initializer '" + t.name() + "'");
        if (options.trainable && dtype_is_float(k.dtype)) {
            Op *v = build::variable(*graph, k.dtype, c.axes_for(k.shape), c.constant(k));
            c.define(t.name(), claim_name(*graph, v, t.name(), named));
        } else {
            c.define(t.name(), claim_name(*graph, c.constant(k), t.name(), named));
            c.define_known(t.name(), std::move(k));
        }
    }
    std::shared_ptr<Transformer> folding;
    for (const onnx::NodeProto &node : gp.node()) {
        if (!node.domain().empty() && node.domain() != "ai.onnx")
            throw unsupported("operator ", node.op_type(), " (of domain ", node.domain(),
                              ", not ONNX's default one) is not supported");
        if (c.opset < 1)
            throw format_error("the model imports no version of the default ONNX opset");
        const bool foldable = inputs_known(c, node);
        translate_node(c, node);
        if (foldable) {
            if (!folding) folding = std::make_shared<Transformer>(1);
            fold_outputs(c, node, *folding);
        }
    }
    if (gp.output_size() == 0) throw format_error("the model has no outputs");
    for (const onnx::ValueInfoProto &v : gp.output()) {
        if (!c.has(v.name()))
            throw format_error(concat("model output '", v.name(), "' is never computed"));
        claim_name(*graph, c.op(v.name()), v.name(), named);
    }
    if (graph->status() != NG_OK) throw Error(graph->status(), graph->first_error());
    return graph;
}

}  // namespace ng
