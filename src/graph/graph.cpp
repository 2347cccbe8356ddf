// Graph: ownership of ops and axes, unique names, first construction error.
#include "graph/graph.hpp"

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
    const std::string base = op->name.empty() ? std::string(op_type_name(*op)) : op->name;
    std::string name = base;
    if (by_name_.count(name)) {
        int64_t &suffix = next_suffix_[base];
        do name = base + "_" + std::to_string(++suffix);
        while (by_name_.count(name));
    }
    // Reserve both containers before linking, so a bad_alloc leaves the graph unchanged.
    ops_.reserve(ops_.size() + 1);
    op->handle_tag = tags_.op;
    op->name = name;
    op->graph = this;
    op->id = static_cast<int64_t>(ops_.size());
    op->uid = next_op_uid();
    Op *stored = op.get();
    by_name_.emplace(name, stored);
    ops_.push_back(std::move(op));
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
