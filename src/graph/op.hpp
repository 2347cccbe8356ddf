// The op IR: every op is a node of a DAG owned by its Graph. An op's value is an
// r-tensor described by a dtype and an ordered list of named axes, with no storage and no layout;
// assignable tensors (constants, placeholders, persistent tensors, variables) are the l-tensors
// whose values live in a transformer.
//
// The IR is plain data so that passes can walk, copy and rewrite it: a compiler copies the ops a
// computation needs into its own structures and never touches the user's graph.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/shared_bytes.hpp"
#include "graph/op_attrs.hpp"

namespace ng {

class Graph;

// The first word of a Graph, an Op and an Axis belongs to the layer that hands them out as handles
// (the C API): it chooses a tag per type and checks it before trusting a handle, so a handle of
// another type (or, most of the time, a destroyed one) is refused instead of misread. The IR
// chooses no values: a graph copies its tags into every op and axis it makes (Graph::
// set_handle_tags) and clears them all when it dies. 0 is never a tag.
struct HandleTags {
    uint32_t graph = 0;
    uint32_t op = 0;
    uint32_t axis = 0;
};

// A named axis; one object per (name, length, components) in a graph. A flattened axis
// remembers the axes it was made of, in order, so that it can be unflattened.
struct Axis {
    uint32_t handle_tag = 0;  // first: see HandleTags
    const Graph *graph = nullptr;
    std::string name;
    int64_t length = 0;
    std::vector<const Axis *> components;  // non-empty only for a flattened axis
};

using Axes = std::vector<const Axis *>;

// The flags of the assignable tensors; the same values as NG_FLAG_* in the public header.
enum TensorFlags : uint32_t {
    kFlagConstant = 1,
    kFlagPersistent = 2,
    kFlagTrainable = 4,
    kFlagInput = 8,
};

// Every op type, from the table in op_kinds.def. The spelling in op_kind_name() is what
// ng_op_type() returns.
enum class OpKind : int32_t {
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) Name,
#include "graph/op_kinds.def"
};

// The number of op kinds; arrays indexed by OpKind have this size.
constexpr int32_t kNumOpKinds = 0
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) +1
#include "graph/op_kinds.def"
    ;

// How an op computes its value; the compiler lowers every op of a class the same way.
enum class OpClass : int32_t {
    Leaf,           // an assignable tensor: its value lives in a transformer
    Unary,          // elementwise, one operand, a kernels::UnaryFn
    Cast,           // elementwise conversion to the op's dtype
    Identity,       // the operand itself (a view that changes nothing)
    Binary,         // elementwise, two operands aligned by name, a kernels::BinaryFn
    Comparison,     // like Binary with a bool result, a kernels::CompareFn
    Select,         // elementwise choice between two operands
    Reduction,      // over attrs.axes, a kernels::ReduceFn
    ArgReduction,   // index of the extremum along attrs.axis
    Contraction,    // dot
    Normalization,  // softmax and its log
    View,           // the operand's elements, re-strided
    DataMovement,   // a new value made of the operands' elements
    Kernel,         // one kernel call over its operands: lowered by lower_<Kernel column>
    Assignment,     // writes its second argument into its first
    Control,        // orders its arguments
    Random,         // new values drawn at every run from the transformer's generator
};

// What a builder accepts as operand dtype.
enum class OperandDTypes : int32_t { Any, Numeric, Float, Integer };

// Arity of an op taking one or more arguments.
constexpr int32_t kVariadic = -1;

const char *op_kind_name(OpKind kind) noexcept;
int32_t op_kind_arity(OpKind kind) noexcept;  // kVariadic for one or more
OpClass op_kind_class(OpKind kind) noexcept;
OperandDTypes op_kind_operand_dtypes(OpKind kind) noexcept;
// The attributes an op of the kind may set (the Attrs column).
AttrSet op_kind_attrs(OpKind kind) noexcept;
struct Op;
// What ng_op_type() returns: the kind name, except that an AssignableTensor is named by its
// flags ("Constant", "Placeholder", "Variable", "PersistentTensor").
const char *op_type_name(const Op &op) noexcept;
// Unary, Cast and Identity ops.
bool op_kind_is_elementwise_unary(OpKind kind) noexcept;
// Binary and Comparison ops.
bool op_kind_is_elementwise_binary(OpKind kind) noexcept;
bool op_kind_is_comparison(OpKind kind) noexcept;

struct Op {
    uint32_t handle_tag = 0;  // first: see HandleTags
    OpKind kind = OpKind::AssignableTensor;
    Graph *graph = nullptr;
    int64_t id = 0;  // creation order within the graph; stable sort key for passes
    // Unique in the process and never reused (an op's address may be, after its graph is gone):
    // the identity of a persistent tensor's value in a transformer.
    uint64_t uid = 0;
    std::string name;  // unique within the graph
    DType dtype = 0;
    Axes axes;                       // the value's axes, in order
    std::vector<Op *> args;          // data dependencies
    std::vector<Op *> control_deps;  // must run before this op
    Op *initial_value = nullptr;     // AssignableTensor: evaluated once by the initializers
    OpAttrs attrs;
    std::map<std::string, std::string> metadata;

    bool is_assignable() const { return kind == OpKind::AssignableTensor; }
    uint32_t flags() const { return is_assignable() ? attrs.flags : 0; }
    int32_t rank() const { return static_cast<int32_t>(axes.size()); }
};

}  // namespace ng
