// ONNX's operators that move data or make it from shapes: Reshape, Flatten, Squeeze, Unsqueeze,
// Transpose, Expand, Concat, Split, Slice, Pad, Tile, Gather, OneHot, Constant, ConstantOfShape,
// Shape, Size, Range.
#include <algorithm>
#include <type_traits>
#include <cmath>
#include <limits>

#include "core/checked_math.hpp"
#include "graph/builders.hpp"
#include "io/onnx_node.hpp"

namespace ng::onnx_io {
namespace {

using build::binary;

int64_t element_count(const Node &n, const Dims &d) {
    int64_t count = 1;
    for (int64_t x : d) {
        if (x < 0) throw n.bad(concat("negative dimension ", x));
        count = checked_mul(count, x, "element count");
    }
    return count;
}

Known ints_known(const Dims &values, bool scalar = false) {
    Known k{NG_INT64, scalar ? Dims{} : Dims{static_cast<int64_t>(values.size())}, {}};
    k.data.resize(values.size() * sizeof(int64_t));
    std::copy(values.begin(), values.end(), reinterpret_cast<int64_t *>(k.data.data()));
    return k;
}

// Axes from an attribute (before `input_from`) or from input 1 (from that opset on).
std::vector<int64_t> axes_list(Node &n, int64_t input_from, bool &given) {
    if (n.c.opset >= input_from) {
        given = n.has_input(1);
        return given ? n.known(1, "axes").ints(n.label + " axes") : std::vector<int64_t>{};
    }
    given = n.has_attr("axes");
    return n.attr_ints("axes");
}

void reshape(Node &n) {
    Op *x = n.in(0);
    std::vector<int64_t> shape = n.known(1, "shape").ints(n.label + " shape");
    if (shape.size() > static_cast<size_t>(kMaxRank)) throw n.bad("shape has too many dims");
    const bool allow_zero = n.attr_int("allowzero", 0) != 0;
    int64_t infer = -1, known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0 && !allow_zero) {
            if (i >= x->axes.size()) throw n.bad("shape copies a dim the input lacks");
            shape[i] = x->axes[i]->length;
        }
        if (shape[i] == -1) {
            if (infer >= 0) throw n.bad("shape has two -1 dims");
            infer = static_cast<int64_t>(i);
            continue;
        }
        if (shape[i] < 0) throw n.bad(concat("shape has dim ", shape[i]));
        known = checked_mul(known, shape[i], "element count");
    }
    const int64_t total = element_count(n, dims_of(x));
    if (infer >= 0) {
        if (known == 0 || total % known != 0)
            throw axes_error(n.label, ": cannot infer the -1 dim of ", total, " elements");
        shape[infer] = total / known;
    }
    n.out(0, reshape_to(n.c, x, shape));
}

void flatten(Node &n) {
    Op *x = n.in(0);
    const int64_t rank = x->rank();
    int64_t axis = n.attr_int("axis", 1);
    if (axis < -rank || axis > rank) throw n.bad(concat("axis ", axis, " is outside the rank"));
    if (axis < 0) axis += rank;
    int64_t rows = 1, cols = 1;
    for (int64_t i = 0; i < rank; ++i) (i < axis ? rows : cols) *= x->axes[i]->length;
    n.out(0, reshape_to(n.c, x, {rows, cols}));
}

void squeeze(Node &n) {
    Op *x = n.in(0);
    bool given = false;
    std::vector<int64_t> axes = axes_list(n, 13, given);
    const int64_t rank = x->rank();
    std::vector<bool> drop(rank, false);
    for (int64_t a : axes) {
        int64_t i = normalize_axis(n, a, rank);
        if (x->axes[i]->length != 1) throw n.bad(concat("dim ", i, " is not 1"));
        drop[i] = true;
    }
    Dims shape;
    for (int64_t i = 0; i < rank; ++i)
        if (!(given ? drop[i] : x->axes[i]->length == 1)) shape.push_back(x->axes[i]->length);
    n.out(0, reshape_to(n.c, x, shape));
}

