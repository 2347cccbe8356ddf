#include "graph/queries.hpp"

namespace ng {

std::vector<Op *> upstream_assignables(Op *op, uint32_t required_flags) {
    std::vector<Op *> found;
    walk_upstream({op}, false, [&](Op *o) {
        if (o->is_assignable() && (o->flags() & required_flags) == required_flags)
            found.push_back(o);
    });
    return found;
}

std::vector<Op *> select_by_metadata(const Graph &g, const std::string &key,
                                     const std::string *value) {
    std::vector<Op *> found;
    for (const auto &op : g.ops()) {
        auto it = op->metadata.find(key);
        if (it != op->metadata.end() && (!value || it->second == *value)) found.push_back(op.get());
    }
    return found;
}

bool reaches(Op *from, const Op *target) {
    bool hit = false;
    walk_upstream({from}, false, [&](Op *o) { hit = hit || o == target; });
    return hit;
}

}  // namespace ng
