// Every handle type of the C API, its tag and the object behind it, in one table, and the one
// checked cast every entry point uses to turn a handle into its object.
//
// Every object behind a handle starts with a 32-bit tag that says what it is. The cast compares
// it with the expected type's tag (one load and one compare on success), so NULL, a handle of
// another type or (most of the time) a destroyed one is refused with NG_ERR_INVALID_ARGUMENT
// instead of being misread. Destroying an object clears its tag first. The message names the
// argument and what was passed instead; it is built only on failure.
//
// ng_graph_t*, ng_op_t* and ng_axis_t* are the IR's own objects (ng::Graph, ng::Op, ng::Axis),
// whose first word the IR reserves for these tags (graph/op.hpp, HandleTags); the other handles
// are the structs defined below.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "core/jagged.hpp"
#include "core/shape.hpp"
#include "core/shape_iter.hpp"
#include "core/tensor.hpp"
#include "graph/graph.hpp"
#include "nanograph/exec.h"
#include "nanograph/jagged.h"
#include "nanograph/shape.h"
#include "nanograph/tensor.h"
#include "runtime/computation.hpp"
#include "runtime/transformer.hpp"

// X(handle type, object type, tag, name in messages). Tags are distinct and never 0 (the value a
// destroyed object carries); their four bytes spell "NG" and two letters.
#define NG_CAPI_HANDLES(X)                                           \
    X(ng_graph_t, ng::Graph, 0x4e474752u, "graph")                   \
    X(ng_op_t, ng::Op, 0x4e474f50u, "op")                            \
    X(ng_axis_t, ng::Axis, 0x4e474158u, "axis")                      \
    X(ng_tensor_t, ng_tensor, 0x4e475445u, "tensor")                 \
    X(ng_transformer_t, ng_transformer, 0x4e475452u, "transformer")  \
    X(ng_computation_t, ng_computation, 0x4e47434fu, "computation")  \
    X(ng_shape_t, ng_shape, 0x4e475348u, "shape")                    \
    X(ng_shape_iter_t, ng_shape_iter, 0x4e475349u, "shape iterator") \
    X(ng_jagged_t, ng_jagged, 0x4e474a41u, "jagged tensor")

namespace ng::capi {

// HandleKind<H>: the object behind an H*, its tag and its name.
template <class Handle>
struct HandleKind;

#define NG_HANDLE_KIND(Handle, ObjectType, Tag, Name) \
    template <>                                       \
    struct HandleKind<Handle> {                       \
        using Object = ObjectType;                    \
        static constexpr uint32_t tag = Tag;          \
        static constexpr const char *name = Name;     \
    };
NG_CAPI_HANDLES(NG_HANDLE_KIND)
#undef NG_HANDLE_KIND

template <class Handle>
constexpr uint32_t kTag = HandleKind<std::remove_const_t<Handle>>::tag;

// The object behind a Handle*, as const as the handle.
template <class Handle>
using ObjectOf = std::conditional_t<std::is_const_v<Handle>,
                                    const typename HandleKind<std::remove_const_t<Handle>>::Object,
                                    typename HandleKind<std::remove_const_t<Handle>>::Object>;

// The tags the IR copies into every graph, op and axis the C API hands out.
constexpr HandleTags kGraphTags{kTag<ng_graph_t>, kTag<ng_op_t>, kTag<ng_axis_t>};

// The first word of whatever `p` points at; 0 for NULL.
inline uint32_t tag_at(const void *p) noexcept {
    uint32_t first = 0;
    if (p != nullptr) std::memcpy(&first, p, sizeof first);
    return first;
}

// Throws NG_ERR_INVALID_ARGUMENT for `h` that is not a live `expected` handle: "ARG is NULL" or
// "ARG is not a live NAME handle (...)" saying what it is instead. `index` >= 0 names element
// ARG[index] of an array.
[[noreturn]] void refuse_handle(const void *h, const char *arg, int64_t index, uint32_t expected);

// The one checked cast: the object behind `h`, or NG_ERR_INVALID_ARGUMENT naming `arg`.
template <class Handle>
ObjectOf<Handle> *checked(Handle *h, const char *arg) {
    if (tag_at(h) != kTag<Handle>) refuse_handle(h, arg, -1, kTag<Handle>);
    return reinterpret_cast<ObjectOf<Handle> *>(h);
}

// The same for element i of an array argument, refused as "ARG[i]".
template <class Handle>
ObjectOf<Handle> *checked_at(Handle *const *array, size_t i, const char *arg) {
    Handle *h = array[i];
    if (tag_at(h) != kTag<Handle>) refuse_handle(h, arg, static_cast<int64_t>(i), kTag<Handle>);
    return reinterpret_cast<ObjectOf<Handle> *>(h);
}

// For functions that accept anything and ignore what is not theirs (destroy, retain, release):
// the object behind `h`, or null.
template <class Handle>
ObjectOf<Handle> *live_or_null(Handle *h) noexcept {
    return tag_at(h) == kTag<Handle> ? reinterpret_cast<ObjectOf<Handle> *>(h) : nullptr;
}

// The handle of an IR object.
inline ng_graph_t *handle(Graph *g) {
    return reinterpret_cast<ng_graph_t *>(g);
}
inline ng_op_t *handle(Op *op) {
    return reinterpret_cast<ng_op_t *>(op);
}
inline const ng_axis_t *handle(const Axis *a) {
    return reinterpret_cast<const ng_axis_t *>(a);
}

// A new graph handle: tags the graph (and every op and axis it will make) and releases it.
inline ng_graph_t *adopt_graph(std::unique_ptr<Graph> g) noexcept {
    g->set_handle_tags(kGraphTags);
    return handle(g.release());
}

}  // namespace ng::capi

// The handles that are not IR objects. Each starts with its tag; destroying one clears it.

struct ng_tensor {
    uint32_t tag = ng::capi::kTag<ng_tensor_t>;
    std::atomic<int64_t> refs{1};  // the handle dies (and drops its view) when this reaches 0
    ng::Tensor tensor;
};

struct ng_transformer {
    uint32_t tag = ng::capi::kTag<ng_transformer_t>;
    std::shared_ptr<ng::Transformer> impl;
};

struct ng_computation {
    uint32_t tag = ng::capi::kTag<ng_computation_t>;
    std::unique_ptr<ng::Computation> impl;
    // Runs of one computation from several threads take turns (and stats wait for a run's plan).
    mutable std::mutex run_mutex;
    // Per-run argument arrays, sized once, so a run allocates nothing but new output tensors.
    std::vector<const ng::Tensor *> inputs;
    std::vector<ng::Tensor *> outputs;
    std::vector<ng::Tensor> fresh;
    std::vector<ng_tensor_t *> fresh_handles;
};

// Shapes are immutable: a handle is a reference count around a shared ng::Shape, which jagged
// tensors share.
struct ng_shape {
    uint32_t tag = ng::capi::kTag<ng_shape_t>;
    std::atomic<int64_t> refs{1};
    std::shared_ptr<const ng::Shape> shape;
};

struct ng_shape_iter {
    uint32_t tag = ng::capi::kTag<ng_shape_iter_t>;
    ng::ShapeIterator iter;
};

struct ng_jagged {
    uint32_t tag = ng::capi::kTag<ng_jagged_t>;
    std::atomic<int64_t> refs{1};
    ng::JaggedTensor jagged;
};
