// Lowering of dot (seed 001 axes semantics: contract every shared axis) to one GEMM. Each operand
// is viewed as a matrix by merging its axis groups into single strides; a transposed operand
// becomes a BLAS transpose flag; an operand whose strides cannot be expressed that way (or a
// broadcast one) is first packed into a row-major copy.
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
    s.transpose_a = A.transpose;
    s.lda = A.ld;
    s.transpose_b = B.transpose;
    s.ldb = B.ld;
    s.ldc = std::max<int64_t>(1, s.n);
    s.inputs.push_back(Operand{A.buffer, A.offset, {}});
    s.inputs.push_back(Operand{B.buffer, B.offset, {}});
    L.values[id] = L.row_major(L.new_arena_buffer(n.dtype, n.numel()), n.shape());
    s.output = Operand{L.values[id].buffer, 0, {}};
    L.add_step(std::move(s));
}

}  // namespace ng
