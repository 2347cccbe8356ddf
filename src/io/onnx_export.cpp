// The ONNX exporter. Named axes become positions: the ONNX tensor of an op has the op's axes, in
// order, as its dimensions. Where nanograph aligns operands by name, the exporter first moves each
// operand's axes into the result's order (Transpose) and gives it a dimension of length 1 for every
// result axis it lacks (Unsqueeze), so ONNX's positional broadcasting computes the same thing.
#include "io/onnx_export.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "io/arena_message.hpp"
#include "io/onnx_types.hpp"
#include "nanograph/base.h"
#include "runtime/computation.hpp"
#include "runtime/transformer.hpp"

namespace ng {
namespace {

using onnx_io::onnx_type_of;

Dims shape_of(const Axes &axes) {
    Dims d;
    for (const Axis *a : axes) d.push_back(a->length);
    return d;
}

int64_t position(const Axes &axes, const Axis *axis) {
    int32_t i = find_by_name(axes, axis->name);
    if (i < 0) throw internal_error("ONNX export: axis ", describe(axis), " not found");
    return i;
}

class Exporter {
public:
    Exporter(onnx::GraphProto &graph, Transformer &values) : graph_(graph), values_(values) {}

    void run(const std::vector<Op *> &results, const std::vector<Op *> &params) {
        std::vector<Op *> order = reachable(results);
        for (Op *op : order) used_.insert(op->name);
        for (Op *p : params) {
            if (!p->is_assignable() || !(p->flags() & kFlagInput))
                throw invalid_argument("parameter ", p->name, " is not a placeholder");
            if (names_.count(p)) throw invalid_argument("parameter ", p->name, " is listed twice");
            used_.insert(p->name);
            names_[p] = p->name;
            describe_value(*graph_.add_input(), p->name, p->dtype, p->axes);
        }
        for (Op *op : order)
            if (!names_.count(op)) names_[op] = emit(op);
        std::unordered_set<std::string> outputs;
        for (Op *r : results) {
            std::string name = names_.at(r);
            // An output of its own: not a model input, an initializer or an earlier output.
            if (r->is_assignable() || outputs.count(name)) {
                std::string copy = fresh(r->name);
                node("Identity", {name}, copy);
                name = copy;
            }
            outputs.insert(name);
            describe_value(*graph_.add_output(), name, r->dtype, r->axes);
        }
    }

private:
    // Ops the results depend on, in creation order (which is a topological order).
    static std::vector<Op *> reachable(const std::vector<Op *> &results) {
        std::vector<Op *> order, stack(results.begin(), results.end());
        std::unordered_set<const Op *> seen;
        while (!stack.empty()) {
            Op *op = stack.back();
            stack.pop_back();
            if (!seen.insert(op).second) continue;
            order.push_back(op);
            for (Op *a : op->args) stack.push_back(a);
        }
        std::sort(order.begin(), order.end(),
                  [](const Op *a, const Op *b) { return a->id < b->id; });
        return order;
    }

    std::string fresh(const std::string &base) {
        std::string name = base;
        for (int64_t i = 1; used_.count(name); ++i) name = base + "/" + std::to_string(i);
        used_.insert(name);
        return name;
    }

    onnx::NodeProto &node(const char *type, const std::vector<std::string> &inputs,
                          const std::string &output) {
        onnx::NodeProto &n = *graph_.add_node();
        n.set_op_type(type);
        n.set_name(output);
        for (const std::string &i : inputs) n.add_input(i);
        n.add_output(output);
        return n;
    }
    // A node with a fresh output named after `hint`.
    std::string step(const char *type, const std::vector<std::string> &inputs,
                     const std::string &hint) {
        std::string out = fresh(hint + "/" + type);
        node(type, inputs, out);
        return out;
    }

    static void attr_int(onnx::NodeProto &n, const char *name, int64_t v) {
        onnx::AttributeProto &a = *n.add_attribute();
        a.set_name(name);
        a.set_type(onnx::AttributeProto::INT);
        a.set_i(v);
    }
    static void attr_ints(onnx::NodeProto &n, const char *name, const Dims &v) {
        onnx::AttributeProto &a = *n.add_attribute();
        a.set_name(name);
        a.set_type(onnx::AttributeProto::INTS);
        for (int64_t x : v) a.add_ints(x);
    }

