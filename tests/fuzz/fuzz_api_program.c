/* Programs of API calls decoded from the input: a graph is built (axes, tensors, elementwise
 * ops, reductions, views, dot, assignments, sequences, derivatives), computations are compiled
 * and run with inputs of the parameters' shapes (or wrong ones), persistent values are set and
 * read, and graphs, transformers and computations are destroyed in the order the input says
 * (computations keep running after their graph and transformer handle are gone).
 * Every call must return a status and never crash, overrun or leak. */
#include <stdlib.h>

#include "fuzz_input.h"
#include "nanograph/nanograph.h"

enum { kAxes = 8, kOps = 32, kComps = 4, kMaxParams = 4, kMaxResults = 3, kMaxRank = 4 };

typedef struct {
    ng_computation_t *c;
    int32_t nparams, nresults;
    ng_dtype_t dtype[kMaxParams];
    int32_t rank[kMaxParams];
    int64_t shape[kMaxParams][kMaxRank];
} computation;

typedef struct {
    ng_graph_t *g;
    ng_transformer_t *t;
    const ng_axis_t *axes[kAxes];
    ng_op_t *ops[kOps];
    int32_t nops;
    computation comps[kComps];
    double data[512];
} state;

typedef ng_op_t *(*unary_fn)(ng_graph_t *, ng_op_t *);
typedef ng_op_t *(*binary_fn)(ng_graph_t *, ng_op_t *, ng_op_t *);
typedef ng_op_t *(*reduce_fn)(ng_graph_t *, ng_op_t *, const ng_axis_t *const *, int32_t);

static const unary_fn kUnary[] = {ng_negative, ng_absolute,  ng_sign,         ng_exp,
                                  ng_log,      ng_sqrt,      ng_square,       ng_reciprocal,
                                  ng_sigmoid,  ng_relu,      ng_sin,          ng_cos,
                                  ng_tanh,     ng_unflatten, ng_stop_gradient};
static const binary_fn kBinary[] = {ng_add,     ng_subtract, ng_multiply, ng_divide, ng_power,
                                    ng_maximum, ng_minimum,  ng_equal,    ng_less,   ng_greater,
                                    ng_dot,     ng_assign,   ng_deriv};
static const reduce_fn kReduce[] = {ng_sum,      ng_max,        ng_min,       ng_mean,
                                    ng_prod,     ng_variance,   ng_softmax,   ng_log_softmax,
                                    ng_l2_norm,  ng_squared_l2, ng_broadcast, ng_axes_with_order,
                                    ng_cast_axes};
static const ng_dtype_t kDtypes[] = {NG_FLOAT32, NG_FLOAT64, NG_INT32, NG_FLOAT32,
                                     NG_INT64,   NG_UINT8,   NG_BOOL,  0};

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static ng_op_t *pick(fuzz_input *in, state *s) {
    return s->nops ? s->ops[fuzz_below(in, (uint32_t)s->nops)] : NULL;
}

static void keep(state *s, ng_op_t *op) {
    if (!op) return;
    if (s->nops < kOps)
        s->ops[s->nops++] = op;
    else
        s->ops[kOps - 1] = op;
}

static int32_t pick_axes(fuzz_input *in, state *s, const ng_axis_t **out) {
    int32_t n = (int32_t)fuzz_below(in, kMaxRank);
    for (int32_t i = 0; i < n; ++i) out[i] = s->axes[fuzz_below(in, kAxes)];
    return n;
}

static void new_axis(fuzz_input *in, state *s) {
    static const char *const names[] = {"N", "C", "H", "W", "K", "N"};
    /* Lengths up to 16 (or negative, refused): under AddressSanitizer an allocation that fails
     * is reported, not thrown, so values must stay small enough to allocate. Overflowing sizes
     * are fuzz_tensor_calls's business. */
    int64_t length = fuzz_dim(in);
    if (length > 16) length %= 17;
    const ng_axis_t *a = ng_axis(s->g, names[fuzz_below(in, COUNT(names))], length);
    if (a) s->axes[fuzz_below(in, kAxes)] = a;
}

