#include "runtime/value_info.hpp"

#include "graph/axes_rules.hpp"

namespace ng {

std::vector<ValueInfo> describe_values(const std::vector<const Op *> &ops) {
    std::vector<ValueInfo> out(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
        const Op &op = *ops[i];
        out[i].name = op.name;
        out[i].dtype = op.dtype;
        for (const Axis *a : op.axes) out[i].axis_names.push_back(a->name);
        out[i].axis_lengths = axes_shape(op.axes);
    }
    return out;
}

}  // namespace ng