void unsqueeze(Node &n) {
    Op *x = n.in(0);
    bool given = false;
    std::vector<int64_t> axes = axes_list(n, 13, given);
    const int64_t rank = x->rank() + static_cast<int64_t>(axes.size());
    if (rank > kMaxRank) throw n.bad("too many dims");
    std::vector<bool> inserted(rank, false);
    for (int64_t a : axes) {
        int64_t i = normalize_axis(n, a, rank);
        if (inserted[i]) throw n.bad("an axis is listed twice");
        inserted[i] = true;
    }
    Dims shape;
    size_t next = 0;
    for (int64_t i = 0; i < rank; ++i) shape.push_back(inserted[i] ? 1 : x->axes[next++]->length);
    n.out(0, reshape_to(n.c, x, shape));
}

void transpose(Node &n) {
    Op *x = n.in(0);
    std::vector<int64_t> perm = n.attr_ints("perm");
    const int64_t rank = x->rank();
    if (perm.empty())
        for (int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
    if (static_cast<int64_t>(perm.size()) != rank) throw n.bad("perm does not match the rank");
    Axes order;
    std::vector<bool> seen(rank, false);
    for (int64_t p : perm) {
        int64_t i = normalize_axis(n, p, rank);
        if (seen[i]) throw n.bad("perm repeats an axis");
        seen[i] = true;
        order.push_back(x->axes[i]);
    }
    n.out(0, build::axes_with_order(x, order));
}

void expand(Node &n) {
    Op *x = n.in(0);
    std::vector<int64_t> shape = n.known(1, "shape").ints(n.label + " shape");
    if (shape.size() > static_cast<size_t>(kMaxRank)) throw n.bad("shape has too many dims");
    element_count(n, shape);
    Dims out;
    const size_t rank = std::max(shape.size(), x->axes.size());
    out.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        int64_t s = i + shape.size() >= rank ? shape[i + shape.size() - rank] : 1;
        int64_t d = i + x->axes.size() >= rank ? x->axes[i + x->axes.size() - rank]->length : 1;
        if (s != d && s != 1 && d != 1)
            throw axes_error(n.label, ": dimensions ", d, " and ", s, " do not broadcast");
        out[i] = s == 1 ? d : s;
    }
    element_count(n, out);
    // x's dims renamed to their result positions (broadcast 1s dropped), then broadcast.
    const size_t shift = rank - x->axes.size();
    std::vector<SliceSpec> specs;
    Axes kept;
    bool drop = false;
    for (size_t j = 0; j < x->axes.size(); ++j) {
        const int64_t d = x->axes[j]->length;
        if (d == 1 && out[shift + j] != 1) {
            specs.push_back({0, 1, 1, true});
            drop = true;
        } else {
            specs.push_back({0, d, 1, false});
            kept.push_back(n.c.graph.axis("d" + std::to_string(shift + j), d));
        }
    }
    Op *y = drop ? build::slice(x, specs) : x;
    y = kept == y->axes ? y : build::cast_axes(y, kept);
    Axes target = n.c.axes_for(out);
    n.out(0, target == y->axes ? y : build::broadcast(y, target));
}

void concat_op(Node &n) {
    if (n.num_inputs() < 1) throw n.bad("no inputs");
    std::vector<Op *> xs;
    for (int i = 0; i < n.num_inputs(); ++i) xs.push_back(n.in(i));
    const int64_t axis = normalize_axis(n, n.attr_int("axis", 0), xs[0]->rank());
    for (Op *x : xs)
        if (x->rank() != xs[0]->rank()) throw n.bad("inputs of different ranks");
    n.out(0, build::concat(xs, "d" + std::to_string(axis)));
}

// ONNX's clamped start/end of one axis as a nanograph slice spec.
SliceSpec slice_spec(const Node &n, int64_t start, int64_t end, int64_t step, int64_t dim) {
    if (step == 0) throw n.bad("a slice step is 0");
    if (dim == 0) return {0, 0, 1, false};
    if (start < 0) start = start < -dim ? -dim : start, start += dim;
    if (end < 0) end = end < -dim ? -dim - 1 : end, end += dim;
    if (step > 0) {
        start = std::min(std::max<int64_t>(start, 0), dim);
        end = std::min(std::max<int64_t>(end, 0), dim);
        return {start, std::max(start, end), step, false};
    }
    start = std::min(std::max<int64_t>(start, 0), dim - 1);
    end = std::min(std::max<int64_t>(end, -1), dim - 1);
    return {start, std::min(start, end), step, false};
}

