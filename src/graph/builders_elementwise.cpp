// Elementwise builders: operands aligned by axis name, one dtype, no silent promotion.
#include "core/error.hpp"
#include "graph/axes_rules.hpp"
#include "graph/builders.hpp"

namespace ng::build {

Op *unary(OpKind kind, Op *x) {
    const OpClass c = op_kind_class(kind);
    if (c != OpClass::Unary && c != OpClass::Identity)
        throw internal_error("unary() called with ", op_kind_name(kind));
    require_operand_dtypes(kind, x, "operand");
    return finish(make_op(kind, x->dtype, x->axes, {x}));
}

Op *cast(Op *x, DType to) {
    check_dtype(to, "dtype");
    auto op = make_op(OpKind::Cast, to, x->axes, {x});
    return finish(std::move(op));
}

Op *binary(OpKind kind, Op *a, Op *b) {
    if (!op_kind_is_elementwise_binary(kind))
        throw internal_error("binary() called with ", op_kind_name(kind));
    require_same_graph(a, b);
    require_same_dtype(a, b);
    require_operand_dtypes(kind, a, "the first operand");
    Axes axes = align_by_name(a->axes, b->axes);
    DType dt = op_kind_is_comparison(kind) ? NG_BOOL : a->dtype;
    return finish(make_op(kind, dt, std::move(axes), {a, b}));
}

Op *select(Op *condition, Op *a, Op *b) {
    require_same_graph(condition, a);
    require_same_graph(condition, b);
    if (condition->dtype != NG_BOOL)
        throw dtype_error("condition (", condition->name, ") is ", dtype_name(condition->dtype),
                          ", not bool");
    require_same_dtype(a, b);
    // The value's axes lead, so select(c, a, b) has the axes a + b would have.
    Axes axes = align_by_name(align_by_name(a->axes, b->axes), condition->axes);
    return finish(make_op(OpKind::Select, a->dtype, std::move(axes), {condition, a, b}));
}

}  // namespace ng::build
