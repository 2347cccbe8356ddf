// Graph: ownership of ops and axes, unique names, first construction error.
#include "graph/graph.hpp"

#include <algorithm>
#include <atomic>

#include "core/error.hpp"

namespace ng {

Graph::~Graph() {
    // Stale handles then fail the tag check (most of the time) instead of looking valid.
    set_handle_tags(HandleTags{});
}

void Graph::set_handle_tags(const HandleTags &tags) noexcept {
    tags_ = tags;
    handle_tag = tags.graph;
    for (auto &op : ops_) op->handle_tag = tags.op;
    for (auto &axis : axes_) axis->handle_tag = tags.axis;
}

const Axis *Graph::axis(const std::string &name, int64_t length, const Axes &components) {
    if (name.empty()) throw invalid_argument("an axis name may not be empty");
    if (length < 0) throw invalid_argument("axis ", name, " has a negative length (", length, ")");
    // Axes are few (tens) per graph; a linear scan keeps identity simple and exact.
    for (const auto &a : axes_)
        if (a->name == name && a->length == length && a->components == components) return a.get();
    auto a = std::make_unique<Axis>();
    a->handle_tag = tags_.axis;
    a->graph = this;
    a->name = name;
    a->length = length;
    a->components = components;
    axes_.push_back(std::move(a));
    return axes_.back().get();
}

namespace {

uint64_t next_op_uid() noexcept {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Op *Graph::add(std::unique_ptr<Op> op) {
    // Make room before linking, so a bad_alloc leaves the graph unchanged. Doubling keeps appends
    // amortised O(1): reserving one more each time copied every op pointer at every append.
    if (ops_.size() == ops_.capacity()) ops_.reserve(std::max<size_t>(16, ops_.size() * 2));
    Op *stored = op.get();
    const std::string base = op->name.empty() ? std::string(op_type_name(*op)) : op->name;
    // Claims the name by inserting it: one hash look-up per name tried, not two.
    auto claimed = by_name_.emplace(base, stored);
    if (!claimed.second) {
        int64_t &suffix = next_suffix_[base];
        do claimed = by_name_.emplace(base + "_" + std::to_string(++suffix), stored);
        while (!claimed.second);
    }
    try {
        op->name = claimed.first->first;
    } catch (...) {
        by_name_.erase(claimed.first);
        throw;
    }
    op->handle_tag = tags_.op;
    op->graph = this;
    op->id = static_cast<int64_t>(ops_.size());
    op->uid = next_op_uid();
    ops_.push_back(std::move(op));  // cannot throw: there is room
    return stored;
}

Op *Graph::find(const std::string &name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
}

void Graph::rename(Op *op, const std::string &name) {
    if (name.empty()) throw invalid_argument("an op name may not be empty");
    if (op->name == name) return;
    if (Op *other = find(name))
        throw invalid_argument("the name \"", name, "\" is already used by another op (",
                               op_type_name(*other), ")");
    by_name_.emplace(name, op);
    by_name_.erase(op->name);
    op->name = name;
}

void Graph::record_error(ng_status_t status, const std::string &message) {
    if (first_status_ != NG_OK) return;
    first_status_ = status;
    first_error_ = message;
}

}  // namespace ng
