// Views and data movement: ops that rearrange, rename, cut, pad, merge or join axes.
#include <algorithm>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {
namespace {

void require_own_axes(const Op *x, const Axes &axes) {
    for (const Axis *a : axes) require_graph(*x->graph, a, "axis");
}

Op *view(OpKind kind, Op *x, Axes result_axes) {
    auto op = make_op(kind, x->dtype, result_axes, {x});
    op->attrs.axes = std::move(result_axes);
    return finish(std::move(op));
}

// Number of elements start, start + step, ... before reaching stop (step != 0).
int64_t slice_count(const SliceSpec &s) {
    if (s.step > 0) return s.stop > s.start ? (s.stop - s.start - 1) / s.step + 1 : 0;
    // -step overflows for INT64_MIN: divide by its magnitude as an unsigned number.
    const uint64_t magnitude = uint64_t{0} - static_cast<uint64_t>(s.step);
    return s.start > s.stop ? int64_t(uint64_t(s.start - s.stop - 1) / magnitude) + 1 : 0;
}

// Validates one spec against its axis; returns it in the stored form (an index becomes
// start = index, stop = index + 1, step = 1, drop).
SliceSpec checked_spec(const SliceSpec &spec, const Axis *axis) {
    const int64_t n = axis->length;
    if (spec.drop) {
        if (spec.start < 0 || spec.start >= n)
            throw invalid_argument("index ", spec.start, " is outside axis ", describe(axis));
        return SliceSpec{spec.start, spec.start + 1, 1, true};
    }
    if (spec.step == 0) throw invalid_argument("the slice of axis ", describe(axis), " has step 0");
    const bool forward = spec.step > 0;
    // Forward: 0 <= start <= stop <= n. Backward: -1 <= stop <= start <= n - 1 (stop -1 runs to
    // index 0).
    const int64_t lowest = forward ? 0 : -1, highest = forward ? n : n - 1;
    if (spec.start < lowest || spec.start > highest || spec.stop < lowest || spec.stop > highest ||
        (forward ? spec.stop < spec.start : spec.stop > spec.start))
        throw invalid_argument("slice [", spec.start, ":", spec.stop, ":", spec.step,
                               "] does not fit axis ", describe(axis),
                               forward ? " (needs 0 <= start <= stop <= length)"
                                       : " (needs -1 <= stop <= start < length)");
    return spec;
}

// x's own axes in the order of `first`'s names (x must have the same names; equal lengths except
// for the axis named skip_name). Checks only, so callers can validate every operand first.
Axes order_like(const Op *first, const Op *x, const std::string &skip_name) {
    require_same_graph(first, x);
    require_same_dtype(first, x);
    if (x->rank() != first->rank())
        throw axes_error("operand ", x->name, " ", describe(x->axes), " has not the axes of ",
                         first->name, " ", describe(first->axes));
    Axes reordered;
    for (const Axis *axis : first->axes) {
        int32_t i = find_by_name(x->axes, axis->name);
        if (i < 0)
            throw axes_error("operand ", x->name, " ", describe(x->axes), " lacks axis ",
                             describe(axis), " of ", first->name);
        if (axis->name != skip_name) require_same_length(axis, x->axes[i]);
        reordered.push_back(x->axes[i]);
    }
    return reordered;
}

// Every operand in the axis order of the first, transposed where needed (after all are checked).
std::vector<Op *> all_in_first_order(const std::vector<Op *> &xs, const std::string &skip_name) {
    std::vector<Axes> orders;
    for (const Op *x : xs) orders.push_back(order_like(xs.front(), x, skip_name));
    std::vector<Op *> aligned;
    for (size_t i = 0; i < xs.size(); ++i)
        aligned.push_back(orders[i] == xs[i]->axes ? xs[i] : axes_with_order(xs[i], orders[i]));
    return aligned;
}

Axes inserted(Axes axes, const Axis *axis, int32_t position) {
    if (position < 0 || position > static_cast<int32_t>(axes.size()))
        throw invalid_argument("position ", position, " is outside 0..", axes.size());
    axes.insert(axes.begin() + position, axis);
    return axes;
}

void require_new_name(const Op *x, const Axis *axis) {
    if (find_by_name(x->axes, axis->name) >= 0)
        throw axes_error("axis ", describe(axis), " is already an axis of ", x->name, " ",
                         describe(x->axes));
}

}  // namespace

