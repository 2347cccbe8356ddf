#include "graph/axes_rules.hpp"

#include <unordered_set>

#include "core/error.hpp"

namespace ng {

std::string describe(const Axis *axis) {
    return concat(axis->name, "(", axis->length, ")");
}

std::string describe(const Axes &axes) {
    std::string s = "(";
    for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + describe(axes[i]);
    return s + ")";
}

Dims axes_shape(const Axes &axes) {
    Dims shape;
    shape.reserve(axes.size());
    for (const Axis *a : axes) shape.push_back(a->length);
    return shape;
}

int32_t find_by_name(const Axes &axes, const std::string &name) {
    for (size_t i = 0; i < axes.size(); ++i)
        if (axes[i]->name == name) return static_cast<int32_t>(i);
    return -1;
}

void require_same_length(const Axis *a, const Axis *b) {
    if (a->length != b->length)
        throw axes_error("axes ", describe(a), " and ", describe(b),
                         " share a name but not a length");
}

Axes align_by_name(const Axes &a, const Axes &b) {
    Axes result = a;
    for (const Axis *axis : b) {
        int32_t i = find_by_name(a, axis->name);
        if (i < 0)
            result.push_back(axis);
        else
            require_same_length(a[i], axis);
    }
    return result;
}

void require_distinct_names(const Axes &axes, const char *what) {
    std::unordered_set<std::string> seen;
    for (const Axis *axis : axes)
        if (!seen.insert(axis->name).second)
            throw axes_error(what, " ", describe(axes), " name axis ", axis->name, " twice");
}

std::vector<int32_t> positions_of(const Axes &wanted, const Axes &have, const char *have_what) {
    std::vector<int32_t> positions;
    positions.reserve(wanted.size());
    for (const Axis *axis : wanted) {
        int32_t i = find_by_name(have, axis->name);
        if (i < 0)
            throw axes_error("axis ", describe(axis), " is not an axis of ", have_what, " ",
                             describe(have));
        require_same_length(have[i], axis);
        positions.push_back(i);
    }
    return positions;
}

void require_graph(const Graph &g, const Op *op, const char *what) {
    if (op->graph != &g) throw invalid_argument(what, " (", op->name, ") belongs to another graph");
}

void require_graph(const Graph &g, const Axis *axis, const char *what) {
    if (axis->graph != &g)
        throw invalid_argument(what, " ", describe(axis), " belongs to another graph");
}

void require_same_graph(const Op *first, const Op *other) {
    if (first->graph != other->graph)
        throw invalid_argument("op ", other->name, " belongs to another graph than op ",
                               first->name);
}

void require_same_dtype(const Op *a, const Op *b) {
    if (a->dtype != b->dtype)
        throw dtype_error("dtypes ", dtype_name(a->dtype), " (", a->name, ") and ",
                          dtype_name(b->dtype), " (", b->name,
                          ") differ; convert one with ng_cast");
}

void require_float(const Op *x, const char *what) {
    if (!dtype_is_float(x->dtype))
        throw dtype_error(what, " (", x->name, ") is ", dtype_name(x->dtype),
                          ", not float32 or float64; convert it with ng_cast");
}

void require_numeric(const Op *x, const char *what) {
    if (x->dtype == NG_BOOL)
        throw dtype_error(what, " (", x->name,
                          ") is bool, which has no arithmetic; convert it with ng_cast");
}

void require_integer(const Op *x, const char *what) {
    if (!dtype_is_integer(x->dtype))
        throw dtype_error(what, " (", x->name, ") is ", dtype_name(x->dtype),
                          ", not an integer dtype");
}

void require_operand_dtypes(OpKind kind, const Op *x, const char *what) {
    switch (op_kind_operand_dtypes(kind)) {
    case OperandDTypes::Any: return;
    case OperandDTypes::Numeric: return require_numeric(x, what);
    case OperandDTypes::Float: return require_float(x, what);
    case OperandDTypes::Integer: return require_integer(x, what);
    }
}

std::unique_ptr<Op> make_op(OpKind kind, DType dt, Axes axes, std::vector<Op *> args) {
    const int32_t arity = op_kind_arity(kind);
    if (arity == kVariadic ? args.empty() : args.size() != static_cast<size_t>(arity))
        throw internal_error(op_kind_name(kind), " made with ", args.size(), " arguments");
    auto op = std::make_unique<Op>();
    op->kind = kind;
    op->dtype = dt;
    op->axes = std::move(axes);
    op->args = std::move(args);
    return op;
}

Op *finish(std::unique_ptr<Op> op) {
    // A field the kind does not declare would be invisible to whatever reads the declaration.
    const AttrSet undeclared = attrs_set(op->attrs) & ~op_kind_attrs(op->kind);
    if (undeclared != 0)
        throw internal_error("a ", op_kind_name(op->kind), " op sets undeclared attributes: ",
                             describe_attrs(op->attrs, undeclared));
    Graph *g = op->args.empty() ? op->graph : op->args.front()->graph;
    return g->add(std::move(op));
}

}  // namespace ng
