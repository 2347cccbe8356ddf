#include "passes/fold.hpp"

#include <cstring>

#include "core/checked_math.hpp"
#include "kernels/kernels.hpp"

namespace ng {

std::vector<uint8_t> evaluate_constant_node(const ExecGraph &g, int32_t id,
                                            const PlanRunner &run_plan) {
    ExecGraph mini;
    Node node = g.nodes[id];
    for (int32_t &a : node.args) {
        mini.nodes.push_back(g.nodes[a]);
        a = static_cast<int32_t>(mini.nodes.size() - 1);
    }
    mini.nodes.push_back(node);
    mini.results.push_back(static_cast<int32_t>(mini.nodes.size() - 1));

    Plan plan = compile_plan(mini);
    std::shared_ptr<Storage> arena = Storage::allocate(plan.arena_bytes);
    std::vector<char *> bases;
    for (const Buffer &b : plan.buffers)
        bases.push_back(b.kind == Buffer::Kind::Arena
                            ? static_cast<char *>(arena->data()) + b.arena_offset
                            : static_cast<char *>(b.constant->data()));
    run_plan(plan, bases);

    const Value &v = plan.results[0];
    const size_t es = dtype_size(node.dtype);
    std::vector<uint8_t> out(checked_bytes(node.numel(), es, "folded constant"));
    kernels::Strided src, dst;
    src.data = bases[v.buffer] + v.layout.offset * static_cast<int64_t>(es);
    src.strides = v.layout.strides;
    dst.data = out.data();
    dst.strides = row_major_strides(v.layout.shape);
    kernels::copy_strided(node.dtype, v.layout.shape, src, dst, nullptr);
    return out;
}

}  // namespace ng
