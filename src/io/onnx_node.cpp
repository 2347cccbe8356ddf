// Checked access to an ONNX node, the positional helpers and the operator table.
#include "io/onnx_node.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "graph/builders.hpp"

namespace ng::onnx_io {
namespace {

std::unordered_map<std::string, Translation> &table() {
    static std::unordered_map<std::string, Translation> t;
    return t;
}

}  // namespace

void add_translation(const char *op_type, Translation t) {
    table()[op_type] = t;
}

Node::Node(ImportContext &ctx, const onnx::NodeProto &n)
    : c(ctx), proto(n), label(n.op_type() + " node '" + n.name() + "'") {}

Op *Node::in(int i) {
    if (!has_input(i)) throw bad(concat("input ", i, " is missing"));
    return c.op(proto.input(i));
}

const Known &Node::known(int i, const char *what) {
    if (!has_input(i)) throw bad(concat("its ", what, " (input ", i, ") is missing"));
    return c.known(proto.input(i), label, what);
}

const Known *Node::known_or_null(int i) {
    return has_input(i) ? c.known_or_null(proto.input(i)) : nullptr;
}

const onnx::AttributeProto *Node::attr(const char *name,
                                       onnx::AttributeProto_AttributeType t) const {
    for (const onnx::AttributeProto &a : proto.attribute())
        if (a.name() == name) {
            if (a.type() != t && !(a.type() == onnx::AttributeProto::UNDEFINED))
                throw bad(concat("attribute ", name, " has the wrong type"));
            return &a;
        }
    return nullptr;
}

bool Node::has_attr(const char *name) const {
    for (const onnx::AttributeProto &a : proto.attribute())
        if (a.name() == name) return true;
    return false;
}

int64_t Node::attr_int(const char *name, int64_t fallback) const {
    const onnx::AttributeProto *a = attr(name, onnx::AttributeProto::INT);
    return a ? a->i() : fallback;
}

float Node::attr_float(const char *name, float fallback) const {
    const onnx::AttributeProto *a = attr(name, onnx::AttributeProto::FLOAT);
    return a ? a->f() : fallback;
}

std::string Node::attr_string(const char *name, const std::string &fallback) const {
    const onnx::AttributeProto *a = attr(name, onnx::AttributeProto::STRING);
    return a ? a->s() : fallback;
}

std::vector<int64_t> Node::attr_ints(const char *name) const {
    const onnx::AttributeProto *a = attr(name, onnx::AttributeProto::INTS);
    if (!a) return {};
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

void Node::out(int i, Op *op) {
    if (i >= proto.output_size() || proto.output(i).empty()) return;
    if (c.has(proto.output(i)))
        throw bad(concat("output '", proto.output(i), "' is defined twice"));
    c.define(proto.output(i), c.positional(op));
}

void Node::out_known(int i, Known k) {
    if (i >= proto.output_size() || proto.output(i).empty()) return;
    if (c.has(proto.output(i)))
        throw bad(concat("output '", proto.output(i), "' is defined twice"));
    c.define_known(proto.output(i), std::move(k));
}

Error Node::unsupported_here(const std::string &what) const {
    return Error(NG_ERR_UNSUPPORTED, concat(label, ": ", what));
}

Error Node::bad(const std::string &what) const {
    return Error(NG_ERR_FORMAT, concat(label, ": ", what));
}

Dims dims_of(const Op *op) {
    Dims d;
    for (const Axis *a : op->axes) d.push_back(a->length);
    return d;
}

int64_t normalize_axis(const Node &n, int64_t axis, int64_t rank) {
    if (axis < -rank || axis >= rank)
        throw n.bad(concat("axis ", axis, " is outside ", -rank, "..", rank - 1));
    return axis < 0 ? axis + rank : axis;
}

Op *reshape_to(ImportContext &c, Op *x, const Dims &shape) {
    if (dims_of(x) == shape) return x;
    return build::reshape(x, c.axes_for(shape));
}

std::vector<Op *> broadcast_operands(Node &n, const std::vector<Op *> &xs, Dims &out) {
    size_t rank = 0;
    for (Op *x : xs) rank = std::max(rank, x->axes.size());
    out.assign(rank, 1);
    for (Op *x : xs) {
        const size_t shift = rank - x->axes.size();
        for (size_t j = 0; j < x->axes.size(); ++j) {
            int64_t d = x->axes[j]->length, &o = out[shift + j];
            if (d == o || d == 1) continue;
            if (o != 1)
                throw axes_error(n.label, ": dimensions ", o, " and ", d, " do not broadcast");
            o = d;
        }
    }
    std::vector<Op *> aligned;
    for (Op *x : xs) {
        const size_t shift = rank - x->axes.size();
        std::vector<SliceSpec> specs;
        Axes kept;
        bool drop = false;
        for (size_t j = 0; j < x->axes.size(); ++j) {
            const int64_t d = x->axes[j]->length, o = out[shift + j];
            if (d == 1 && o != 1) {
                specs.push_back({0, 1, 1, true});
                drop = true;
            } else {
                specs.push_back({0, d, 1, false});
                kept.push_back(n.c.graph.axis("d" + std::to_string(shift + j), d));
            }
        }
        Op *y = drop ? build::slice(x, specs) : x;
        aligned.push_back(kept == y->axes ? y : build::cast_axes(y, kept));
    }
    return aligned;
}

Op *in_positional_order(ImportContext &c, Op *x) {
    Axes sorted = x->axes;
    std::sort(sorted.begin(), sorted.end(), [](const Axis *a, const Axis *b) {
        return std::stoll(a->name.substr(1)) < std::stoll(b->name.substr(1));
    });
    (void)c;
    return sorted == x->axes ? x : build::axes_with_order(x, sorted);
}

Op *elementwise(Node &n, OpKind kind, Op *a, Op *b) {
    Dims out;
    std::vector<Op *> ab = broadcast_operands(n, {a, b}, out);
    return in_positional_order(n.c, build::binary(kind, ab[0], ab[1]));
}

Op *scalar_like(ImportContext &c, DType dt, double value) {
    return build::scalar(c.graph, dt, value);
}

void translate_node(ImportContext &c, const onnx::NodeProto &proto) {
    static std::once_flag once;
    std::call_once(once, [] {
        register_elementwise();
        register_shape_ops();
        register_reductions();
    });
    auto it = table().find(proto.op_type());
    if (it == table().end())
        throw Error(NG_ERR_UNSUPPORTED,
                    concat("operator ", proto.op_type(), " (node '", proto.name(),
                           "') is not supported by nanograph's ONNX importer"));
    Node n(c, proto);
    try {
        it->second(n);
    } catch (const Error &e) {
        // A builder refusing what a node asks for (a length that overflows, say) is a fault of
        // the model: report it as one, naming the node.
        if (e.status() != NG_ERR_INVALID_ARGUMENT) throw;
        throw n.bad(e.what());
    }
}

}  // namespace ng::onnx_io
