// Shared state of one lowering (passes/lower*.cpp): the plan being built, the value of every
// node lowered so far, and helpers that make buffers, steps and operands.
#pragma once

#include <set>
#include <unordered_map>
#include <vector>

#include "graph/axes_rules.hpp"
#include "passes/exec_graph.hpp"
#include "passes/plan.hpp"

namespace ng {

class Lowering {
public:
    Lowering(const ExecGraph &graph, const std::vector<std::vector<int64_t>> &param_strides);
    Plan run();

    // ---- used by the per-kind lowering functions ----
    const ExecGraph &graph;
    const std::vector<std::vector<int64_t>> &param_strides;  // empty: row-major parameters
    Plan plan;
    std::vector<Value> values;        // per node; buffer -1 until lowered (or when fused away)
    std::vector<int32_t> uses;        // how many args/results refer to each node
    std::vector<char> fused;          // node is computed inside its consumer's program
    std::vector<int32_t> version;     // per node: writes to its buffer seen when it was lowered
    std::vector<int32_t> fused_into;  // per fused node: its consumer
    std::vector<int32_t> last_use;    // per node: its last consumer (INT32_MAX for a result)
    std::vector<char> is_result;      // per node: a result of the computation
    // The consumers of node v, each once and in order: users[user_start[v] .. user_start[v + 1]).
    std::vector<int32_t> users, user_start;

    int32_t new_arena_buffer(DType dt, int64_t numel);
    // Appends a constant buffer over `data`.
    int32_t add_constant_buffer(DType dt, std::shared_ptr<Storage> data);
    // A constant buffer holding a copy of `data`.
    int32_t new_constant_buffer(DType dt, const std::vector<int64_t> &shape, const void *data);
    // A constant buffer over `data` itself, without a copy, unless the plan's memory must come
    // from an allocator the host gave (the default one made none of it).
    int32_t new_constant_buffer(DType dt, const std::vector<int64_t> &shape,
                                const SharedBytes &data);
    Value row_major(int32_t buffer, const std::vector<int64_t> &shape) const;
    // The value `v` (over `value_axes`) seen from an iteration space over `space` (by axis name):
    // axes of the space the value lacks get stride 0.
    Operand operand(const Value &v, const Axes &value_axes, const Axes &space) const;
    // Operand of node `id`'s value (checked not to be overwritten since it was made).
    Operand read(int32_t id, const Axes &space);
    // Copies node `id`'s value into a new row-major arena buffer over `order` (a permutation of
    // its axes) and returns that value.
    Value pack(int32_t id, const Axes &order);
    // Operand of node `id`'s value read row-major over `order` (a permutation of its axes): the
    // value itself when its layout already is that, else a packed copy. For kernels that take
    // dense arrays.
    Operand read_row_major(int32_t id, const Axes &order);
    int32_t add_step(Step step);
    // Called by an assignment before it writes into `buffer`: makes the values read from it that
    // are still needed afterwards (the assignment's target value then stays the buffer itself
    // only in the caller's copy of it).
    void keep_what_assignment_overwrites(int32_t assignment, int32_t buffer);

    // Bookkeeping of writes into persistent buffers (Assign).
    std::vector<int32_t> writes_to_buffer;

private:
    // keep_what_assignment_overwrites' candidates (see there).
    std::set<int32_t> open_fused;  // fused nodes, until their consumer is lowered
    std::unordered_map<int32_t, std::vector<int32_t>> values_in;  // buffer -> nodes stored there
    int32_t indexed_upto = 0;  // nodes below this are in values_in (or fused)

    void lower_node(int32_t id);
    void count_uses();
    void mark_fusible();
    bool fused_reads_buffer(int32_t id, int32_t buffer) const;
};

// Per-kind lowering, one file each.
void lower_leaf(Lowering &L, int32_t id);
void lower_view(Lowering &L, int32_t id);
void lower_elementwise(Lowering &L, int32_t id);
void lower_reduction(Lowering &L, int32_t id);
void lower_arg_reduction(Lowering &L, int32_t id);
void lower_softmax(Lowering &L, int32_t id);
void lower_dot(Lowering &L, int32_t id);
void lower_data_movement(Lowering &L, int32_t id);  // Pad, Concat, OneHot
void lower_assign(Lowering &L, int32_t id);
void lower_random(Lowering &L, int32_t id);
// NG_IF_KERNEL_CLASS_<Class>(x): x for the Kernel class, nothing for the others; for code
// generated from op_kinds.def about the Kernel class's rows.
// clang-format off
#define NG_IF_KERNEL_CLASS_Kernel(x) x
#define NG_IF_KERNEL_CLASS_Leaf(x)
#define NG_IF_KERNEL_CLASS_Unary(x)
#define NG_IF_KERNEL_CLASS_Cast(x)
#define NG_IF_KERNEL_CLASS_Identity(x)
#define NG_IF_KERNEL_CLASS_Binary(x)
#define NG_IF_KERNEL_CLASS_Comparison(x)
#define NG_IF_KERNEL_CLASS_Select(x)
#define NG_IF_KERNEL_CLASS_Reduction(x)
#define NG_IF_KERNEL_CLASS_ArgReduction(x)
#define NG_IF_KERNEL_CLASS_Contraction(x)
#define NG_IF_KERNEL_CLASS_Normalization(x)
#define NG_IF_KERNEL_CLASS_View(x)
#define NG_IF_KERNEL_CLASS_DataMovement(x)
#define NG_IF_KERNEL_CLASS_Assignment(x)
#define NG_IF_KERNEL_CLASS_Control(x)
#define NG_IF_KERNEL_CLASS_Random(x)

// The lowerings of the Kernel class: lower_<Kernel column> for each of its rows (a lowering
// shared by several rows is declared once per row, which C++ allows).
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) \
    NG_IF_KERNEL_CLASS_##Class(void lower_##Kernel(Lowering &L, int32_t id);)
#include "graph/op_kinds.def"
// clang-format on

// Position of the axis named like `a` in `axes`, or -1.
inline int32_t find_axis(const Axes &axes, const Axis *a) {
    return find_by_name(axes, a->name);
}

}  // namespace ng