void slice(Node &n) {
    Op *x = n.in(0);
    const int64_t rank = x->rank();
    std::vector<int64_t> starts, ends, axes, steps;
    if (n.c.opset < 10) {
        starts = n.attr_ints("starts");
        ends = n.attr_ints("ends");
        axes = n.attr_ints("axes");
    } else {
        starts = n.known(1, "starts").ints(n.label + " starts");
        ends = n.known(2, "ends").ints(n.label + " ends");
        if (n.has_input(3)) axes = n.known(3, "axes").ints(n.label + " axes");
        if (n.has_input(4)) steps = n.known(4, "steps").ints(n.label + " steps");
    }
    if (axes.empty())
        for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (ends.size() != starts.size() || axes.size() != starts.size() ||
        steps.size() != starts.size())
        throw n.bad("starts, ends, axes and steps differ in length");
    std::vector<SliceSpec> specs;
    for (const Axis *a : x->axes) specs.push_back({0, a->length, 1, false});
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < starts.size(); ++i) {
        int64_t a = normalize_axis(n, axes[i], rank);
        if (seen[a]) throw n.bad("an axis is sliced twice");
        seen[a] = true;
        specs[a] = slice_spec(n, starts[i], ends[i], steps[i], x->axes[a]->length);
    }
    n.out(0, build::slice(x, specs));
}

void split(Node &n) {
    Op *x = n.in(0);
    const int64_t axis = normalize_axis(n, n.attr_int("axis", 0), x->rank());
    const int64_t dim = x->axes[axis]->length;
    std::vector<int64_t> sizes;
    if (n.c.opset >= 13) {
        if (n.has_input(1)) sizes = n.known(1, "split").ints(n.label + " split");
    } else {
        sizes = n.attr_ints("split");
    }
    const int64_t parts = n.num_outputs();
    if (parts < 1) throw n.bad("no outputs");
    if (sizes.empty()) {
        const int64_t each = (dim + parts - 1) / parts;
        for (int64_t i = 0, left = dim; i < parts; ++i, left -= each)
            sizes.push_back(std::min(each, std::max<int64_t>(left, 0)));
    }
    if (static_cast<int64_t>(sizes.size()) != parts) throw n.bad("split sizes and outputs differ");
    int64_t at = 0;
    for (int64_t i = 0; i < parts; ++i) {
        if (sizes[i] < 0 || sizes[i] > dim - at) throw n.bad("split sizes exceed the dim");
        std::vector<SliceSpec> specs;
        for (const Axis *a : x->axes) specs.push_back({0, a->length, 1, false});
        specs[axis] = {at, at + sizes[i], 1, false};
        n.out(static_cast<int>(i), build::slice(x, specs));
        at += sizes[i];
    }
    if (at != dim) throw n.bad("split sizes do not add up to the dim");
}

// Axis i of x grown by `before` and `after` elements copied from x: its edge elements repeated,
// or its elements mirrored about the edge ones (reflect).
Op *pad_by_copies(Node &n, Op *x, int64_t i, int64_t before, int64_t after, bool edge) {
    if (before == 0 && after == 0) return x;
    const Axis *axis = x->axes[i];
    const int64_t d = axis->length;
    if (d == 0 || (!edge && (before > d - 1 || after > d - 1)))
        throw n.bad(concat("dim ", i, " of length ", d, " cannot be padded by ", before, " and ",
                           after, " in this mode"));
    auto part = [&](SliceSpec s) {
        std::vector<SliceSpec> specs;
        for (const Axis *a : x->axes) specs.push_back({0, a->length, 1, false});
        specs[i] = s;
        return build::slice(x, specs);
    };
    auto repeated = [&](int64_t index, int64_t count) {
        return build::expand_dims(part({index, index + 1, 1, true}),
                                  n.c.graph.axis(axis->name, count), static_cast<int32_t>(i));
    };
    std::vector<Op *> parts;
    if (before > 0) parts.push_back(edge ? repeated(0, before) : part({before, 0, -1, false}));
    parts.push_back(x);
    if (after > 0)
        parts.push_back(edge ? repeated(d - 1, after) : part({d - 2, d - 2 - after, -1, false}));
    return build::concat(parts, axis->name);
}