    static void describe_value(onnx::ValueInfoProto &v, const std::string &name, DType dt,
                               const Axes &axes) {
        v.set_name(name);
        onnx::TypeProto_Tensor &t = *v.mutable_type()->mutable_tensor_type();
        t.set_elem_type(onnx_type_of(dt));
        onnx::TensorShapeProto &s = *t.mutable_shape();
        for (const Axis *a : axes) s.add_dim()->set_dim_value(a->length);
    }

    std::string initializer(const std::string &name, DType dt, const Dims &shape, const void *data,
                            size_t bytes) {
        onnx::TensorProto &t = *graph_.add_initializer();
        t.set_name(name);
        t.set_data_type(onnx_type_of(dt));
        for (int64_t d : shape) t.add_dims(d);
        if (data)
            t.set_raw_data(data, bytes);
        else
            t.set_raw_data(std::string(bytes, '\0'));
        return name;
    }
    std::string ints(const std::string &hint, const Dims &values) {
        return initializer(fresh(hint), NG_INT64, {static_cast<int64_t>(values.size())},
                           values.data(), values.size() * sizeof(int64_t));
    }

    // x's tensor, arranged positionally to broadcast against a result with axes `target`.
    std::string aligned(Op *x, const Axes &target) {
        std::string name = names_.at(x);
        std::vector<int64_t> at;
        for (const Axis *a : x->axes) at.push_back(position(target, a));
        Dims perm(at.size());
        for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
        std::sort(perm.begin(), perm.end(), [&](int64_t i, int64_t j) { return at[i] < at[j]; });
        if (!std::is_sorted(at.begin(), at.end())) {
            std::string t = fresh(name + "/Transpose");
            attr_ints(node("Transpose", {name}, t), "perm", perm);
            name = t;
        }
        if (x->axes.size() < target.size()) {
            Dims missing;
            for (size_t i = 0; i < target.size(); ++i)
                if (find_by_name(x->axes, target[i]->name) < 0)
                    missing.push_back(static_cast<int64_t>(i));
            name = step("Unsqueeze", {name, ints(name + "/axes", missing)}, name);
        }
        return name;
    }

    std::string reshape_to(const std::string &x, const Dims &shape, const std::string &out) {
        node("Reshape", {x, ints(out + "/shape", shape)}, out);
        return out;
    }

    // How each op kind is written: the Onnx column of op_kinds.def.
    struct ExportRule {
        std::string (Exporter::*write)(Op *op, const char *onnx_type);
        const char *onnx_type;  // onnx_as: the type of the one node written; null otherwise
        const char *refusal;    // onnx_refused: why ONNX cannot express the op
    };

    std::string emit(Op *op) {
#define onnx_as(Rule, Type)             \
    ExportRule {                        \
        &Exporter::Rule, #Type, nullptr \
    }
#define onnx_by(Rule)                     \
    ExportRule {                          \
        &Exporter::Rule, nullptr, nullptr \
    }
#define onnx_refused(Why)     \
    ExportRule {              \
        nullptr, nullptr, Why \
    }
        static const ExportRule rules[] = {
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) Onnx,
#include "graph/op_kinds.def"
        };
#undef onnx_as
#undef onnx_by
#undef onnx_refused
        static_assert(sizeof rules / sizeof rules[0] == kNumOpKinds, "one rule per op kind");
        const ExportRule &rule = rules[static_cast<int32_t>(op->kind)];
        if (rule.write == nullptr)
            throw unsupported("op ", op->name, " of type ", op_type_name(*op),
                              " has no ONNX equivalent: ", rule.refusal);
        return (this->*rule.write)(op, rule.onnx_type);
    }

    std::string square(Op *op, const char *) {
        const std::string &x = names_.at(op->args[0]);
        node("Mul", {x, x}, op->name);
        return op->name;
    }

    std::string cast(Op *op, const char *) {
        attr_int(node("Cast", {names_.at(op->args[0])}, op->name), "to", onnx_type_of(op->dtype));
        return op->name;
    }