static void new_tensor(fuzz_input *in, state *s, uint8_t kind) {
    const ng_axis_t *axes[kMaxRank];
    ng_dtype_t dt = kDtypes[fuzz_below(in, COUNT(kDtypes))];
    int32_t rank = pick_axes(in, s, axes);
    ng_op_t *init = fuzz_u8(in) & 1 ? pick(in, s) : NULL;
    switch (kind % 5) {
    case 0: keep(s, ng_placeholder(s->g, dt, axes, rank, init)); break;
    case 1: keep(s, ng_variable(s->g, dt, axes, rank, init)); break;
    case 2: keep(s, ng_persistent_tensor(s->g, dt, axes, rank, init)); break;
    case 3: keep(s, ng_scalar_of(s->g, dt, (double)(int8_t)fuzz_u8(in))); break;
    default: {
        int64_t numel = 1;
        for (int32_t i = 0; i < rank; ++i) {
            int64_t n = axes[i] ? ng_axis_length(axes[i]) : 0;
            numel = n > 0 && numel * n <= 512 ? numel * n : (n == 0 ? 0 : 1 << 20);
        }
        /* The data must cover numel * size bytes: only small constants get it. */
        keep(s, ng_constant(s->g, dt, axes, rank, numel <= 512 ? s->data : NULL));
    }
    }
}

/* Records the parameters' shapes while the graph is alive: runs may come after it is gone. */
static void new_computation(fuzz_input *in, state *s) {
    ng_op_t *results[kMaxResults], *params[kMaxParams];
    int32_t nresults = (int32_t)fuzz_below(in, kMaxResults) + 1, nparams = 0;
    for (int32_t i = 0; i < nresults; ++i) results[i] = pick(in, s);
    int32_t wanted = (int32_t)fuzz_below(in, kMaxParams + 1);
    for (int32_t i = 0; i < s->nops && nparams < wanted; ++i)
        if ((ng_op_flags(s->ops[i]) & NG_FLAG_INPUT) && (fuzz_u8(in) & 1))
            params[nparams++] = s->ops[i];
    computation *c = &s->comps[fuzz_below(in, kComps)];
    ng_computation_destroy(c->c);
    c->c = ng_computation_create(s->t, results, nresults, params, nparams);
    c->nparams = nparams;
    c->nresults = nresults;
    for (int32_t i = 0; i < nparams; ++i) {
        c->dtype[i] = ng_op_dtype(params[i]);
        c->rank[i] = ng_op_rank(params[i]);
        if (c->rank[i] < 0 || c->rank[i] > kMaxRank) c->rank[i] = 0;
        for (int32_t d = 0; d < c->rank[i]; ++d)
            c->shape[i][d] = ng_axis_length(ng_op_axis(params[i], d));
    }
}

static void run(fuzz_input *in, state *s) {
    computation *c = &s->comps[fuzz_below(in, kComps)];
    if (!c->c) return;
    ng_tensor_t *inputs[kMaxParams] = {0}, *outputs[kMaxResults] = {0};
    for (int32_t i = 0; i < c->nparams; ++i) {
        int64_t shape[kMaxRank];
        for (int32_t d = 0; d < c->rank[i]; ++d) shape[d] = c->shape[i][d];
        if (c->rank[i] && fuzz_u8(in) == 0) shape[0] += 1; /* now and then a wrong shape */
        inputs[i] = ng_tensor_create(c->dtype[i], shape, c->rank[i]);
    }
    ng_computation_run(c->c, inputs, c->nparams, outputs, c->nresults);
    for (int32_t i = 0; i < c->nparams; ++i) ng_tensor_release(inputs[i]);
    for (int32_t i = 0; i < c->nresults; ++i) ng_tensor_release(outputs[i]);
}