void pad(Node &n) {
    Op *x = n.in(0);
    const int64_t rank = x->rank();
    const std::string mode = n.attr_string("mode", "constant");
    if (mode != "constant" && mode != "edge" && mode != "reflect")
        throw n.unsupported_here("mode '" + mode + "'");
    std::vector<int64_t> pads;
    double value = 0;
    Op *value_op = nullptr;
    if (n.c.opset < 11) {
        pads = n.attr_ints("pads");
        value = n.attr_float("value", 0);
    } else {
        pads = n.known(1, "pads").ints(n.label + " pads");
        if (n.has_input(2)) {
            const Known *k = n.known_or_null(2);
            if (k && k->numel() != 1) throw n.bad("constant_value is not one value");
            if (k)
                value = k->doubles("value")[0];
            else
                value_op = n.in(2);
        }
        if (n.has_input(3)) throw n.unsupported_here("an axes input");
    }
    if (static_cast<int64_t>(pads.size()) != 2 * rank) throw n.bad("pads does not match the rank");
    std::vector<SliceSpec> crop;
    std::vector<std::pair<int64_t, int64_t>> grow;
    bool cropping = false;
    for (int64_t i = 0; i < rank; ++i) {
        const int64_t d = x->axes[i]->length, b = pads[i], e = pads[i + rank];
        // Checked before any arithmetic: -b and d + e overflow for pads near INT64_MIN.
        if (b < -d || e < -d)
            throw n.bad(
                concat("pads (", b, ", ", e, ") remove more than dim ", i, " of length ", d));
        const int64_t from = b < 0 ? -b : 0, to = e < 0 ? d + e : d;
        if (from > to) throw n.bad("negative pads remove more than the dim");
        cropping |= b < 0 || e < 0;
        crop.push_back({from, to, 1, false});
        grow.emplace_back(std::max<int64_t>(b, 0), std::max<int64_t>(e, 0));
    }
    Op *y = cropping ? build::slice(x, crop) : x;
    if (mode != "constant") {
        for (int64_t i = 0; i < rank; ++i)
            y = pad_by_copies(n, y, i, grow[i].first, grow[i].second, mode == "edge");
        n.out(0, y);
        return;
    }
    // Padding adds zeros: pad(y - c) + c has y inside and c outside.
    Op *c = value_op ? value_op : value != 0 ? scalar_like(n.c, x->dtype, value) : nullptr;
    if (c) y = binary(OpKind::Subtract, y, c);
    y = build::pad(y, grow);
    if (c) y = binary(OpKind::Add, y, c);
    n.out(0, y);
}

void tile(Node &n) {
    Op *x = n.in(0);
    std::vector<int64_t> repeats = n.known(1, "repeats").ints(n.label + " repeats");
    if (static_cast<int64_t>(repeats.size()) != x->rank()) throw n.bad("repeats vs rank");
    // (r0, d0, r1, d1, ...): x broadcast along a new axis before each of its own, then merged.
    Axes wide;
    Dims result;
    Graph &g = n.c.graph;
    for (int64_t i = 0; i < x->rank(); ++i) {
        if (repeats[i] < 0) throw n.bad("a negative repeat");
        wide.push_back(g.axis("r" + std::to_string(i), repeats[i]));
        wide.push_back(x->axes[i]);
        result.push_back(checked_mul(repeats[i], x->axes[i]->length, "tiled length"));
    }
    element_count(n, result);
    n.out(0, reshape_to(n.c, build::broadcast(x, wide), result));
}