    // Of two booleans, the larger is their "or" and the smaller their "and".
    std::string maximum(Op *op, const char *) {
        return binary(op, op->dtype == NG_BOOL ? "Or" : "Max");
    }
    std::string minimum(Op *op, const char *) {
        return binary(op, op->dtype == NG_BOOL ? "And" : "Min");
    }

    std::string not_equal(Op *op, const char *) {
        std::string eq = fresh(op->name + "/Equal");
        node("Equal", {aligned(op->args[0], op->axes), aligned(op->args[1], op->axes)}, eq);
        node("Not", {eq}, op->name);
        return op->name;
    }

    std::string select(Op *op, const char *) {
        node("Where",
             {aligned(op->args[0], op->axes), aligned(op->args[1], op->axes),
              aligned(op->args[2], op->axes)},
             op->name);
        return op->name;
    }

    std::string arg_reduce(Op *op, const char *type) {
        Op *x = op->args[0];
        onnx::NodeProto &n = node(type, {names_.at(x)}, op->name);
        attr_int(n, "axis", position(x->axes, op->attrs.axis));
        attr_int(n, "keepdims", 0);
        return op->name;
    }

    std::string broadcast(Op *op, const char *) {
        std::string x = aligned(op->args[0], op->axes);
        node("Expand", {x, ints(op->name + "/shape", shape_of(op->axes))}, op->name);
        return op->name;
    }

    std::string transpose(Op *op, const char *) {
        Dims perm;
        for (const Axis *a : op->axes) perm.push_back(position(op->args[0]->axes, a));
        attr_ints(node("Transpose", {names_.at(op->args[0])}, op->name), "perm", perm);
        return op->name;
    }

    std::string reshape(Op *op, const char *) {
        return reshape_to(names_.at(op->args[0]), shape_of(op->axes), op->name);
    }

    std::string pad(Op *op, const char *) {
        const PadWidths &padding = op->attrs.padding;
        Dims pads(2 * padding.size());
        for (size_t i = 0; i < padding.size(); ++i) {
            pads[i] = padding[i].first;
            pads[i + padding.size()] = padding[i].second;
        }
        node("Pad", {names_.at(op->args[0]), ints(op->name + "/pads", pads)}, op->name);
        return op->name;
    }

    // The index axes take the gathered axis's place, as in ONNX's Gather.
    std::string gather(Op *op, const char *type) {
        Op *params = op->args[0];
        attr_int(node(type, {names_.at(params), names_.at(op->args[1])}, op->name), "axis",
                 position(params->axes, op->attrs.axis));
        return op->name;
    }

    std::string concat(Op *op, const char *) {
        std::vector<std::string> inputs;
        for (Op *a : op->args) inputs.push_back(names_.at(a));
        attr_int(node("Concat", inputs, op->name), "axis", position(op->axes, op->attrs.axis));
        return op->name;
    }

    std::string tensor(Op *op, const char *) {
        if (op->flags() & kFlagConstant) {
            const SharedBytes &d = op->attrs.data;
            const size_t bytes = static_cast<size_t>(Layout{shape_of(op->axes), {}, 0}.numel()) *
                                 dtype_size(op->dtype);
            return initializer(op->name, op->dtype, shape_of(op->axes),
                               d.empty() ? nullptr : d.data(), bytes);
        }
        if ((op->flags() & kFlagInput) && !values_.has_value(op->uid))
            throw invalid_argument("placeholder ", op->name,
                                   " is neither among the parameters nor has a value");
        // Its value in the transformer: computing the tensor alone runs its initializer first
        // when it has no value yet.
        Computation read(values_.shared_from_this(), {op}, {});
        Tensor v;
        Tensor *slot = nullptr;
        read.run(nullptr, &slot, &v);
        std::string bytes(static_cast<size_t>(v.numel()) * v.element_size(), '\0');
        v.read(bytes.data(), bytes.size());
        return initializer(op->name, op->dtype, shape_of(op->axes), bytes.data(), bytes.size());
    }

    std::string unary(Op *op, const char *type) {
        node(type, {names_.at(op->args[0])}, op->name);
        return op->name;
    }

