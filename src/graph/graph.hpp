// A Graph owns its ops and axes (they live until the graph is destroyed) and remembers its first
// construction error, so a program may build a whole graph and check once.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/op.hpp"

namespace ng {

class Graph {
public:
    uint32_t handle_tag = 0;  // first: see HandleTags in graph/op.hpp

    Graph() = default;
    ~Graph();
    Graph(const Graph &) = delete;
    Graph &operator=(const Graph &) = delete;

    // Tags this graph and every op and axis it holds or will make (see HandleTags).
    void set_handle_tags(const HandleTags &tags) noexcept;

    // One Axis per (name, length, components); throws for an empty name or negative length.
    const Axis *axis(const std::string &name, int64_t length, const Axes &components = {});

    // Takes ownership, assigns id and a unique name ("Add", "Add_1", ... from the kind name
    // unless op->name is already set and free). Returns the stored op.
    Op *add(std::unique_ptr<Op> op);

    Op *find(const std::string &name) const;  // nullptr when absent
    // Renames; throws NG_ERR_INVALID_ARGUMENT when the name is empty or used by another op.
    void rename(Op *op, const std::string &name);

    const std::vector<std::unique_ptr<Op>> &ops() const { return ops_; }

    // First construction error (NG_OK if none).
    ng_status_t status() const { return first_status_; }
    const std::string &first_error() const { return first_error_; }
    void record_error(ng_status_t status, const std::string &message);

private:
    HandleTags tags_;
    std::vector<std::unique_ptr<Op>> ops_;
    std::vector<std::unique_ptr<Axis>> axes_;
    std::unordered_map<std::string, Op *> by_name_;
    std::unordered_map<std::string, int64_t> next_suffix_;
    ng_status_t first_status_ = NG_OK;
    std::string first_error_;
};

}  // namespace ng