// x's elements along `axis` picked by integer indices; ONNX counts negative indices from the end.
void gather(Node &n) {
    Op *x = n.in(0), *idx = n.in(1);
    if (!dtype_is_integer(idx->dtype)) throw n.bad("indices are not integers");
    const int64_t axis = normalize_axis(n, n.attr_int("axis", 0), x->rank());
    const int64_t dim = x->axes[axis]->length;
    Graph &g = n.c.graph;
    Op *i64 = idx->dtype == NG_INT64 ? idx : build::cast(idx, NG_INT64);
    Op *zero = scalar_like(n.c, NG_INT64, 0);
    i64 = build::select(binary(OpKind::Less, i64, zero),
                        binary(OpKind::Add, i64, scalar_like(n.c, NG_INT64, dim)), i64);
    // The index axes "i<j>" must not meet x's positional names "d<j>".
    Axes ia;
    for (int64_t j = 0; j < idx->rank(); ++j)
        ia.push_back(g.axis("i" + std::to_string(j), idx->axes[j]->length));
    n.out(0, build::gather(x, build::cast_axes(i64, ia), x->axes[axis]));
}

void one_hot(Node &n) {
    Op *idx = n.in(0);
    std::vector<double> depth_v = n.known(1, "depth").doubles("depth");
    if (depth_v.size() != 1) throw n.bad("depth is not one value");
    const double depth_d = depth_v[0];
    if (!(depth_d >= 0 && depth_d <= static_cast<double>(int64_t{1} << 40)))
        throw n.bad(concat("depth ", depth_d, " is out of range"));
    const int64_t depth = static_cast<int64_t>(depth_d);
    Op *values = n.in(2);
    if (values->rank() != 1 || values->axes[0]->length != 2) throw n.bad("values is not 2 values");
    const int64_t rank = idx->rank() + 1;
    const int64_t axis = normalize_axis(n, n.attr_int("axis", -1), rank);
    Op *i64 = idx->dtype == NG_INT64 ? idx : build::cast(idx, NG_INT64);
    i64 = build::select(binary(OpKind::Less, i64, scalar_like(n.c, NG_INT64, 0)),
                        binary(OpKind::Add, i64, scalar_like(n.c, NG_INT64, depth)), i64);
    Graph &g = n.c.graph;
    const Axis *k = g.axis("k", depth);
    Op *hot = build::one_hot(i64, k, values->dtype);  // (k, index axes)
    Op *off = build::slice(values, {{0, 1, 1, true}});
    Op *on = build::slice(values, {{1, 2, 1, true}});
    Op *y =
        binary(OpKind::Add, off, binary(OpKind::Multiply, binary(OpKind::Subtract, on, off), hot));
    Axes order(y->axes.begin() + 1, y->axes.end());
    order.insert(order.begin() + axis, y->axes[0]);
    n.out(0, build::axes_with_order(y, order));
}

void constant(Node &n) {
    if (n.proto.attribute_size() != 1) throw n.bad("a Constant needs exactly one attribute");
    const onnx::AttributeProto &a = n.proto.attribute(0);
    Known k;
    if (a.name() == "value" && a.has_t()) {
        k = decode_tensor(a.t(), n.label + " value");
    } else if (a.name() == "value_float") {
        k = Known{NG_FLOAT32, {}, std::vector<uint8_t>(sizeof(float))};
        float f = a.f();
        std::copy_n(reinterpret_cast<uint8_t *>(&f), sizeof f, k.data.data());
    } else if (a.name() == "value_floats") {
        k = Known{NG_FLOAT32, {a.floats_size()}, std::vector<uint8_t>(a.floats_size() * 4)};
        std::copy(a.floats().begin(), a.floats().end(), reinterpret_cast<float *>(k.data.data()));
    } else if (a.name() == "value_int") {
        k = ints_known({a.i()}, true);
    } else if (a.name() == "value_ints") {
        k = ints_known(Dims(a.ints().begin(), a.ints().end()));
    } else {
        throw n.unsupported_here("a Constant given by attribute '" + a.name() + "'");
    }
    n.out_known(0, std::move(k));
}

