#include "passes/exec_graph.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "graph/axes_rules.hpp"

namespace ng {

std::vector<int64_t> Node::shape() const {
    return axes_shape(axes);
}

int64_t Node::numel() const {
    return checked_numel(shape(), "value");
}

namespace {

// The persistent tensors' versions visible at one point of the order: tensor -> node holding
// its content there (the leaf, or the last Assign to it). Tensors absent from the map have their
// content at the start of the run.
using Versions = std::map<const Op *, int32_t>;
// Shared by the visits made in one context; changed in place only by advance(), when nothing else
// refers to it.
using Context = std::shared_ptr<Versions>;

// Builds the nodes. Every op's value is computed at its first position: the op is visited once,
// in the context (the versions) of that position. Sequentials give positions: element k is
// visited in the context its sequential starts in, plus the side effects of elements 0..k-1.
// Every other op's arguments are visited in the op's own context (they are not ordered among
// themselves). Ops that no sequential reaches are visited in the context of the start of the run.
class Builder {
public:
    explicit Builder(ExecGraph &g) : g_(g), start_(std::make_shared<Versions>()) {}

    // Visits every sequential the results reach before anything else, outermost first (a
    // sequential is created after everything it contains), so an op inside a sequential is
    // positioned there whatever the order of the result list.
    void position_sequentials(const std::vector<const Op *> &results) {
        std::vector<const Op *> sequentials;
        std::unordered_set<const Op *> seen;
        std::vector<const Op *> stack(results.begin(), results.end());
        while (!stack.empty()) {
            const Op *op = stack.back();
            stack.pop_back();
            if (!seen.insert(op).second) continue;
            if (op->kind == OpKind::Sequential) sequentials.push_back(op);
            stack.insert(stack.end(), op->args.begin(), op->args.end());
            stack.insert(stack.end(), op->control_deps.begin(), op->control_deps.end());
        }
        visited_.reserve(seen.size());  // every op the walks will visit: no rehashing
        std::sort(sequentials.begin(), sequentials.end(),
                  [](const Op *a, const Op *b) { return a->id > b->id; });
        for (const Op *s : sequentials) visit(s, start_);
    }

    int32_t visit_result(const Op *op) { return visit(op, start_); }

    // The content of the tensor whose version node is `v` once every assignment has run.
    int32_t final_version(int32_t v) const {
        for (auto next = overwritten_by_.find(v); next != overwritten_by_.end();
             next = overwritten_by_.find(v))
            v = next->second;
        return v;
    }

    bool has_leaf(const Op *op) const { return leaf_of_.count(op) != 0; }
    int32_t leaf_node(const Op *op) const { return leaf_of_.at(op); }

private:
    static constexpr int32_t kInProgress = -2;
    using Effects = Versions;  // the last assign of each tensor an op's evaluation writes

    struct Visited {
        int32_t node;
        Effects effects;
    };

    int32_t visit(const Op *op, const Context &ctx) {
        Effects ignored;
        return visit(op, ctx, ignored);
    }

    // One op being visited: where its evaluation has got to. An op's evaluation visits, in
    // order, its control dependencies (each in the context the previous ones left), then either
    // the elements of a sequential (likewise), or the value of an assignment, or the arguments
    // of any other op (all in the context after the control dependencies).
    struct Frame {
        enum class Stage : uint8_t { ControlDeps, Elements, AssignedValue, Args, Done };
        const Op *op = nullptr;
        Context here;  // the context the next child is visited in
        Effects own;   // the side effects of the op's evaluation so far
        Effects step;  // those of the child being visited, for stages that sequence children
        Stage stage = Stage::ControlDeps;
        size_t next = 0;            // the next child of the stage
        int32_t id = -1;            // a sequential's last element, an assignment's value
        std::vector<int32_t> args;  // the nodes of the arguments visited so far
    };

