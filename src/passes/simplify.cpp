#include "passes/simplify.hpp"

#include <cstring>
#include <unordered_map>

#include "passes/fold.hpp"

namespace ng {

namespace {

constexpr int64_t kMaxFoldedElements = 4096;  // folding must not turn a cheap view into a big copy
constexpr size_t kMaxKeyedConstantBytes = 4096;

bool constant_equals(const Node &n, double value) {
    if (!n.is_constant()) return false;
    return visit_dtype(n.dtype, [&](auto zero) {
        using T = decltype(zero);
        const T want = static_cast<T>(value);
        const size_t count = n.attrs.data.size() / sizeof(T);
        for (size_t i = 0; i < count; ++i) {
            T v;
            std::memcpy(&v, n.attrs.data.data() + i * sizeof(T), sizeof(T));
            if (!(v == want)) return false;
        }
        return true;
    });
}

bool same_axes(const Axes &a, const Axes &b) {
    return a == b;
}

// If node n is an identity of one of its args under algebraic rules, returns that arg.
int32_t algebraic_identity(const ExecGraph &g, const Node &n) {
    auto arg = [&](int i) -> const Node & { return g.nodes[n.args[i]]; };
    // The replacement must have exactly the result's axes (no implied broadcast) and dtype.
    auto keeps = [&](int i) { return same_axes(arg(i).axes, n.axes) && arg(i).dtype == n.dtype; };
    switch (n.kind) {
    case OpKind::Add:
        if (constant_equals(arg(1), 0) && keeps(0)) return n.args[0];
        if (constant_equals(arg(0), 0) && keeps(1)) return n.args[1];
        break;
    case OpKind::Subtract:
        if (constant_equals(arg(1), 0) && keeps(0)) return n.args[0];
        break;
    case OpKind::Multiply:
        if (constant_equals(arg(1), 1) && keeps(0)) return n.args[0];
        if (constant_equals(arg(0), 1) && keeps(1)) return n.args[1];
        break;
    case OpKind::Divide:
        if (constant_equals(arg(1), 1) && keeps(0)) return n.args[0];
        break;
    case OpKind::Log:
        if (arg(0).kind == OpKind::Exp) return arg(0).args[0];
        break;
    case OpKind::Negative:
        if (arg(0).kind == OpKind::Negative) return arg(0).args[0];
        break;
    case OpKind::StopGradient:
    case OpKind::Cast:
    case OpKind::Broadcast:
    case OpKind::AxesWithOrder:
    case OpKind::CastAxes:
        if (keeps(0)) return n.args[0];
        break;
    default: break;
    }
    return -1;
}

bool foldable(const ExecGraph &g, const Node &n) {
    if (n.is_leaf() || op_kind_class(n.kind) == OpClass::Assignment ||
        n.kind == OpKind::Sequential || n.args.empty())
        return false;
    for (int32_t a : n.args)
        if (!g.nodes[a].is_constant()) return false;
    return n.numel() <= kMaxFoldedElements;
}

}  // namespace

std::string cse_key(const Node &n) {
    std::string key;
    auto put = [&](const auto &v) { key.append(reinterpret_cast<const char *>(&v), sizeof v); };
    put(n.kind);
    put(n.dtype);
    put(n.axes.size());
    for (const Axis *a : n.axes) put(a);
    put(n.args.size());
    for (int32_t a : n.args) put(a);
    // Small constants merge by value (the 1s and 0s autodiff makes); a large one only with
    // itself.
    append_attrs_key(key, n.attrs, kMaxKeyedConstantBytes);
    return key;
}

void simplify(ExecGraph &g, const PlanRunner &run_plan) {
    const int32_t count = static_cast<int32_t>(g.nodes.size());
    std::vector<int32_t> rep(count);
    std::unordered_map<std::string, int32_t> seen;
    seen.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
        Node &n = g.nodes[i];
        for (int32_t &a : n.args) a = rep[a];
        rep[i] = i;
        // Persistent values, writes and random draws are identities, never interchangeable.
        const OpClass c = op_kind_class(n.kind);
        if ((n.is_leaf() && !n.is_constant()) || c == OpClass::Assignment || c == OpClass::Random)
            continue;

        int32_t same = algebraic_identity(g, n);
        if (same >= 0) {
            rep[i] = same;
            continue;
        }
        if (foldable(g, n)) {
            std::vector<uint8_t> data = evaluate_constant_node(g, i, run_plan);
            n.kind = OpKind::AssignableTensor;
            n.args.clear();
            n.attrs = OpAttrs{};
            n.attrs.flags = kFlagConstant | kFlagPersistent;
            n.attrs.data = SharedBytes(std::move(data));
        }
        auto [it, inserted] = seen.emplace(cse_key(n), i);
        if (!inserted) {
            rep[i] = it->second;
        }
    }
    for (int32_t &r : g.results) r = rep[r];
    g.remove_dead();
}

}  // namespace ng