static void values(fuzz_input *in, state *s) {
    ng_op_t *op = pick(in, s);
    ng_tensor_t *v = NULL;
    if (ng_transformer_get_value(s->t, op, &v) == NG_OK && (fuzz_u8(in) & 1))
        ng_transformer_set_value(s->t, op, v);
    ng_tensor_release(v);
}

/* A new graph: the ops and axes of the old one are gone, its computations stay. */
static void new_graph(state *s) {
    ng_graph_destroy(s->g);
    s->g = ng_graph_create();
    s->nops = 0;
    for (int i = 0; i < kAxes; ++i) s->axes[i] = ng_axis(s->g, i % 2 ? "N" : "C", 2 + i % 2);
}

/* A new transformer: the old one lives on in its computations. */
static void new_transformer(state *s) {
    ng_transformer_destroy(s->t);
    s->t = ng_transformer_create(NULL);
    ng_transformer_set_num_threads(s->t, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = fuzz_begin(data, size);
    state *s = calloc(1, sizeof *s);
    if (!s) return 0;
    for (int i = 0; i < 512; ++i) s->data[i] = (double)(i % 7) - 3;
    new_graph(s);
    new_transformer(s);
    int steps = 0;
    while (!fuzz_done(&in) && steps++ < 48) {
        uint8_t op = fuzz_u8(&in);
        switch (op % 14) {
        case 0: new_axis(&in, s); break;
        case 1: new_tensor(&in, s, fuzz_u8(&in)); break;
        case 2: {
            unary_fn f = kUnary[fuzz_below(&in, COUNT(kUnary))];
            keep(s, f(s->g, pick(&in, s)));
            break;
        }
        case 3: {
            ng_op_t *a = pick(&in, s), *b = pick(&in, s);
            keep(s, kBinary[fuzz_below(&in, COUNT(kBinary))](s->g, a, b));
            break;
        }
        case 4: {
            const ng_axis_t *axes[kMaxRank];
            ng_op_t *x = pick(&in, s);
            int32_t n = pick_axes(&in, s, axes);
            keep(s, kReduce[fuzz_below(&in, COUNT(kReduce))](s->g, x, axes, n));
            break;
        }
        case 5: {
            ng_op_t *ops[3] = {pick(&in, s), pick(&in, s), pick(&in, s)};
            keep(s, ng_sequential(s->g, ops, (int32_t)fuzz_below(&in, 4)));
            break;
        }
        case 6: {
            ng_op_t *x = pick(&in, s);
            ng_slice_t spec[kMaxRank];
            int32_t n = (int32_t)fuzz_below(&in, kMaxRank + 1);
            for (int32_t i = 0; i < n; ++i) {
                spec[i].start = fuzz_dim(&in);
                spec[i].stop = fuzz_dim(&in);
                spec[i].step = fuzz_dim(&in);
                spec[i].index_only = fuzz_u8(&in) & 1;
            }
            keep(s, ng_slice(s->g, x, spec, n));
            break;
        }
        case 7: new_computation(&in, s); break;
        case 8: run(&in, s); break;
        case 9: values(&in, s); break;
        case 10: {
            computation *c = &s->comps[fuzz_below(&in, kComps)];
            ng_computation_destroy(c->c);
            c->c = NULL;
            break;
        }
        case 12: new_graph(s); break;
        case 13: new_transformer(s); break;
        default: {
            ng_op_t *op = pick(&in, s), *dep = pick(&in, s);
            if (fuzz_u8(&in) & 1)
                ng_op_add_control_dep(op, dep);
            else
                keep(s, ng_cast(s->g, op, kDtypes[fuzz_below(&in, COUNT(kDtypes))]));
            break;
        }
        }
    }
    for (int i = 0; i < kComps; ++i) ng_computation_destroy(s->comps[i].c);
    ng_transformer_destroy(s->t);
    ng_graph_destroy(s->g);
    free(s);
    return 0;
}