Op *broadcast(Op *x, const Axes &axes) {
    require_own_axes(x, axes);
    require_distinct_names(axes, "target axes");
    for (const Axis *axis : x->axes) {
        int32_t i = find_by_name(axes, axis->name);
        if (i < 0)
            throw axes_error("the broadcast target ", describe(axes), " lacks axis ",
                             describe(axis), " of the operand");
        require_same_length(axis, axes[i]);
    }
    return view(OpKind::Broadcast, x, axes);
}

Op *axes_with_order(Op *x, const Axes &axes) {
    require_own_axes(x, axes);
    require_distinct_names(axes, "the new order");
    if (axes.size() != x->axes.size())
        throw axes_error("the new order ", describe(axes), " is not a permutation of ",
                         describe(x->axes));
    positions_of(axes, x->axes, "the operand");
    return view(OpKind::AxesWithOrder, x, axes);
}

Op *cast_axes(Op *x, const Axes &axes) {
    require_own_axes(x, axes);
    require_distinct_names(axes, "the new axes");
    if (axes.size() != x->axes.size())
        throw axes_error("the new axes ", describe(axes), " are not as many as the operand's ",
                         describe(x->axes));
    for (size_t i = 0; i < axes.size(); ++i)
        if (axes[i]->length != x->axes[i]->length)
            throw axes_error("axis ", describe(x->axes[i]), " cannot become ", describe(axes[i]),
                             ": the lengths differ");
    return view(OpKind::CastAxes, x, axes);
}

Op *expand_dims(Op *x, const Axis *axis, int32_t position) {
    require_own_axes(x, {axis});
    require_new_name(x, axis);
    return broadcast(x, inserted(x->axes, axis, position));
}

Axes sliced_axes(Op *x, const std::vector<SliceSpec> &slices, std::vector<SliceSpec> &stored) {
    if (slices.size() != x->axes.size())
        throw invalid_argument(slices.size(), " slice specs for operand ", x->name, " of rank ",
                               x->rank(), " ", describe(x->axes));
    Axes result;
    stored.clear();
    for (size_t i = 0; i < slices.size(); ++i) {
        const Axis *axis = x->axes[i];
        SliceSpec s = checked_spec(slices[i], axis);
        stored.push_back(s);
        if (s.drop) continue;
        const int64_t count = slice_count(s);
        const bool whole = s.start == 0 && s.step == 1 && count == axis->length;
        result.push_back(whole ? axis : x->graph->axis(axis->name, count));
    }
    return result;
}

Op *slice(Op *x, const std::vector<SliceSpec> &slices) {
    std::vector<SliceSpec> stored;
    Axes result = sliced_axes(x, slices, stored);
    auto op = make_op(OpKind::Slice, x->dtype, std::move(result), {x});
    op->attrs.slices = std::move(stored);
    return finish(std::move(op));
}

Op *pad(Op *x, const std::vector<std::pair<int64_t, int64_t>> &padding) {
    if (padding.size() != x->axes.size())
        throw invalid_argument(padding.size(), " paddings for operand ", x->name, " of rank ",
                               x->rank(), " ", describe(x->axes));
    Axes result;
    for (size_t i = 0; i < padding.size(); ++i) {
        const Axis *axis = x->axes[i];
        auto [before, after] = padding[i];
        if (before < 0 || after < 0)
            throw invalid_argument("padding (", before, ", ", after, ") of axis ", describe(axis),
                                   " is negative");
        if (before == 0 && after == 0) {
            result.push_back(axis);
            continue;
        }
        int64_t length =
            checked_add(checked_add(axis->length, before, "padded length"), after, "padded length");
        result.push_back(x->graph->axis(axis->name, length));
    }
    auto op = make_op(OpKind::Pad, x->dtype, std::move(result), {x});
    op->attrs.padding = padding;
    return finish(std::move(op));
}

