// A persistent tensor as the runtime knows it: everything copied from its op when a computation
// is compiled, so values can be created, initialised, set and saved after the graph is gone.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "graph/op.hpp"
#include "runtime/value_info.hpp"

namespace ng {

class Computation;
class Transformer;

// What a transformer keeps beside each value: its identity (the op's process-wide uid, never
// taken by another op), name, dtype, axes and flags. Checkpoints are written from this.
struct PersistentInfo {
    uint64_t id = 0;
    ValueInfo value;
    uint32_t flags = 0;

    std::vector<int64_t> shape() const { return value.axis_lengths; }
    bool is_placeholder() const { return flags & kFlagInput; }
    bool is_constant() const { return flags & kFlagConstant; }
    // A variable or persistent tensor: state that runs may change, which checkpoints hold. Not a
    // constant nor a placeholder, nor a leaf the compiler folded (its op is no tensor at all).
    bool is_state() const {
        return (flags & kFlagPersistent) && !(flags & (kFlagConstant | kFlagInput));
    }
};

// How a computation creates a persistent value that its transformer does not have yet.
struct PersistentSpec {
    PersistentInfo info;
    SharedBytes constant_data;  // a constant's elements, dense row-major (shared with its op)
    // Computes the initial value (null: zeros; refused for a placeholder). Compiled with the
    // computation that uses the tensor, run at most once, at its first run.
    std::shared_ptr<Computation> initializer;
    ValueInfo initial_value;  // the initializer's result, broadcast by axis name into the value
};

PersistentInfo describe_persistent(const Op &op);

// The initializers compiled for one outermost computation: `in_progress` lists the tensors whose
// initializers are being compiled around the current one (a cycle is refused), `compiled` the
// specs with an initializer made so far, which later uses share.
struct InitializerCompilation {
    std::vector<uint64_t> in_progress;
    std::unordered_map<uint64_t, std::shared_ptr<const PersistentSpec>> compiled;
};

// The spec of `op` for a computation on `t`: no initializer when `t` already has a value.
std::shared_ptr<const PersistentSpec> compile_persistent(const std::shared_ptr<Transformer> &t,
                                                         const Op &op,
                                                         InitializerCompilation &compiling);

}  // namespace ng