    // Visits `op` in `ctx`; adds the side effects of its evaluation to `effects`. An explicit
    // stack of frames, not recursion, so a chain of any length fits a thread's stack; the order
    // of visits, contexts and effects is that of the recursive walk the frames stand for.
    int32_t visit(const Op *op, const Context &ctx, Effects &effects) {
        int32_t id;
        if (known(op, ctx, effects, id)) return id;
        std::vector<Frame> stack;
        enter(stack, op, ctx);
        for (;;) {
            Frame &f = stack.back();
            if (const Op *child = next_child(f)) {
                int32_t child_id;
                if (known(child, f.here, sink(f), child_id)) {
                    deliver(f, child_id);
                } else {
                    Context here = f.here;
                    enter(stack, child, here);  // f is invalid from here on
                }
                continue;
            }
            id = finish(f);
            Effects own = std::move(f.own);
            const Op *done = f.op;
            stack.pop_back();
            Frame *parent = stack.empty() ? nullptr : &stack.back();
            merge(parent ? sink(*parent) : effects, own);
            visited_[done] = Visited{id, std::move(own)};
            if (!parent) return id;
            deliver(*parent, id);
        }
    }

    // A tensor's version, or an op visited before (whose side effects `effects` then gets):
    // true with its node in `id`. Throws for an op whose visit is under way (a cycle).
    bool known(const Op *op, const Context &ctx, Effects &effects, int32_t &id) {
        if (op->kind == OpKind::AssignableTensor) {
            id = version(op, *ctx);
            return true;
        }
        auto found = visited_.find(op);
        if (found == visited_.end()) return false;
        if (found->second.node == kInProgress)
            throw invalid_argument("the graph has a cycle through ", op->name);
        merge(effects, found->second.effects);
        id = found->second.node;
        return true;
    }

    void enter(std::vector<Frame> &stack, const Op *op, const Context &ctx) {
        visited_[op] = Visited{kInProgress, {}};
        stack.emplace_back();
        stack.back().op = op;
        stack.back().here = ctx;
        next_stage(stack.back());
    }

    // Moves past the stages with no child left to visit, checking what each stage needs.
    void next_stage(Frame &f) {
        const Op *op = f.op;
        if (f.stage == Frame::Stage::ControlDeps) {
            if (f.next < op->control_deps.size()) return;
            f.next = 0;
            if (op->kind == OpKind::Sequential) {
                if (op->args.empty()) throw invalid_argument(op->name, " is an empty sequential");
                f.stage = Frame::Stage::Elements;
            } else if (op_kind_class(op->kind) == OpClass::Assignment) {
                (void)op->args.at(1);  // the target and the value: refused when missing
                f.stage = Frame::Stage::AssignedValue;
            } else {
                f.args.reserve(op->args.size());
                f.stage = Frame::Stage::Args;
            }
        }
        if ((f.stage == Frame::Stage::Elements || f.stage == Frame::Stage::Args) &&
            f.next == op->args.size())
            f.stage = Frame::Stage::Done;
    }

    // The child the frame visits next, or null when all its children are visited.
    static const Op *next_child(const Frame &f) {
        switch (f.stage) {
        case Frame::Stage::ControlDeps: return f.op->control_deps[f.next];
        case Frame::Stage::Elements:
        case Frame::Stage::Args: return f.op->args[f.next];
        case Frame::Stage::AssignedValue: return f.op->args[1];
        case Frame::Stage::Done: break;
        }
        return nullptr;
    }

    // Where the side effects of the frame's current child go: control dependencies and
    // elements are sequenced one by one; an assigned value and arguments add to the op's own.
    static Effects &sink(Frame &f) {
        return f.stage == Frame::Stage::ControlDeps || f.stage == Frame::Stage::Elements ? f.step
                                                                                         : f.own;
    }

    // Takes the node of the frame's current child (its side effects are in sink(f) already).
    void deliver(Frame &f, int32_t child) {
        switch (f.stage) {
        case Frame::Stage::ControlDeps:
        case Frame::Stage::Elements:
            // Control dependencies run before the op: what follows sees their side effects; a
            // sequential's value is that of its last element.
            if (f.stage == Frame::Stage::Elements) f.id = child;
            merge(f.own, f.step);
            advance(f.here, f.step);
            f.step.clear();
            break;
        case Frame::Stage::AssignedValue:
            f.id = child;
            f.stage = Frame::Stage::Done;
            return;
        case Frame::Stage::Args: f.args.push_back(child); break;
        case Frame::Stage::Done: throw internal_error("a visit delivered to a finished op");
        }
        ++f.next;
        next_stage(f);
    }