Op *flatten(Op *x, const Axes &axes_to_merge, const std::string &new_name) {
    require_own_axes(x, axes_to_merge);
    if (axes_to_merge.empty()) throw invalid_argument("no axes to flatten");
    require_distinct_names(axes_to_merge, "axes to flatten");
    std::vector<int32_t> at = positions_of(axes_to_merge, x->axes, "the operand");
    for (size_t i = 1; i < at.size(); ++i)
        if (at[i] != at[0] + static_cast<int32_t>(i))
            throw axes_error("axes ", describe(axes_to_merge),
                             " are not consecutive, in order, in ", describe(x->axes),
                             "; reorder them first with ng_axes_with_order");
    std::string name = new_name;
    if (name.empty())
        for (const Axis *a : axes_to_merge) name += (name.empty() ? "" : "_") + a->name;
    int64_t length = 1;
    Axes components(x->axes.begin() + at.front(), x->axes.begin() + at.back() + 1);
    for (const Axis *a : components) length = checked_mul(length, a->length, "flattened length");

    Axes result(x->axes.begin(), x->axes.begin() + at.front());
    Axes rest(x->axes.begin() + at.back() + 1, x->axes.end());
    if (find_by_name(result, name) >= 0 || find_by_name(rest, name) >= 0)
        throw axes_error("the flattened axis name ", name, " is already an axis of ",
                         describe(x->axes));
    const Axis *merged = x->graph->axis(name, length, components);
    result.push_back(merged);
    result.insert(result.end(), rest.begin(), rest.end());

    auto op = make_op(OpKind::Flatten, x->dtype, std::move(result), {x});
    op->attrs.axis = merged;
    op->attrs.axes = std::move(components);
    return finish(std::move(op));
}

Op *unflatten(Op *x) {
    Axes result;
    bool any = false;
    for (const Axis *a : x->axes) {
        if (a->components.empty()) {
            result.push_back(a);
        } else {
            any = true;
            result.insert(result.end(), a->components.begin(), a->components.end());
        }
    }
    if (!any)
        throw axes_error("operand ", x->name, " ", describe(x->axes), " has no flattened axis");
    require_distinct_names(result, "the unflattened axes");
    return finish(make_op(OpKind::Unflatten, x->dtype, std::move(result), {x}));
}

Op *concat(const std::vector<Op *> &xs, const std::string &axis_name) {
    if (xs.empty()) throw invalid_argument("nothing to concatenate");
    Op *first = xs.front();
    if (find_by_name(first->axes, axis_name) < 0)
        throw axes_error("operand ", first->name, " ", describe(first->axes), " has no axis named ",
                         axis_name);
    const int32_t at = find_by_name(first->axes, axis_name);
    int64_t total = 0;
    for (const Op *x : xs)
        total =
            checked_add(total, order_like(first, x, axis_name)[at]->length, "concatenated length");
    std::vector<Op *> args = all_in_first_order(xs, axis_name);
    Axes result = first->axes;
    result[at] = first->graph->axis(axis_name, total);
    auto op = make_op(OpKind::Concat, first->dtype, std::move(result), std::move(args));
    op->attrs.axis = op->axes[at];
    return finish(std::move(op));
}

Op *stack(const std::vector<Op *> &xs, const Axis *new_axis, int32_t position) {
    if (xs.empty()) throw invalid_argument("nothing to stack");
    Op *first = xs.front();
    require_own_axes(first, {new_axis});
    require_new_name(first, new_axis);
    if (new_axis->length != static_cast<int64_t>(xs.size()))
        throw axes_error("the new axis ", describe(new_axis), " does not have the length ",
                         xs.size(), " of the stacked list");
    // Each operand gains a unit axis of the new name; concatenating along it gives the stack.
    if (position < 0 || position > first->rank())
        throw invalid_argument("position ", position, " is outside 0..", first->rank());
    const Axis *unit = first->graph->axis(new_axis->name, 1);
    std::vector<Op *> expanded;
    for (Op *x : all_in_first_order(xs, "")) expanded.push_back(expand_dims(x, unit, position));
    Op *stacked = concat(expanded, new_axis->name);
    if (stacked->axes[position] == new_axis) return stacked;
    Axes renamed = stacked->axes;
    renamed[position] =
        new_axis;  // a flattened new_axis: same name and length, its components kept
    return cast_axes(stacked, renamed);
}

Op *one_hot(Op *x, const Axis *axis, DType dt) {
    require_own_axes(x, {axis});
    require_operand_dtypes(OpKind::OneHot, x, "operand");
    check_dtype(dt, "dtype");
    require_new_name(x, axis);
    auto op = make_op(OpKind::OneHot, dt, inserted(x->axes, axis, 0), {x});
    op->attrs.axis = axis;
    return finish(std::move(op));
}

}  // namespace ng::build
