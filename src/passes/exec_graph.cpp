#include "passes/exec_graph.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/checked_math.hpp"
#include "core/error.hpp"

namespace ng {

std::vector<int64_t> Node::shape() const {
    std::vector<int64_t> s;
    s.reserve(axes.size());
    for (const Axis *a : axes) s.push_back(a->length);
    return s;
}

int64_t Node::numel() const {
    return checked_numel(shape(), "value");
}

namespace {

// Depth-first, post-order walk over the user's ops. `value_of` maps an op to the node holding
// its value; `version` maps a persistent op to the node holding its current content (the leaf,
// or the last Assign to it emitted so far).
class Builder {
public:
    explicit Builder(ExecGraph &g) : g_(g) {}

    int32_t visit(const Op *op) {
        if (op->kind == OpKind::AssignableTensor) return current_version(op);
        auto found = value_of_.find(op);
        if (found != value_of_.end()) {
            if (found->second == kInProgress)
                throw invalid_argument("the graph has a cycle through ", op->name);
            return found->second;
        }
        value_of_[op] = kInProgress;
        for (const Op *dep : op->control_deps) visit(dep);

        int32_t id;
        if (op->kind == OpKind::Sequential) {
            if (op->args.empty()) throw invalid_argument(op->name, " is an empty sequential");
            id = -1;
            for (const Op *element : op->args) id = visit(element);  // value of the last
        } else if (op->kind == OpKind::Assign) {
            const Op *target = op->args.at(0);
            int32_t rhs = visit(op->args.at(1));
            int32_t old = current_version(target);
            id = emit(op, {old, rhs});
            version_[target] = id;
            g_.side_effects.push_back(id);
        } else {
            std::vector<int32_t> args;
            args.reserve(op->args.size());
            for (const Op *a : op->args) args.push_back(visit(a));
            id = emit(op, std::move(args));
        }
        value_of_[op] = id;
        return id;
    }

    int32_t leaf(const Op *op) { return current_version(op); }
    bool has_leaf(const Op *op) const { return leaf_of_.count(op) != 0; }
    int32_t leaf_node(const Op *op) const { return leaf_of_.at(op); }

private:
    static constexpr int32_t kInProgress = -2;

    int32_t current_version(const Op *op) {
        auto v = version_.find(op);
        if (v != version_.end()) return v->second;
        int32_t id = emit(op, {});
        leaf_of_[op] = id;
        version_[op] = id;
        return id;
    }

    int32_t emit(const Op *op, std::vector<int32_t> args) {
        Node n;
        n.kind = op->kind;
        n.dtype = op->dtype;
        n.axes = op->axes;
        n.args = std::move(args);
        n.attrs = op->attrs;
        n.origin = op;
        g_.nodes.push_back(std::move(n));
        return static_cast<int32_t>(g_.nodes.size() - 1);
    }

    ExecGraph &g_;
    std::unordered_map<const Op *, int32_t> value_of_;
    std::unordered_map<const Op *, int32_t> version_;
    std::unordered_map<const Op *, int32_t> leaf_of_;
};

}  // namespace

ExecGraph ExecGraph::from_ops(const std::vector<const Op *> &results,
                              const std::vector<const Op *> &params) {
    ExecGraph g;
    Builder b(g);
    for (const Op *r : results) g.results.push_back(b.visit(r));
    for (const Op *p : params) g.params.push_back(b.has_leaf(p) ? b.leaf_node(p) : -1);
    return g;
}

void ExecGraph::forward(int32_t from, int32_t to) {
    for (Node &n : nodes)
        for (int32_t &a : n.args)
            if (a == from) a = to;
    for (int32_t &r : results)
        if (r == from) r = to;
}

void ExecGraph::remove_dead() {
    const int32_t n = static_cast<int32_t>(nodes.size());
    std::vector<char> live(n, 0);
    std::vector<int32_t> stack(results.begin(), results.end());
    stack.insert(stack.end(), side_effects.begin(), side_effects.end());
    while (!stack.empty()) {
        int32_t i = stack.back();
        stack.pop_back();
        if (i < 0 || live[i]) continue;
        live[i] = 1;
        for (int32_t a : nodes[i].args) stack.push_back(a);
    }
    // Parameters stay: a run binds them whether or not anything reads them.
    std::vector<int32_t> renumber(n, -1);
    std::vector<Node> kept;
    for (int32_t i = 0; i < n; ++i) {
        bool is_param = std::find(params.begin(), params.end(), i) != params.end();
        if (!live[i] && !is_param) continue;
        renumber[i] = static_cast<int32_t>(kept.size());
        kept.push_back(std::move(nodes[i]));
    }
    for (Node &node : kept)
        for (int32_t &a : node.args) a = renumber[a];
    auto remap = [&](std::vector<int32_t> &ids) {
        for (int32_t &i : ids)
            if (i >= 0) i = renumber[i];
    };
    remap(results);
    remap(params);
    remap(side_effects);
    side_effects.erase(std::remove(side_effects.begin(), side_effects.end(), -1),
                       side_effects.end());
    nodes = std::move(kept);
}

}  // namespace ng
