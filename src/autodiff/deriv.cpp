// The reverse sweep: order the ops upstream of y so every op comes after its arguments, seed y's
// adjoint with the error, then visit the ops from last to first, summing each op's incoming
// contributions and handing the total to its kind's rule. Only ops that lead to some wrt get an
// adjoint, so a sweep never builds graph that no result uses.
#include "autodiff/deriv.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"
#include "core/error.hpp"
#include "graph/builders.hpp"

namespace ng {
namespace {

// Ops upstream of `root` through data arguments, every op after its arguments. Iterative, so
// deep graphs (long chains of layers or steps) cannot overflow the stack.
std::vector<Op *> topological_order(Op *root) {
    std::vector<Op *> order;
    std::unordered_set<const Op *> seen{root};
    std::vector<std::pair<Op *, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
        auto &[op, next] = stack.back();
        if (next < op->args.size()) {
            Op *arg = op->args[next++];
            if (seen.insert(arg).second) stack.emplace_back(arg, 0);
        } else {
            order.push_back(op);
            stack.pop_back();
        }
    }
    return order;
}

// Ops of `order` from which some wrt can be reached through arguments (wrts included).
// StopGradient cuts the path: nothing flows through it.
std::unordered_set<const Op *> ops_leading_to(const std::vector<Op *> &order,
                                              const std::vector<Op *> &wrts) {
    std::unordered_set<const Op *> leading(wrts.begin(), wrts.end());
    for (const Op *op : order) {
        if (op->kind == OpKind::StopGradient) continue;
        for (const Op *arg : op->args)
            if (leading.count(arg)) {
                leading.insert(op);
                break;
            }
    }
    return leading;
}

// Brings a rule's contribution to exactly `arg`'s axes: sums the axes `arg` does not have (the
// adjoint of alignment by name is a sum over the broadcast axes) and reorders.
Op *fit_to(Op *contribution, const Op *arg) {
    if (contribution->dtype != arg->dtype)
        throw internal_error("adjoint of ", op_kind_name(arg->kind), " has dtype ",
                             dtype_name(contribution->dtype), ", not ", dtype_name(arg->dtype));
    Axes extra;
    for (const Axis *axis : contribution->axes)
        if (std::find(arg->axes.begin(), arg->axes.end(), axis) == arg->axes.end())
            extra.push_back(axis);
    if (!extra.empty()) contribution = build::reduce(OpKind::Sum, contribution, extra);
    if (contribution->axes != arg->axes)
        contribution = build::axes_with_order(contribution, arg->axes);
    return contribution;
}

void check_float(const Op *op, const char *what) {
    if (!dtype_is_float(op->dtype))
        throw dtype_error(what, " ", op->name, " has dtype ", dtype_name(op->dtype),
                          "; derivatives need float32 or float64");
}

void check_same_graph(const Op *a, const Op *b, const char *what) {
    if (a->graph != b->graph)
        throw invalid_argument(what, " ", b->name, " belongs to another graph");
}

// The adjoints of ops, each kept as its list of contributions until the op is visited.
class Adjoints {
public:
    void add(const Op *op, Op *contribution) { pending_[op].push_back(contribution); }

    // The sum of op's contributions, or null when it received none.
    Op *total(const Op *op) const {
        auto found = pending_.find(op);
        if (found == pending_.end()) return nullptr;
        Op *sum = nullptr;
        for (Op *c : found->second) sum = sum ? build::binary(OpKind::Add, sum, c) : c;
        return sum;
    }

private:
    std::unordered_map<const Op *, std::vector<Op *>> pending_;
};

}  // namespace

std::vector<Op *> vjp(Op *y, Op *error, const std::vector<Op *> &wrts) {
    check_float(y, "y");
    check_same_graph(y, error, "error");
    if (error->dtype != y->dtype)
        throw dtype_error("error has dtype ", dtype_name(error->dtype), " but y has ",
                          dtype_name(y->dtype));
    if (error->axes.size() != y->axes.size() ||
        !std::all_of(error->axes.begin(), error->axes.end(), [&](const Axis *a) {
            return std::find(y->axes.begin(), y->axes.end(), a) != y->axes.end();
        }))
        throw axes_error("error's axes must be y's axes (", y->axes.size(), " of them)");
    for (const Op *w : wrts) {
        check_same_graph(y, w, "wrt");
        check_float(w, "wrt");
    }

    std::vector<Op *> order = topological_order(y);
    std::unordered_set<const Op *> leading = ops_leading_to(order, wrts);
    std::unordered_map<const Op *, Op *> adjoint_of;
    Adjoints adjoints;
    if (leading.count(y)) adjoints.add(y, fit_to(error, y));

    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        Op *op = *it;
        if (!leading.count(op)) continue;
        Op *adjoint = adjoints.total(op);
        if (adjoint == nullptr) continue;
        adjoint_of[op] = adjoint;

        autodiff::RuleContext context;
        context.op = op;
        context.adjoint = adjoint;
        for (const Op *arg : op->args) context.wanted.push_back(leading.count(arg) > 0);
        if (std::none_of(context.wanted.begin(), context.wanted.end(), [](bool b) { return b; }))
            continue;
        autodiff::apply_adjoint_rule(context);
        for (auto &[index, contribution] : context.contributions) {
            const Op *arg = op->args[static_cast<size_t>(index)];
            adjoints.add(arg, fit_to(contribution, arg));
        }
    }

    std::vector<Op *> results;
    results.reserve(wrts.size());
    for (Op *w : wrts) {
        auto found = adjoint_of.find(w);
        results.push_back(found != adjoint_of.end() ? found->second : autodiff::zeros_like(w));
    }
    return results;
}

Op *deriv(Op *cost, Op *wrt) {
    if (cost->rank() != 0)
        throw axes_error("cost ", cost->name, " must be a scalar but has ", cost->rank(), " axes");
    check_float(cost, "cost");
    return vjp(cost, autodiff::constant_like(cost, 1.0), {wrt}).front();
}

}  // namespace ng