    std::string binary(Op *op, const char *type) {
        node(type, {aligned(op->args[0], op->axes), aligned(op->args[1], op->axes)}, op->name);
        return op->name;
    }

    std::string reduce(Op *op, const char *type) {
        return reduce_with(op, type, false);
    }
    // Since opset 13, ReduceSum takes its axes as an input rather than an attribute.
    std::string reduce_axes_input(Op *op, const char *type) {
        return reduce_with(op, type, true);
    }
    std::string reduce_with(Op *op, const char *type, bool axes_as_input) {
        Op *x = op->args[0];
        Dims axes;
        for (const Axis *a : op->attrs.axes) axes.push_back(position(x->axes, a));
        std::sort(axes.begin(), axes.end());
        if (axes.empty()) {  // nothing to reduce: ONNX would read an empty list as "all"
            node("Identity", {names_.at(x)}, op->name);
            return op->name;
        }
        onnx::NodeProto *n;
        if (axes_as_input) {
            n = &node(type, {names_.at(x), ints(op->name + "/axes", axes)}, op->name);
        } else {
            n = &node(type, {names_.at(x)}, op->name);
            attr_ints(*n, "axes", axes);
        }
        attr_int(*n, "keepdims", 0);
        return op->name;
    }

    // a (others, contracted) x b (contracted, others) as one MatMul of two matrices.
    std::string dot(Op *op, const char *) {
        Op *a = op->args[0], *b = op->args[1];
        const Axes &k = op->attrs.axes;
        auto matrix = [&](Op *x, bool contracted_first) {
            Axes order;
            int64_t others = 1, inner = 1;
            for (const Axis *ax : x->axes)
                if (find_by_name(k, ax->name) < 0) order.push_back(ax), others *= ax->length;
            Axes inner_axes;
            for (const Axis *ax : k) inner_axes.push_back(x->axes[position(x->axes, ax)]);
            for (const Axis *ax : inner_axes) inner *= ax->length;
            order.insert(contracted_first ? order.begin() : order.end(), inner_axes.begin(),
                         inner_axes.end());
            std::string name = names_.at(x);
            Dims perm;
            for (const Axis *ax : order) perm.push_back(position(x->axes, ax));
            if (!std::is_sorted(perm.begin(), perm.end())) {
                std::string t = fresh(name + "/Transpose");
                attr_ints(node("Transpose", {name}, t), "perm", perm);
                name = t;
            }
            Dims shape = contracted_first ? Dims{inner, others} : Dims{others, inner};
            return reshape_to(name, shape, fresh(name + "/Reshape"));
        };
        std::string product = step("MatMul", {matrix(a, false), matrix(b, true)}, op->name);
        return reshape_to(product, shape_of(op->axes), op->name);
    }

    std::string softmax(Op *op, const char *type) {
        Op *x = op->args[0];
        const Axes &norm = op->attrs.axes;
        if (norm.size() == 1) {
            attr_int(node(type, {names_.at(x)}, op->name), "axis", position(x->axes, norm[0]));
            return op->name;
        }
        // Several axes: move them last, merge them, normalise the merged axis, undo both.
        Dims perm;
        Dims kept_shape;
        int64_t merged = 1;
        for (size_t i = 0; i < x->axes.size(); ++i)
            if (find_by_name(norm, x->axes[i]->name) < 0)
                perm.push_back(static_cast<int64_t>(i)), kept_shape.push_back(x->axes[i]->length);
        for (const Axis *a : norm) {
            perm.push_back(position(x->axes, a));
            merged *= a->length;
        }
        std::string t = fresh(op->name + "/Transpose");
        attr_ints(node("Transpose", {names_.at(x)}, t), "perm", perm);
        Dims flat = kept_shape;
        flat.push_back(merged);
        std::string f = reshape_to(t, flat, fresh(op->name + "/Reshape"));
        std::string s = fresh(op->name + "/" + type);
        attr_int(node(type, {f}, s), "axis", -1);
        Dims moved = kept_shape;
        for (const Axis *a : norm) moved.push_back(a->length);
        std::string back = reshape_to(s, moved, fresh(op->name + "/Unflatten"));
        Dims inverse(perm.size());
        for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
        attr_ints(node("Transpose", {back}, op->name), "perm", inverse);
        return op->name;
    }

