#include "passes/pipeline.hpp"

#include "passes/fuse_gemm.hpp"
#include "passes/lower.hpp"
#include "passes/memory_plan.hpp"
#include "passes/simplify.hpp"

namespace ng {

ExecGraph compile_graph(const std::vector<const Op *> &results,
                        const std::vector<const Op *> &params, const PlanRunner &run_plan,
                        int32_t &num_source_nodes) {
    ExecGraph graph = ExecGraph::from_ops(results, params);
    num_source_nodes = static_cast<int32_t>(graph.nodes.size());
    simplify(graph, run_plan);
    graph.own_axes();
    return graph;
}

Plan compile_plan(const ExecGraph &graph, const std::vector<std::vector<int64_t>> &param_strides) {
    Plan plan = lower(graph, param_strides);
    fuse_gemm_updates(plan);
    fuse_gemm_epilogues(plan);
    fuse_assignments(plan);
    plan_memory(plan);
    return plan;
}

}  // namespace ng
