// The compiler's own copy of a computation's graph. Nodes are stored in schedule order (every
// arg before its user), which is also the order side effects happen in; passes may drop or merge
// nodes but never reorder them.
//
// Assignments are in SSA form: an Assign node's value is the new content of its persistent
// tensor, and every later read of that tensor reads the Assign node. So two reads of the same
// tensor on either side of an assignment are different values (CSE cannot merge them), while the
// data edges alone order every read after the write it must see.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/op.hpp"

namespace ng {

struct Node {
    OpKind kind = OpKind::AssignableTensor;
    DType dtype = 0;
    Axes axes;
    std::vector<int32_t> args;
    OpAttrs attrs;
    // The user's op this node came from: names in messages, and for AssignableTensor the key of
    // its persistent value in the transformer. Null for nodes the compiler made.
    const Op *origin = nullptr;

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

    // Builds the graph of `results` from the user's ops (DFS in argument order; sequential's
    // elements in the listed order, each op at most once; control dependencies first).
    static ExecGraph from_ops(const std::vector<const Op *> &results,
                              const std::vector<const Op *> &params);

    // Replaces every use of node `from` by node `to` (to < from), in args and result lists.
    void forward(int32_t from, int32_t to);
    // Drops nodes nothing needs (not reachable from results and side effects) and renumbers.
    void remove_dead();
};

}  // namespace ng
