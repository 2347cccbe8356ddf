// Adjoints of reductions: the adjoint (over the kept axes) is broadcast back over the reduced
// axes, weighted by each element's share of the result.
#include <algorithm>

#include "autodiff/op_helpers.hpp"
#include "autodiff/rule_context.hpp"

namespace ng::autodiff {
namespace {

Op *mul(Op *a, Op *b) {
    return build::binary(OpKind::Multiply, a, b);
}
Op *div(Op *a, Op *b) {
    return build::binary(OpKind::Divide, a, b);
}
Op *equal(Op *a, Op *b) {
    return build::binary(OpKind::Equal, a, b);
}

// The axes of x that the reduction op removed.
Axes reduced_axes(const Op *op, const Op *x) {
    Axes reduced;
    for (const Axis *axis : x->axes)
        if (std::find(op->axes.begin(), op->axes.end(), axis) == op->axes.end())
            reduced.push_back(axis);
    return reduced;
}

int64_t element_count(const Axes &axes) {
    int64_t n = 1;
    for (const Axis *axis : axes) n *= axis->length;
    return n;
}

// Max and min: the adjoint is shared equally by every element equal to the extremum (a valid
// subgradient whose parts add up to the adjoint, like a sum over the tied elements).
Op *extremum_share(Op *x, Op *y, Op *d, const Axes &reduced) {
    Op *is_extremum = mask_of(equal(x, y), x->dtype);
    Op *ties = build::reduce(OpKind::Sum, is_extremum, reduced);
    return mul(is_extremum, div(d, ties));
}

// Prod: d(prod x)/dx_i is the product of the other elements. y / x_i where x_i != 0; where x_i is
// the only zero of its group, the product of the group's non-zero elements; else 0.
Op *product_share(Op *x, Op *y, Op *d, const Axes &reduced) {
    Op *zero = constant_like(x, 0.0);
    Op *is_zero = equal(x, zero);
    Op *nonzero_product =
        build::reduce(OpKind::Prod, build::select(is_zero, constant_like(x, 1.0), x), reduced);
    Op *zero_count = build::reduce(OpKind::Sum, mask_of(is_zero, x->dtype), reduced);
    Op *single_zero = equal(zero_count, constant_like(x, 1.0));
    Op *at_zero = build::select(single_zero, nonzero_product, zero);
    return mul(d, build::select(is_zero, at_zero, div(y, x)));
}

}  // namespace

void reduction_adjoint(RuleContext &c) {
    Op *x = c.arg(0), *y = c.op, *d = c.adjoint;
    Axes reduced = reduced_axes(y, x);
    switch (y->kind) {
    case OpKind::Sum: return c.add(0, build::broadcast(d, x->axes));
    case OpKind::Mean:
        return c.add(
            0, build::broadcast(
                   div(d, constant_like(d, static_cast<double>(element_count(reduced)))), x->axes));
    case OpKind::Max:
    case OpKind::Min: return c.add(0, extremum_share(x, y, d, reduced));
    case OpKind::Prod: return c.add(0, product_share(x, y, d, reduced));
    default: return;
    }
}

}  // namespace ng::autodiff
