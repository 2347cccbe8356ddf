// The compiler's own copy of a computation's graph. Nodes are stored in schedule order (every
// arg before its user); passes may drop or merge nodes but never reorder them.
//
// Assignments are in SSA form: an Assign node's args are (the version it overwrites, the value)
// and its value is the new content of its tensor. Which version a read sees is decided when the
// graph is built, from the order the sequentials state (see from_ops), so it is a property of the
// graph: no pass and no schedule can change it. Two reads of one tensor on either side of an
// assignment are different values (CSE cannot merge them). The lowering keeps a copy of a version
// that is still needed when an assignment overwrites its storage.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/op.hpp"

namespace ng {

struct Node {
    OpKind kind = OpKind::AssignableTensor;
    DType dtype = 0;
    Axes axes;
    std::vector<int32_t> args;
    OpAttrs attrs;
    // Copied from the user's op this node came from (empty / 0 for nodes the compiler made), so
    // the compiled graph never refers to the user's graph: the name for messages, and the op's
    // process-wide uid, which for an AssignableTensor keys its persistent value in a transformer.
    std::string name;
    uint64_t uid = 0;

    bool is_constant() const {
        return kind == OpKind::AssignableTensor && (attrs.flags & kFlagConstant);
    }
    bool is_leaf() const { return kind == OpKind::AssignableTensor; }
    std::vector<int64_t> shape() const;
    int64_t numel() const;
};

struct ExecGraph {
    std::vector<Node> nodes;            // schedule order
    std::vector<int32_t> results;       // node of each result
    std::vector<int32_t> params;        // leaf node of each parameter placeholder (-1 when unused)
    std::vector<int32_t> side_effects;  // Assign nodes: kept even when no result reads them
    std::vector<std::shared_ptr<const Axis>> owned_axes;  // see own_axes()

    // Builds the graph of `results` from the user's ops. Each op is computed once, at its first
    // position: element k of a sequential sees the side effects of elements 0..k-1 (and of
    // whatever precedes the sequential); ops no sequential reaches see the tensors as they are at
    // the start of the run; a persistent tensor listed as a result is its content after the run.
    // Throws NG_ERR_INVALID_ARGUMENT for two assignments to one tensor that no sequential orders.
    static ExecGraph from_ops(const std::vector<const Op *> &results,
                              const std::vector<const Op *> &params);

    // Replaces the user's Axis objects in every node by copies `owned_axes` keeps alive, so the
    // graph can be lowered again after the user's graph is destroyed.
    void own_axes();

    // Drops nodes nothing needs (not reachable from results and side effects) and renumbers.
    void remove_dead();
};

}  // namespace ng
