// ExecGraph::own_axes: the compiled graph's own copies of the axes it uses.
#include <functional>
#include <unordered_map>

#include "passes/exec_graph.hpp"

#include <type_traits>

namespace ng {

void ExecGraph::own_axes() {
    // One copy per distinct axis, so axes stay equal (by address) exactly when they were.
    std::unordered_map<const Axis *, const Axis *> copies;
    for (const auto &a : owned_axes) copies.emplace(a.get(), a.get());
    std::function<const Axis *(const Axis *)> copy = [&](const Axis *a) -> const Axis * {
        if (a == nullptr) return nullptr;
        auto found = copies.find(a);
        if (found != copies.end()) return found->second;
        auto c = std::make_shared<Axis>();
        c->name = a->name;
        c->length = a->length;
        for (const Axis *component : a->components) c->components.push_back(copy(component));
        owned_axes.push_back(c);
        copies.emplace(a, c.get());
        return c.get();
    };
    for (Node &n : nodes) {
        for (const Axis *&a : n.axes) a = copy(a);
        for_each_attr(n.attrs, [&](AttrId, const char *, auto &field) {
            using Field = std::decay_t<decltype(field)>;
            if constexpr (std::is_same_v<Field, Axes>)
                for (const Axis *&a : field) a = copy(a);
            else if constexpr (std::is_same_v<Field, AxisRef>)
                field = copy(field);
        });
    }
}

}  // namespace ng
