// Gather: rows of an operand picked along one of its axes by integer indices.
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {

Op *gather(Op *params, Op *indices, const Axis *axis) {
    require_same_graph(params, indices);
    require_graph(*params->graph, axis, "axis");
    require_operand_dtypes(OpKind::Gather, params, "params");
    require_integer(indices, "indices");
    const int32_t at = find_by_name(params->axes, axis->name);
    if (at < 0)
        throw axes_error("axis ", describe(axis), " is not an axis of params ",
                         describe(params->axes));
    const Axis *gathered = params->axes[static_cast<size_t>(at)];
    require_same_length(axis, gathered);
    // The index axes take the gathered axis's place; every name must stay unique.
    Axes result(params->axes.begin(), params->axes.begin() + at);
    for (const Axis *a : indices->axes) {
        if (find_by_name(params->axes, a->name) >= 0)
            throw axes_error("indices ", describe(indices->axes), " and params ",
                             describe(params->axes), " both have an axis named ", a->name);
        result.push_back(a);
    }
    result.insert(result.end(), params->axes.begin() + at + 1, params->axes.end());
    auto op = make_op(OpKind::Gather, params->dtype, std::move(result), {params, indices});
    op->attrs.axis = gathered;
    return finish(std::move(op));
}

}  // namespace ng::build
