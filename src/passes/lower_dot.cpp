// Lowering of dot (which contracts every axis its operands share) to one GEMM. Each operand
// is viewed as a matrix by merging its axis groups into single strides; a transposed operand
// becomes a BLAS transpose flag; an operand whose strides cannot be expressed that way (or a
// broadcast one) is first packed into a row-major copy.
#include <algorithm>
#include <utility>

#include "core/checked_math.hpp"
#include "passes/lowering_context.hpp"

namespace ng {

namespace {

// Merges the dims `dims` (in that order, outermost first) of `l` into one (length, stride).
bool merge_group(const Layout &l, const std::vector<int32_t> &dims, int64_t &length,
                 int64_t &stride) {
    length = 1;
    stride = 1;
    bool have = false;
    for (size_t i = dims.size(); i-- > 0;) {
        int64_t len = l.shape[dims[i]], st = l.strides[dims[i]];
        if (len == 1) continue;
        if (!have) {
            stride = st;
            have = true;
        } else if (st != stride * length) {
            return false;
        }
        length *= len;
    }
    return true;
}

struct Matrix {
    int32_t buffer;
    int64_t offset;
    bool transpose;
    int64_t ld;
};

// A rows x cols matrix with strides (rs, cs) as a BLAS operand, if it can be one.
bool as_blas(int64_t rows, int64_t cols, int64_t rs, int64_t cs, bool &transpose, int64_t &ld) {
    if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= std::max<int64_t>(1, cols))) {
        transpose = false;
        ld = rows <= 1 ? std::max<int64_t>(1, cols) : rs;
        return true;
    }
    if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= std::max<int64_t>(1, rows))) {
        transpose = true;
        ld = cols <= 1 ? std::max<int64_t>(1, rows) : cs;
        return true;
    }
    return false;
}

std::vector<int32_t> positions(const Axes &of, const Axes &in) {
    std::vector<int32_t> p;
    for (const Axis *a : of) p.push_back(find_axis(in, a));
    return p;
}

Matrix matrix_operand(Lowering &L, int32_t id, const Axes &row_axes, const Axes &col_axes) {
    const Node &n = L.graph.nodes[id];
    Operand whole = L.read(id, n.axes);  // also checks the value is current
    Layout layout = L.values[id].layout;
    int64_t rows, cols, rs, cs;
    Matrix m{whole.buffer, whole.offset, false, 0};
    if (merge_group(layout, positions(row_axes, n.axes), rows, rs) &&
        merge_group(layout, positions(col_axes, n.axes), cols, cs) &&
        as_blas(rows, cols, rs, cs, m.transpose, m.ld))
        return m;
    Axes order = row_axes;
    order.insert(order.end(), col_axes.begin(), col_axes.end());
    Value packed = L.pack(id, order);
    int64_t c = 1;
    for (const Axis *a : col_axes) c *= a->length;
    return Matrix{packed.buffer, 0, false, std::max<int64_t>(1, c)};
}

// The iteration space in which node `consumer` reads its args: its own axes for an elementwise
// op, its operand's for a reduction; a fused op reads inside the program of the op it is fused
// into. Null when the consumer reads in no particular order (a GEMM, a view, ...).
const Axes *read_space(const Lowering &L, int32_t consumer) {
    while (L.fused[consumer]) consumer = L.fused_into[consumer];
    const Node &c = L.graph.nodes[consumer];
    switch (op_kind_class(c.kind)) {
    case OpClass::Unary:
    case OpClass::Cast:
    case OpClass::Binary:
    case OpClass::Comparison:
    case OpClass::Select: return &c.axes;
    case OpClass::Reduction: return &L.graph.nodes[c.args.at(0)].axes;
    case OpClass::Assignment: return &L.graph.nodes[c.args.at(0)].axes;
    default: return nullptr;
    }
}

// Views that keep their operand's axis names: a read through them walks the product's axes.
bool keeps_axis_names(OpKind k) {
    switch (k) {
    case OpKind::AxesWithOrder:
    case OpKind::Broadcast:
    case OpKind::Slice:
    case OpKind::StopGradient:
    case OpKind::ValueOf: return true;
    default: return false;
    }
}

