#include "graph/dot_export.hpp"

#include <algorithm>

#include "graph/axes_rules.hpp"
#include "graph/queries.hpp"

namespace ng {
namespace {

// A DOT double-quoted string: quotes and backslashes escaped, newlines as line breaks.
std::string quoted(const std::string &text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out + "\"";
}

std::string node_id(const Op *op) {
    return "n" + std::to_string(op->id);
}

// Assignable tensors stand out as boxes, coloured by kind; computations are ellipses.
std::string node_style(const Op *op) {
    if (!op->is_assignable()) return "shape=ellipse";
    const uint32_t f = op->flags();
    const char *fill = (f & kFlagConstant)    ? "lightgrey"
                       : (f & kFlagInput)     ? "lightblue"
                       : (f & kFlagTrainable) ? "palegreen"
                                              : "khaki";
    return std::string("shape=box, style=filled, fillcolor=") + fill;
}

// Name, type, value, then the attributes the kind declares (a tensor's are its type and axes).
std::string node_label(const Op *op) {
    std::string label = op->name + "\n" + op_type_name(*op) + "\n" + dtype_name(op->dtype) + " " +
                        describe(op->axes);
    const std::string attrs =
        describe_attrs(op->attrs, op->is_assignable() ? 0 : op_kind_attrs(op->kind));
    return attrs.empty() ? label : label + "\n" + attrs;
}

void write_edge(std::string &out, const Op *from, const Op *to, const char *attrs) {
    out += "  " + node_id(from) + " -> " + node_id(to) + attrs + ";\n";
}

}  // namespace

std::string graph_to_dot(const Graph &g, const std::vector<Op *> &roots) {
    std::vector<const Op *> nodes;
    if (roots.empty()) {
        for (const auto &op : g.ops()) nodes.push_back(op.get());
    } else {
        walk_upstream(roots, true, [&](Op *op) { nodes.push_back(op); });
        std::sort(nodes.begin(), nodes.end(),
                  [](const Op *a, const Op *b) { return a->id < b->id; });
    }
    std::string out = "digraph nanograph {\n  rankdir=BT;\n  node [fontname=\"Helvetica\"];\n";
    for (const Op *op : nodes)
        out += "  " + node_id(op) + " [label=" + quoted(node_label(op)) + ", " + node_style(op) +
               "];\n";
    // Edges point from an operand to its user, the direction values flow.
    for (const Op *op : nodes) {
        for (size_t i = 0; i < op->args.size(); ++i)
            write_edge(
                out, op->args[i], op,
                op->args.size() > 1 ? (" [label=\"" + std::to_string(i) + "\"]").c_str() : "");
        for (const Op *dep : op->control_deps) write_edge(out, dep, op, " [style=dashed]");
        if (op->initial_value)
            write_edge(out, op->initial_value, op, " [style=dotted, label=\"init\"]");
    }
    return out + "}\n";
}

}  // namespace ng