    std::string slice(Op *op, const char *) {
        Op *x = op->args[0];
        Dims starts, ends, axes, steps, dropped;
        for (size_t i = 0; i < op->attrs.slices.size(); ++i) {
            const SliceSpec &s = op->attrs.slices[i];
            if (s.drop) dropped.push_back(static_cast<int64_t>(i));
            if (s.start == 0 && s.step == 1 && s.stop == x->axes[i]->length) continue;
            starts.push_back(s.start);
            // A backward slice to index 0 has stop -1, which ONNX would count from the end.
            ends.push_back(s.stop < 0 ? std::numeric_limits<int64_t>::min() : s.stop);
            axes.push_back(static_cast<int64_t>(i));
            steps.push_back(s.step);
        }
        std::string name = names_.at(x);
        if (!axes.empty()) {
            const std::string &h = op->name;
            std::string sliced = dropped.empty() ? op->name : fresh(h + "/Slice");
            node("Slice",
                 {name, ints(h + "/starts", starts), ints(h + "/ends", ends),
                  ints(h + "/axes", axes), ints(h + "/steps", steps)},
                 sliced);
            name = sliced;
        }
        if (!dropped.empty())
            node("Squeeze", {name, ints(op->name + "/squeezed", dropped)}, op->name);
        else if (axes.empty())
            node("Identity", {name}, op->name);
        return op->name;
    }

    // Equal(x, k) against every class k: values outside the classes give zeros, as in nanograph
    // (ONNX's OneHot would count negative indices from the end).
    std::string one_hot(Op *op, const char *) {
        Op *x = op->args[0];
        const int64_t depth = op->attrs.axis->length;
        // The classes become an initializer: bound its size.
        if (depth > (int64_t{1} << 24))
            throw unsupported("one_hot ", op->name, " has ", depth,
                              " classes; at most 2^24 are exported");
        Dims shape(x->axes.size() + 1, 1);
        shape[0] = depth;
        std::vector<uint8_t> classes(static_cast<size_t>(depth) * dtype_size(x->dtype));
        visit_dtype(x->dtype, [&](auto zero) {
            using T = decltype(zero);
            for (int64_t k = 0; k < depth; ++k)
                reinterpret_cast<T *>(classes.data())[k] = static_cast<T>(k);
        });
        std::string k = initializer(fresh(op->name + "/classes"), x->dtype, shape, classes.data(),
                                    classes.size());
        std::string x1 = step("Unsqueeze", {names_.at(x), ints(op->name + "/axes", {0})}, op->name);
        if (op->dtype == NG_BOOL) {
            node("Equal", {x1, k}, op->name);
        } else {
            std::string eq = step("Equal", {x1, k}, op->name);
            attr_int(node("Cast", {eq}, op->name), "to", onnx_type_of(op->dtype));
        }
        return op->name;
    }

    onnx::GraphProto &graph_;
    Transformer &values_;
    std::unordered_map<const Op *, std::string> names_;
    std::unordered_set<std::string> used_;
};

}  // namespace

std::string onnx_export(const std::vector<Op *> &results, const std::vector<Op *> &params,
                        Transformer *values) {
    if (results.empty()) throw invalid_argument("no results to export");
    // Initial values are computed by a transformer of the exporter's own when none is given.
    std::shared_ptr<Transformer> own = values ? nullptr : std::make_shared<Transformer>(1);
    ArenaMessage<onnx::ModelProto> arena_model;
    onnx::ModelProto &model = *arena_model;
    model.set_ir_version(onnx_io::kExportIrVersion);
    model.set_producer_name("nanograph");
    model.set_producer_version(NG_VERSION_STRING);
    onnx::OperatorSetIdProto &opset = *model.add_opset_import();
    opset.set_domain("");
    opset.set_version(onnx_io::kExportOpset);
    onnx::GraphProto &graph = *model.mutable_graph();
    graph.set_name("nanograph");
    Exporter(graph, values ? *values : *own).run(results, params);
    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw Error(NG_ERR_INTERNAL, "ONNX export: the model could not be serialized");
    return bytes;
}

}  // namespace ng
