// ExecGraph::own_axes: the compiled graph's own copies of the axes it uses.
#include <functional>
#include <unordered_map>

#include "passes/exec_graph.hpp"

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
        for (const Axis *&a : n.attrs.axes) a = copy(a);
        n.attrs.axis = copy(n.attrs.axis);
    }
}

}  // namespace ng