// Whether dot `id` should store its product transposed (b's others outermost): when every
// consumer that walks it in some order (directly or through views) walks a's others innermost.
// The weight gradient of a layer (over [out, in]) read by an update over the weight's [in, out]
// is then read in memory order instead of gathered with a stride of a row.
bool store_transposed(const Lowering &L, int32_t id, const Axes &a_others, const Axes &b_others) {
    if (a_others.empty() || b_others.empty()) return false;
    bool want = false;
    std::vector<int32_t> readers{id};  // the product and the views of it
    for (size_t r = 0; r < readers.size(); ++r) {
        const int32_t v = readers[r];
        if (L.is_result[v]) return false;  // a result is handed out row-major
        for (int32_t u = L.user_start[v]; u < L.user_start[v + 1]; ++u) {
            const int32_t c = L.users[u];
            const Node &consumer = L.graph.nodes[c];
            if (keeps_axis_names(consumer.kind)) {
                readers.push_back(c);
                continue;
            }
            const Axes *space = read_space(L, c);
            if (!space) continue;
            // The innermost axis of the walk that is one of the product's decides.
            for (size_t i = space->size(); i-- > 0;) {
                const Axis *x = (*space)[i];
                if (find_axis(b_others, x) >= 0) return false;
                if (find_axis(a_others, x) >= 0) {
                    want = true;
                    break;
                }
            }
        }
    }
    return want;
}

}  // namespace

void lower_dot(Lowering &L, int32_t id) {
    const Node &n = L.graph.nodes[id];
    const int32_t a = n.args.at(0), b = n.args.at(1);
    const Axes &aa = L.graph.nodes[a].axes, &ba = L.graph.nodes[b].axes;
    Axes shared, a_others, b_others;
    for (const Axis *x : aa) (find_axis(ba, x) >= 0 ? shared : a_others).push_back(x);
    for (const Axis *x : ba)
        if (find_axis(aa, x) < 0) b_others.push_back(x);

    Axes expected = a_others;
    expected.insert(expected.end(), b_others.begin(), b_others.end());
    if (expected.size() != n.axes.size())
        throw internal_error("dot result axes do not match its operands");
    for (size_t i = 0; i < expected.size(); ++i)
        if (expected[i]->name != n.axes[i]->name)
            throw internal_error("dot result axes are not a's others then b's");

    Step s;
    s.kind = Step::Kind::Gemm;
    s.dtype = n.dtype;
    auto product = [](const Axes &axes) {
        int64_t p = 1;
        for (const Axis *x : axes) p = checked_mul(p, x->length, "dot");
        return p;
    };
    s.m = product(a_others);
    s.k = product(shared);
    s.n = product(b_others);
    Matrix A = matrix_operand(L, a, a_others, shared);
    Matrix B = matrix_operand(L, b, shared, b_others);
    Value c = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    if (s.m > 1 && s.n > 1 && store_transposed(L, id, a_others, b_others)) {
        // C^T = op(B)^T op(A)^T: the same GEMM with the operands swapped and their flags flipped.
        std::swap(A, B);
        std::swap(s.m, s.n);
        A.transpose = !A.transpose;
        B.transpose = !B.transpose;
        const int64_t a_rows = s.n;  // the product's rows as the graph sees it (m before the swap)
        for (size_t i = 0; i < a_others.size(); ++i) c.layout.strides[i] /= s.m;
        for (size_t i = a_others.size(); i < c.layout.strides.size(); ++i)
            c.layout.strides[i] *= a_rows;
    }
    s.transpose_a = A.transpose;
    s.lda = A.ld;
    s.transpose_b = B.transpose;
    s.ldb = B.ld;
    s.ldc = std::max<int64_t>(1, s.n);
    s.inputs.push_back(Operand{A.buffer, A.offset, {}});
    s.inputs.push_back(Operand{B.buffer, B.offset, {}});
    L.values[id] = c;
    s.output = Operand{c.buffer, 0, {}};
    L.add_step(std::move(s));
}

}  // namespace ng
