// walk_upstream's body (a template, so visitors inline).
#pragma once

#include <unordered_set>

namespace ng {

template <class Visit>
void walk_upstream(const std::vector<Op *> &roots, bool include_initial_values, Visit &&visit) {
    std::unordered_set<const Op *> seen;
    // Pushed in reverse so the first argument is visited first, as a recursive walk would.
    std::vector<Op *> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        Op *op = stack.back();
        stack.pop_back();
        if (!seen.insert(op).second) continue;
        visit(op);
        if (include_initial_values && op->initial_value) stack.push_back(op->initial_value);
        for (auto it = op->control_deps.rbegin(); it != op->control_deps.rend(); ++it)
            stack.push_back(*it);
        for (auto it = op->args.rbegin(); it != op->args.rend(); ++it) stack.push_back(*it);
    }
}

}  // namespace ng