void constant_of_shape(Node &n) {
    std::vector<int64_t> shape = n.known(0, "shape").ints(n.label + " shape");
    if (shape.size() > static_cast<size_t>(kMaxRank)) throw n.bad("shape has too many dims");
    const int64_t count = element_count(n, shape);
    if (count > kMaxBuiltElements) throw n.bad(concat(count, " elements are too many"));
    Known value{NG_FLOAT32, {}, std::vector<uint8_t>(sizeof(float), 0)};
    if (const onnx::AttributeProto *a = n.attr("value", onnx::AttributeProto::TENSOR)) {
        value = decode_tensor(a->t(), n.label + " value");
        if (value.numel() != 1) throw n.bad("value is not one element");
    }
    const size_t size = dtype_size(value.dtype);
    Known k{value.dtype, Dims(shape.begin(), shape.end()), {}};
    k.data.resize(static_cast<size_t>(count) * size);
    for (int64_t i = 0; i < count; ++i)
        std::copy_n(value.data.data(), size, k.data.data() + i * size);
    n.out_known(0, std::move(k));
}

void shape(Node &n) {
    Op *x = n.in(0);
    const int64_t rank = x->rank();
    int64_t start = n.attr_int("start", 0), end = n.attr_int("end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    Dims d;
    for (int64_t i = start; i < end; ++i) d.push_back(x->axes[i]->length);
    n.out_known(0, ints_known(d));
}

void size(Node &n) {
    n.out_known(0, ints_known({element_count(n, dims_of(n.in(0)))}, true));
}

void range(Node &n) {
    const Known &s = n.known(0, "start"), &l = n.known(1, "limit"), &d = n.known(2, "delta");
    if (s.dtype != l.dtype || s.dtype != d.dtype) throw n.bad("start, limit and delta differ");
    if (s.numel() != 1 || l.numel() != 1 || d.numel() != 1)
        throw n.bad("start, limit and delta must be single values");
    const double start = s.doubles("start").at(0), limit = l.doubles("limit").at(0),
                 delta = d.doubles("delta").at(0);
    if (delta == 0) throw n.bad("delta is 0");
    const double count_d = std::max(std::ceil((limit - start) / delta), 0.0);
    if (!(count_d <= static_cast<double>(kMaxBuiltElements))) throw n.bad("too many elements");
    const int64_t count = static_cast<int64_t>(count_d);
    Known k{
        s.dtype, {count}, std::vector<uint8_t>(static_cast<size_t>(count) * dtype_size(s.dtype))};
    visit_dtype(s.dtype, [&](auto zero) {
        using T = decltype(zero);
        T *p = reinterpret_cast<T *>(k.data.data());
        const T t0 = *reinterpret_cast<const T *>(s.data.data());
        const T dt = *reinterpret_cast<const T *>(d.data.data());
        for (int64_t i = 0; i < count; ++i) {
            if constexpr (std::is_integral_v<T>) {
                // i * dt may pass the type's range on the way to a value inside it (start near
                // the minimum, limit near the maximum): wrap-around arithmetic gets it exactly.
                const uint64_t at = static_cast<uint64_t>(t0) +
                                    static_cast<uint64_t>(i) * static_cast<uint64_t>(dt);
                p[i] = static_cast<T>(at);
            } else {
                p[i] = static_cast<T>(t0 + static_cast<T>(i) * dt);
            }
        }
    });
    n.out_known(0, std::move(k));
}

}  // namespace

void register_shape_ops() {
    add_translation("Reshape", reshape);
    add_translation("Flatten", flatten);
    add_translation("Squeeze", squeeze);
    add_translation("Unsqueeze", unsqueeze);
    add_translation("Transpose", transpose);
    add_translation("Expand", expand);
    add_translation("Concat", concat_op);
    add_translation("Split", split);
    add_translation("Slice", slice);
    add_translation("Pad", pad);
    add_translation("Tile", tile);
    add_translation("Gather", gather);
    add_translation("OneHot", one_hot);
    add_translation("Constant", constant);
    add_translation("ConstantOfShape", constant_of_shape);
    add_translation("Shape", shape);
    add_translation("Size", size);
    add_translation("Range", range);
}

}  // namespace ng::onnx_io
