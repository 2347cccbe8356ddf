// The axis and dtype rules every builder shares: how axes are named in messages, how two axis
// lists align by name, and the checks that operands are usable together.
#pragma once

#include <string>

#include "core/tensor.hpp"
#include "graph/graph.hpp"

namespace ng {

// "C(4)" and "(C(4), N(128))": the spellings every message uses.
std::string describe(const Axis *axis);
std::string describe(const Axes &axes);

// The lengths of `axes`, in order: the shape of a value with those axes.
Dims axes_shape(const Axes &axes);

// The position of the axis named like `axis` in `axes`, or -1.
int32_t find_by_name(const Axes &axes, const std::string &name);

// Throws NG_ERR_AXES ("axes C(4) and C(3) share a name but not a length") unless a and b have
// the same length (they are assumed to share the name).
void require_same_length(const Axis *a, const Axis *b);

// a's axes in order, then b's axes whose names a lacks, in order; equal names must have equal
// lengths (the elementwise alignment rule).
Axes align_by_name(const Axes &a, const Axes &b);

// Throws NG_ERR_AXES when a name appears twice in `axes`; `what` names the list in the message.
void require_distinct_names(const Axes &axes, const char *what);

// For each axis of `wanted`, its position in `have` (matched by name, lengths checked). Throws
// NG_ERR_AXES naming the missing axis and `have` when one is absent.
std::vector<int32_t> positions_of(const Axes &wanted, const Axes &have, const char *have_what);

// Throws NG_ERR_INVALID_ARGUMENT unless `op` belongs to `g`; `what` names the argument.
void require_graph(const Graph &g, const Op *op, const char *what);
void require_graph(const Graph &g, const Axis *axis, const char *what);
// Throws NG_ERR_INVALID_ARGUMENT unless `other` belongs to the graph of `first`.
void require_same_graph(const Op *first, const Op *other);

// NG_ERR_DTYPE checks; `what` names the operand in the message.
void require_same_dtype(const Op *a, const Op *b);
void require_float(const Op *x, const char *what);
void require_numeric(const Op *x, const char *what);  // any dtype but bool
void require_integer(const Op *x, const char *what);  // int32, int64, uint8
// The check op_kinds.def states for `kind`'s operands.
void require_operand_dtypes(OpKind kind, const Op *x, const char *what);

// A new op of x's graph with the given kind, dtype, axes and args (as many as the kind's arity);
// `finish` adds it.
std::unique_ptr<Op> make_op(OpKind kind, DType dt, Axes axes, std::vector<Op *> args);
Op *finish(std::unique_ptr<Op> op);

}  // namespace ng
