// ng_reshape as a composite of views that already have kernels and adjoints: x's axes are merged
// into one (Flatten, a view when the layout allows, else a row-major copy), that axis is renamed to
// an axis whose components are the new axes (CastAxes), and split into them (Unflatten). Row-major
// order is what Flatten and Unflatten mean, so the composite is a row-major reinterpretation, and
// its gradient is the reverse reshape with no rule of its own.
#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {
namespace {

int64_t element_count(const Axes &axes, const char *what) {
    int64_t n = 1;
    for (const Axis *a : axes) n = checked_mul(n, a->length, what);
    return n;
}

std::string joined_names(const Axes &axes) {
    std::string name;
    for (const Axis *a : axes) name += (name.empty() ? "" : "_") + a->name;
    return name;
}

}  // namespace

Op *reshape(Op *x, const Axes &axes) {
    for (const Axis *a : axes) require_graph(*x->graph, a, "axis");
    require_distinct_names(axes, "the new axes");
    const int64_t count = element_count(axes, "element count of the new axes");
    if (count != element_count(x->axes, "element count of the operand"))
        throw axes_error("the new axes ", describe(axes), " hold ", count,
                         " elements, the operand ", x->name, " ", describe(x->axes), " ",
                         element_count(x->axes, "element count"));
    if (axes.empty()) {  // one element: index it out of every axis
        std::vector<SliceSpec> first(x->axes.size(), SliceSpec{0, 1, 1, true});
        return x->axes.empty() ? x : slice(x, first);
    }
    Graph &g = *x->graph;
    Op *flat = x;
    if (x->axes.empty())
        flat = expand_dims(x, g.axis(joined_names(axes), 1), 0);
    else if (x->axes.size() > 1)
        flat = flatten(x, x->axes, joined_names(x->axes));
    if (axes.size() == 1) return cast_axes(flat, axes);
    const Axis *target = g.axis(joined_names(axes), count, axes);
    return unflatten(cast_axes(flat, {target}));
}

}  // namespace ng::build
