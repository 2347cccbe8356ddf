// C++ op builders: infer and check result axes and dtypes, then add the op to its graph. The C
// API (capi/ops.cpp) and autodiff call these; every violation throws ng::Error with a message
// naming the offending axes or dtypes (the C boundary prefixes the function name).
//
// Rules (docs/axes.md has them with worked examples):
// - elementwise: operands share a dtype; axes aligned by name; result axes = a's axes in order,
//   then b's remaining axes in order; same name with different lengths is NG_ERR_AXES.
// - reductions reduce the listed axes (empty list: all) and keep the rest in order.
// - dot contracts every shared axis; result = a's others, then b's others.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace ng::build {

// assignable tensors. `data` (constants only) is dense row-major in `axes`
// order and copied; `initial_value` may be null (zeros) or any op of the same graph, broadcast.
Op *assignable(Graph &g, DType dt, const Axes &axes, uint32_t flags, const void *data,
               Op *initial_value);
Op *constant(Graph &g, DType dt, const Axes &axes, const void *data);
// The same, taking the elements (exactly the constant's size) without copying them.
Op *constant(Graph &g, DType dt, const Axes &axes, std::vector<uint8_t> elements);
Op *scalar(Graph &g, DType dt, double value);  // rank-0 constant of any dtype
Op *placeholder(Graph &g, DType dt, const Axes &axes, Op *initial_value);
Op *persistent_tensor(Graph &g, DType dt, const Axes &axes, Op *initial_value);
Op *variable(Graph &g, DType dt, const Axes &axes, Op *initial_value);

Op *unary(OpKind kind, Op *x);  // Negative .. Tanh, StopGradient
Op *cast(Op *x, DType to);
Op *binary(OpKind kind, Op *a, Op *b);  // Add .. GreaterEqual (aligned by name)
Op *select(Op *condition, Op *a, Op *b);
Op *reduce(OpKind kind, Op *x, const Axes &axes);  // Sum, Max, Min, Mean, Prod; empty axes = all
Op *arg_reduce(OpKind kind, Op *x, const Axis *axis);  // Argmax, Argmin
Op *dot(Op *a, Op *b);
Op *softmax(Op *x, const Axes &axes);  // empty axes = all
Op *log_softmax(Op *x, const Axes &axes);

Op *broadcast(Op *x, const Axes &axes);
Op *axes_with_order(Op *x, const Axes &axes);
Op *cast_axes(Op *x, const Axes &axes);
Op *expand_dims(Op *x, const Axis *axis, int32_t position);
Op *slice(Op *x, const std::vector<SliceSpec> &slices);  // one spec per axis of x
// The axes slice(x, slices) has; `stored` receives the checked, normalised specs.
Axes sliced_axes(Op *x, const std::vector<SliceSpec> &slices, std::vector<SliceSpec> &stored);
Op *pad(Op *x, const std::vector<std::pair<int64_t, int64_t>> &padding);
Op *flatten(Op *x, const Axes &axes_to_merge,
            const std::string &new_name);  // consecutive axes of x
Op *unflatten(Op *x);
Op *concat(const std::vector<Op *> &xs, const std::string &axis_name);
Op *stack(const std::vector<Op *> &xs, const Axis *new_axis, int32_t position);
Op *one_hot(Op *x, const Axis *axis, DType dt);
// params' elements along `axis` picked by integer `indices`: the result has params' axes with
// `axis` replaced, in place, by the indices' axes (whose names params may not have).
Op *gather(Op *params, Op *indices, const Axis *axis);
// Row-major reinterpretation of x onto `axes` (same element count), built from Flatten, CastAxes
// and Unflatten so it is a view where x's layout allows and has their adjoints.
Op *reshape(Op *x, const Axes &axes);

// Jagged values (docs/shapes.md): values over a flat axis `along` of all real elements and
// `splits`, an int64 op with one axis of length segments->length + 1. Reductions give
// (segments, x's other axes...); gather gives (along, y's other axes...).
Op *segment_reduce(OpKind kind, Op *x, const Axis *along, Op *splits,
                   const Axis *segments);  // SegmentSum, SegmentMax
Op *segment_gather(Op *y, const Axis *segments, Op *splits, const Axis *along);
// Composites: mean (0 for an empty segment), min, and softmax / log-softmax over each segment
// (x's axes, shifted by the segment's max).
Op *segment_mean(Op *x, const Axis *along, Op *splits, const Axis *segments);
Op *segment_min(Op *x, const Axis *along, Op *splits, const Axis *segments);
Op *segment_softmax(Op *x, const Axis *along, Op *splits, const Axis *segments, bool log);
Op *assign(Op *lhs, Op *rhs);
Op *sequential(const std::vector<Op *> &ops);
Op *assign_slice(Op *lhs, const std::vector<SliceSpec> &slices, Op *rhs);
Op *fill(Op *lhs, double value);  // assign(lhs, value as a scalar of lhs's dtype)
Op *value_of(Op *tensor);
// Uniform in [a, b) or Normal with mean a and standard deviation b; new values at every run.
Op *random(Graph &g, OpKind kind, DType dt, const Axes &axes, double a, double b);

// Composites built from the primitives above.
Op *variance(Op *x, const Axes &axes);
Op *squared_l2(Op *x, const Axes &axes);
Op *l2_norm(Op *x, const Axes &axes);
Op *l1_norm(Op *x, const Axes &axes);
// -sum(t * log(y)) over axes; when y is a Softmax, computed as -sum(t * log_softmax(x))
// so it is finite for any logits and differentiates as softmax - t.
Op *cross_entropy_multi(Op *y, Op *t, const Axes &axes);
// -(t log y + (1-t) log(1-y)), summed over axes (empty: elementwise, no sum); when y is a
// Sigmoid, computed from its logits as max(x,0) - t*x + log(1 + exp(-|x|)).
Op *cross_entropy_binary(Op *y, Op *t, const Axes &axes);

}  // namespace ng::build