    // The op's node, once its children are visited.
    int32_t finish(Frame &f) {
        const Op *op = f.op;
        if (op->kind == OpKind::Sequential) return f.id;
        if (op_kind_class(op->kind) != OpClass::Assignment) return emit(op, std::move(f.args));
        const Op *target = op->args[0];
        // The value is computed before the write, after the side effects that produced it.
        auto written = f.own.find(target);
        int32_t old = written != f.own.end() ? written->second : version(target, *f.here);
        int32_t id = emit(op, {old, f.id});
        auto overwritten = overwritten_by_.emplace(old, id);
        if (!overwritten.second)
            throw invalid_argument("two assignments to ", target->name, " (",
                                   g_.nodes[overwritten.first->second].name, " and ", op->name,
                                   ") are not ordered by a sequential");
        depth_[id] = depth_[old] + 1;
        f.own[target] = id;
        g_.side_effects.push_back(id);
        return id;
    }

    // Makes `ctx` the context after `effects` happened in it: a copy, unless nothing else refers
    // to it (the context a sequential built up so far, while no element is being visited in
    // it), which is changed in place: a sequential of k elements that assign k tensors would
    // otherwise copy k contexts of up to k tensors.
    static void advance(Context &ctx, const Effects &effects) {
        if (effects.empty()) return;
        if (ctx.use_count() != 1) ctx = std::make_shared<Versions>(*ctx);
        for (const auto &e : effects) (*ctx)[e.first] = e.second;
    }

    // Keeps, per tensor, the later of two versions (assignments to one tensor form a chain).
    void merge(Effects &into, const Effects &from) const {
        for (const auto &e : from) {
            auto it = into.find(e.first);
            if (it == into.end())
                into.insert(e);
            else if (is_before(it->second, e.second))
                it->second = e.second;
        }
    }

    // Whether version node `a` is overwritten, directly or not, to give version node `b`, two
    // versions of one tensor. The versions of a tensor form one chain from its leaf (no version
    // is overwritten twice: finish() refuses that), so this compares their places in it instead
    // of walking it, which made a long sequential of assignments quadratic.
    bool is_before(int32_t a, int32_t b) const { return depth_[a] < depth_[b]; }

    int32_t version(const Op *tensor, const Versions &versions) {
        auto v = versions.find(tensor);
        if (v != versions.end()) return v->second;
        auto leaf = leaf_of_.find(tensor);
        if (leaf != leaf_of_.end()) return leaf->second;
        int32_t id = emit(tensor, {});
        leaf_of_[tensor] = id;
        return id;
    }

    int32_t emit(const Op *op, std::vector<int32_t> args) {
        Node n;
        n.kind = op->kind;
        n.dtype = op->dtype;
        n.axes = op->axes;
        n.args = std::move(args);
        n.attrs = op->attrs;
        n.name = op->name;
        n.uid = op->uid;
        g_.nodes.push_back(std::move(n));
        depth_.push_back(0);
        return static_cast<int32_t>(g_.nodes.size() - 1);
    }

    ExecGraph &g_;
    Context start_;
    std::unordered_map<const Op *, Visited> visited_;
    std::unordered_map<const Op *, int32_t> leaf_of_;
    std::unordered_map<int32_t, int32_t> overwritten_by_;  // version node -> assign writing over it
    std::vector<int32_t> depth_;  // per node: the assignments between a version and its leaf
};

}  // namespace

ExecGraph ExecGraph::from_ops(const std::vector<const Op *> &results,
                              const std::vector<const Op *> &params) {
    ExecGraph g;
    Builder b(g);
    b.position_sequentials(results);
    for (const Op *r : results) g.results.push_back(b.visit_result(r));
    // A persistent tensor listed as a result is its state after the run.
    for (size_t i = 0; i < results.size(); ++i)
        if (results[i]->kind == OpKind::AssignableTensor)
            g.results[i] = b.final_version(g.results[i]);
    for (const Op *p : params) g.params.push_back(b.has_leaf(p) ? b.leaf_node(p) : -1);
    return g;
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
    for (int32_t p : params)
        if (p >= 0) live[p] = 1;
    std::vector<int32_t> renumber(n, -1);
    std::vector<Node> kept;
    kept.reserve(static_cast<size_t>(std::count(live.begin(), live.end(), 1)));
    for (int32_t i = 0; i < n; ++i) {
        if (!live[i]) continue;
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
