// ONNX's reductions, ArgMax/ArgMin, MatMul, Gemm, Softmax and LogSoftmax.
#include <algorithm>

#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"
#include "io/onnx_node.hpp"

namespace ng::onnx_io {
namespace {

using build::binary;
using build::unary;

// The reduced positions: from the axes input (ReduceSum from opset 13) or attribute, all when
// none are listed (unless noop_with_empty_axes).
std::vector<int64_t> reduced_positions(Node &n, int64_t rank, bool axes_input, bool &noop) {
    std::vector<int64_t> axes;
    if (axes_input) {
        if (n.has_input(1)) axes = n.known(1, "axes").ints(n.label + " axes");
    } else {
        axes = n.attr_ints("axes");
    }
    noop = axes.empty() && n.attr_int("noop_with_empty_axes", 0) != 0;
    if (axes.empty())
        for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
    for (int64_t &a : axes) a = normalize_axis(n, a, rank);
    std::sort(axes.begin(), axes.end());
    if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
        throw n.bad("an axis is listed twice");
    return axes;
}

enum class Pre { None, Square, Abs, Exp };
enum class Post { None, Sqrt, Log };

void reduce_with(Node &n, OpKind kind, Pre pre, Post post, bool axes_input) {
    Op *x = n.in(0);
    bool noop = false;
    std::vector<int64_t> at = reduced_positions(n, x->rank(), axes_input, noop);
    if (noop) {
        n.out(0, x);
        return;
    }
    Op *y = x;
    if (pre == Pre::Square) y = unary(OpKind::Square, y);
    if (pre == Pre::Abs) y = unary(OpKind::Absolute, y);
    if (pre == Pre::Exp) y = unary(OpKind::Exp, y);
    Axes axes;
    for (int64_t a : at) axes.push_back(x->axes[a]);
    // An empty list of axes would reduce everything; reducing a rank-0 value is the value.
    if (!axes.empty()) y = build::reduce(kind, y, axes);
    if (post == Post::Sqrt) y = unary(OpKind::Sqrt, y);
    if (post == Post::Log) y = unary(OpKind::Log, y);
    if (n.attr_int("keepdims", 1) != 0) {
        Dims kept = dims_of(x);
        for (int64_t a : at) kept[a] = 1;
        y = reshape_to(n.c, n.c.positional(y), kept);
    }
    n.out(0, y);
}

template <OpKind K, Pre P = Pre::None, Post Q = Post::None>
void reduce(Node &n) {
    // ReduceSum takes its axes as an input from opset 13, the others from opset 18.
    const bool axes_input =
        K == OpKind::Sum && P == Pre::None && Q == Post::None ? n.c.opset >= 13 : n.c.opset >= 18;
    reduce_with(n, K, P, Q, axes_input);
}

void arg_reduce(Node &n, OpKind kind) {
    Op *x = n.in(0);
    const int64_t axis = normalize_axis(n, n.attr_int("axis", 0), x->rank());
    const Axis *a = x->axes[axis];
    Op *y;
    if (n.attr_int("select_last_index", 0) != 0) {
        // The first extreme of the reversed axis, counted from the end.
        std::vector<SliceSpec> specs;
        for (const Axis *b : x->axes)
            specs.push_back(b == a ? SliceSpec{b->length - 1, -1, -1, false}
                                   : SliceSpec{0, b->length, 1, false});
        Op *reversed = build::slice(x, specs);
        Op *first = build::arg_reduce(kind, reversed, reversed->axes[axis]);
        y = binary(OpKind::Subtract, scalar_like(n.c, NG_INT64, a->length - 1), first);
    } else {
        y = build::arg_reduce(kind, x, a);
    }
    if (n.attr_int("keepdims", 1) != 0) {
        Dims kept = dims_of(x);
        kept[axis] = 1;
        y = reshape_to(n.c, n.c.positional(y), kept);
    }
    n.out(0, y);
}
void argmax(Node &n) {
    arg_reduce(n, OpKind::Argmax);
}
void argmin(Node &n) {
    arg_reduce(n, OpKind::Argmin);
}

// a (..., M, K) times b (..., K, N) with NumPy broadcasting of the leading dims; rank-1 operands
// as in numpy.matmul.
Op *matmul_of(Node &n, Op *a, Op *b) {
    Graph &g = n.c.graph;
    const bool a_vector = a->rank() == 1, b_vector = b->rank() == 1;
    if (a->rank() == 0 || b->rank() == 0) throw n.bad("MatMul of a rank-0 operand");
    Dims da = dims_of(a), db = dims_of(b);
    if (a_vector) da.insert(da.begin(), 1);
    if (b_vector) db.push_back(1);
    const int64_t k = da.back();
    if (db[db.size() - 2] != k)
        throw axes_error(n.label, ": inner dimensions ", k, " and ", db[db.size() - 2], " differ");
    Dims ba(da.begin(), da.end() - 2), bb(db.begin(), db.end() - 2);
    const size_t batch = std::max(ba.size(), bb.size());
    Dims out(batch, 1);
    for (size_t i = 0; i < batch; ++i) {
        int64_t x = i + ba.size() >= batch ? ba[i + ba.size() - batch] : 1;
        int64_t y = i + bb.size() >= batch ? bb[i + bb.size() - batch] : 1;
        if (x != y && x != 1 && y != 1)
            throw axes_error(n.label, ": batch dimensions ", x, " and ", y, " do not broadcast");
        out[i] = x == 1 ? y : x;
    }
    // Name the operands' axes: batch positions "d<i>" (dropping broadcast 1s), then m/k and k/n.
    auto named = [&](Op *x, const Dims &d, const Dims &own_batch, const char *row,
                     const char *col) {
        Op *y = reshape_to(n.c, x, d);
        std::vector<SliceSpec> specs;
        Axes kept;
        bool drop = false;
        const size_t shift = batch - own_batch.size();
        for (size_t j = 0; j < d.size(); ++j) {
            const bool is_batch = j < own_batch.size();
            if (is_batch && d[j] == 1 && out[shift + j] != 1) {
                specs.push_back({0, 1, 1, true});
                drop = true;
                continue;
            }
            specs.push_back({0, d[j], 1, false});
            std::string name =
                is_batch ? "d" + std::to_string(shift + j) : (j == d.size() - 2 ? row : col);
            kept.push_back(g.axis(name, d[j]));
        }
        if (drop) y = build::slice(y, specs);
        return build::cast_axes(y, kept);
    };
    Op *na = named(a, da, ba, "m", "k");
    Op *nb = named(b, db, bb, "k", "n");
    Op *product;
    if (batch == 0) {
        product = build::dot(na, nb);
    } else {
        product = build::reduce(OpKind::Sum, binary(OpKind::Multiply, na, nb), {g.axis("k", k)});
    }
    Axes order;
    for (size_t i = 0; i < batch; ++i) order.push_back(g.axis("d" + std::to_string(i), out[i]));
    order.push_back(g.axis("m", da[da.size() - 2]));
    order.push_back(g.axis("n", db.back()));
    product = build::axes_with_order(product, order);
    Dims result = out;
    if (!a_vector) result.push_back(da[da.size() - 2]);
    if (!b_vector) result.push_back(db.back());
    return reshape_to(n.c, n.c.positional(product), result);
}

void matmul(Node &n) {
    n.out(0, matmul_of(n, n.in(0), n.in(1)));
}

Op *transposed(Op *x) {
    return build::axes_with_order(x, {x->axes[1], x->axes[0]});
}

void gemm(Node &n) {
    Op *a = n.in(0), *b = n.in(1);
    if (a->rank() != 2 || b->rank() != 2) throw n.bad("Gemm needs matrices");
    if (n.attr_int("transA", 0)) a = n.c.positional(transposed(a));
    if (n.attr_int("transB", 0)) b = n.c.positional(transposed(b));
    Op *y = matmul_of(n, a, b);
    const double alpha = n.attr_float("alpha", 1.0f), beta = n.attr_float("beta", 1.0f);
    if (alpha != 1.0) y = binary(OpKind::Multiply, y, scalar_like(n.c, y->dtype, alpha));
    if (n.has_input(2)) {
        Op *c = n.in(2);
        if (beta != 1.0) c = binary(OpKind::Multiply, c, scalar_like(n.c, c->dtype, beta));
        y = elementwise(n, OpKind::Add, y, c);
    }
    n.out(0, y);
}

void softmax_like(Node &n, bool log) {
    Op *x = n.in(0);
    const int64_t rank = x->rank();
    Axes axes;
    if (n.c.opset >= 13) {
        axes.push_back(x->axes[normalize_axis(n, n.attr_int("axis", -1), rank)]);
    } else {  // the dims from `axis` on, as one
        const int64_t from = rank == 0 ? 0 : normalize_axis(n, n.attr_int("axis", 1), rank);
        axes.assign(x->axes.begin() + from, x->axes.end());
    }
    if (axes.empty()) {  // a rank-0 value normalised over nothing
        n.out(0, log ? binary(OpKind::Subtract, x, x) : binary(OpKind::Divide, x, x));
        return;
    }
    n.out(0, log ? build::log_softmax(x, axes) : build::softmax(x, axes));
}
void softmax(Node &n) {
    softmax_like(n, false);
}
void log_softmax(Node &n) {
    softmax_like(n, true);
}

}  // namespace

void register_reductions() {
    add_translation("ReduceSum", reduce<OpKind::Sum>);
    add_translation("ReduceMax", reduce<OpKind::Max>);
    add_translation("ReduceMin", reduce<OpKind::Min>);
    add_translation("ReduceMean", reduce<OpKind::Mean>);
    add_translation("ReduceProd", reduce<OpKind::Prod>);
    add_translation("ReduceSumSquare", reduce<OpKind::Sum, Pre::Square>);
    add_translation("ReduceL1", reduce<OpKind::Sum, Pre::Abs>);
    add_translation("ReduceL2", reduce<OpKind::Sum, Pre::Square, Post::Sqrt>);
    add_translation("ReduceLogSum", reduce<OpKind::Sum, Pre::None, Post::Log>);
    add_translation("ReduceLogSumExp", reduce<OpKind::Sum, Pre::Exp, Post::Log>);
    add_translation("ArgMax", argmax);
    add_translation("ArgMin", argmin);
    add_translation("MatMul", matmul);
    add_translation("Gemm", gemm);
    add_translation("Softmax", softmax);
    add_translation("LogSoftmax", log_softmax);
}

}  // namespace ng::onnx_io
