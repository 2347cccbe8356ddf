/* Checkpoints: ng_transformer_save and ng_transformer_load. Round trips of variables and Adam's
 * state into a fresh transformer of a rebuilt graph (the next step then matches the original's
 * exactly); the file's header checked against the format (magic, version, a CRC-32 computed here
 * bit by bit, the payload length); mismatched names, dtypes, axes and missing values refused with
 * every value left as it was; damaged files (empty, truncated, a flipped byte, wrong magic, a
 * newer version, junk after the payload, hand-written payloads with a valid CRC); files that
 * cannot be read or written; duplicate names; NULL arguments. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_tensor_util.h"

#include "expect_error.h"

/* ---- files ----------------------------------------------------------------------------------- */

static char dir[64];

static int make_dir(void **state) {
    (void)state;
    strcpy(dir, "/tmp/ng_test_checkpoint_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

/* Removes every file of the directory, then the directory. */
static int remove_dir(void **state) {
    (void)state;
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (remove(path) != 0) {
            closedir(d);
            return -1;
        }
    }
    closedir(d);
    return rmdir(dir);
}

static const char *path_of(const char *name) {
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static int count_files(void) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static uint8_t *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *bytes = malloc((size_t)n + 1);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

static void write_all(const char *path, const uint8_t *bytes, size_t size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* CRC-32 of ISO 3309 (reflected polynomial 0xEDB88320), bit by bit. */
static uint32_t crc32_bitwise(const uint8_t *p, size_t n) {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint64_t le(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

/* A checkpoint file around a hand-written payload, with a correct header. */
static void write_checkpoint(const char *path, const uint8_t *payload, size_t n) {
    uint8_t file[256] = {0x89, 'N', 'G', 'C', 'K', 'P', 'T', '\n', 1, 0, 0, 0};
    assert_true(n + 24 <= sizeof file);
    uint32_t crc = crc32_bitwise(payload, n);
    for (int i = 0; i < 4; ++i) file[12 + i] = (uint8_t)(crc >> (8 * i));
    for (int i = 0; i < 8; ++i) file[16 + i] = (uint8_t)((uint64_t)n >> (8 * i));
    memcpy(file + 24, payload, n);
    write_all(path, file, n + 24);
}

/* ---- the model ------------------------------------------------------------------------------- */

/* W (F=3, H=2) from constant data, b (H) zeros, lr a persistent scalar, and Adam's step over
 * cost = sum((x . W + b)^2): variables, optimizer moments and Adam's float64 step count. */
typedef struct model {
    ng_graph_t *g;
    ng_op_t *W, *b, *lr, *x, *step, *y;
} model_t;

typedef struct variant {
    const char *w_name;  /* "W" */
    ng_dtype_t lr_dtype; /* NG_FLOAT32 */
    const char *h_name;  /* "H" */
    int64_t h_length;    /* 2 */
    int extra_variable;  /* a variable "extra" that the cost also uses */
} variant_t;

static const variant_t kSame = {"W", NG_FLOAT32, "H", 2, 0};

static model_t build(variant_t v) {
    model_t m;
    ng_graph_t *g = m.g = ng_graph_create();
    const ng_axis_t *F = ng_axis(g, "F", 3), *H = ng_axis(g, v.h_name, v.h_length);
    const ng_axis_t *FH[2] = {F, H};
    float w0[3 * 4];
    for (int i = 0; i < 12; ++i) w0[i] = 0.1f * (float)(i + 1) - 0.35f;
    m.W = ng_variable(g, NG_FLOAT32, FH, 2, ng_constant(g, NG_FLOAT32, FH, 2, w0));
    m.b = ng_variable(g, NG_FLOAT32, &H, 1, NULL);
    /* (ng_scalar is float32: a float64 rate starts at 0, which the mismatch tests do not mind) */
    m.lr = ng_persistent_tensor(g, v.lr_dtype, NULL, 0,
                                v.lr_dtype == NG_FLOAT32 ? ng_scalar(g, 0.05) : NULL);
    m.x = ng_placeholder(g, NG_FLOAT32, &F, 1, NULL);
    ng_op_t *y = ng_add(g, ng_dot(g, m.x, m.W), m.b);
    if (v.extra_variable) {
        ng_op_t *extra = ng_variable(g, NG_FLOAT32, &H, 1, ng_scalar(g, 1));
        assert_int_equal(ng_op_set_name(extra, "extra"), NG_OK);
        y = ng_add(g, y, extra);
    }
    m.y = y;
    ng_op_t *cost = ng_sum(g, ng_square(g, y), NULL, 0);
    assert_int_equal(ng_op_set_name(m.W, v.w_name), NG_OK);
    assert_int_equal(ng_op_set_name(m.b, "b"), NG_OK);
    assert_int_equal(ng_op_set_name(m.lr, "lr"), NG_OK);
    m.step = ng_adam(g, cost, m.lr, NULL);
    assert_int_equal(ng_graph_status(g), NG_OK);
    return m;
}

/* The names of every tensor the training step's checkpoint holds. */
static const char *const kSaved[] = {"W",        "b",        "lr",      "W/adam_m",
                                     "W/adam_v", "b/adam_m", "b/adam_v"};
enum { kNumSaved = sizeof kSaved / sizeof kSaved[0] };

static ng_computation_t *step_of(ng_transformer_t *t, const model_t *m) {
    ng_computation_t *c = ng_computation_create(t, &m->step, 1, &m->x, 1);
    if (!c) fail_msg("ng_computation_create: %s", ng_last_error());
    return c;
}

/* One training step on input (k, -k/2, 1); returns the loss. */
static float run_step(ng_computation_t *c, float k) {
    const float xv[3] = {k, -k / 2, 1};
    const int64_t three = 3;
    ng_tensor_t *x = ng_tensor_from_data(NG_FLOAT32, &three, 1, xv), *loss = NULL;
    assert_int_equal(ng_computation_run(c, &x, 1, &loss, 1), NG_OK);
    float out = *(const float *)ng_tensor_data(loss);
    ng_tensor_release(x);
    ng_tensor_release(loss);
    return out;
}

/* A tensor's elements as doubles (at most 16). */
typedef struct values {
    ng_dtype_t dtype;
    int64_t n;
    double v[16];
} values_t;

static values_t value_of(ng_transformer_t *t, ng_op_t *op) {
    ng_tensor_t *value = NULL;
    if (ng_transformer_get_value(t, op, &value) != NG_OK)
        fail_msg("ng_transformer_get_value(%s): %s", ng_op_name(op), ng_last_error());
    values_t out = {ng_tensor_dtype(value), ng_tensor_numel(value), {0}};
    assert_true(out.n <= 16);
    for (int64_t i = 0; i < out.n; ++i) {
        switch (out.dtype) {
        case NG_FLOAT32: out.v[i] = ((const float *)ng_tensor_data(value))[i]; break;
        case NG_FLOAT64: out.v[i] = ((const double *)ng_tensor_data(value))[i]; break;
        default: fail_msg("unexpected dtype");
        }
    }
    ng_tensor_release(value);
    return out;
}

static void expect_same_values(values_t a, values_t b, const char *name) {
    assert_int_equal(a.dtype, b.dtype);
    assert_int_equal(a.n, b.n);
    for (int64_t i = 0; i < a.n; ++i)
        if (a.v[i] != b.v[i]) fail_msg("%s[%lld]: %g != %g", name, (long long)i, a.v[i], b.v[i]);
}

/* Adam's step count, an unnamed persistent tensor: the only float64 scalar the step owns. */
static ng_op_t *adam_count(const model_t *m) {
    ng_op_t *t = ng_graph_find(m->g, "PersistentTensor");
    assert_non_null(t);
    assert_int_equal(ng_op_dtype(t), NG_FLOAT64);
    assert_int_equal(ng_op_rank(t), 0);
    return t;
}

/* Every saved value of a transformer, in kSaved order, then Adam's count. */
typedef struct snapshot {
    values_t v[kNumSaved + 1];
} snapshot_t;

static snapshot_t snapshot(ng_transformer_t *t, const model_t *m) {
    snapshot_t s;
    for (int i = 0; i < kNumSaved; ++i) {
        ng_op_t *op = ng_graph_find(m->g, kSaved[i]);
        if (!op) fail_msg("no op named %s", kSaved[i]);
        s.v[i] = value_of(t, op);
    }
    s.v[kNumSaved] = value_of(t, adam_count(m));
    return s;
}

static void expect_same_snapshot(snapshot_t a, snapshot_t b) {
    for (int i = 0; i < kNumSaved; ++i) expect_same_values(a.v[i], b.v[i], kSaved[i]);
    expect_same_values(a.v[kNumSaved], b.v[kNumSaved], "Adam's step count");
}

/* Trains the reference model 3 steps and saves it to `name`; the caller frees m and t. */
static ng_transformer_t *trained(model_t *m, const char *name) {
    *m = build(kSame);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = step_of(t, m);
    for (int i = 0; i < 3; ++i) run_step(c, 1.0f + (float)i);
    assert_int_equal(ng_transformer_save(t, path_of(name)), NG_OK);
    expect_no_error();
    ng_computation_destroy(c);
    return t;
}

/* ---- round trips ----------------------------------------------------------------------------- */

static void variables_and_adam_state_round_trip(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "adam.ckpt");
    ng_computation_t *ca = step_of(ta, &a);
    snapshot_t saved = snapshot(ta, &a);
    assert_true(saved.v[kNumSaved].v[0] == 3.0); /* three steps counted */
    assert_true(saved.v[3].v[0] != 0.0);         /* the moments moved */

    /* A fresh process: the same program builds the graph again and compiles the step; no run. */
    model_t b = build(kSame);
    ng_transformer_t *tb = ng_transformer_create(NULL);
    ng_computation_t *cb = step_of(tb, &b);
    assert_int_equal(ng_transformer_load(tb, path_of("adam.ckpt")), NG_OK);
    expect_no_error();
    expect_same_snapshot(saved, snapshot(tb, &b));

    /* The next steps continue exactly: same losses, same weights, same moments. */
    for (int i = 0; i < 2; ++i) {
        float la = run_step(ca, -2.0f + (float)i), lb = run_step(cb, -2.0f + (float)i);
        assert_true(la == lb);
    }
    expect_same_snapshot(snapshot(ta, &a), snapshot(tb, &b));
    assert_true(snapshot(tb, &b).v[kNumSaved].v[0] == 5.0);

    ng_computation_destroy(ca);
    ng_computation_destroy(cb);
    ng_transformer_destroy(ta);
    ng_transformer_destroy(tb);
    ng_graph_destroy(a.g);
    ng_graph_destroy(b.g);
}

/* The header as the format describes it: magic, version 1, the payload's CRC-32 and length. */
static void file_header_follows_the_format(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "header.ckpt");
    size_t size;
    uint8_t *bytes = read_all(path_of("header.ckpt"), &size);
    const uint8_t magic[8] = {0x89, 'N', 'G', 'C', 'K', 'P', 'T', '\n'};
    assert_true(size > 24);
    assert_memory_equal(bytes, magic, 8);
    assert_int_equal(le(bytes + 8, 4), 1);
    assert_int_equal(le(bytes + 12, 4), crc32_bitwise(bytes + 24, size - 24));
    assert_int_equal(le(bytes + 16, 8), size - 24);
    /* saving again replaces the file and leaves nothing else beside it */
    int files = count_files();
    assert_int_equal(ng_transformer_save(ta, path_of("header.ckpt")), NG_OK);
    assert_int_equal(count_files(), files);
    free(bytes);
    ng_transformer_destroy(ta);
    ng_graph_destroy(a.g);
}

/* Saved before any run: the initial values are created first, as a first run would. */
static void save_before_any_run_creates_initial_values(void **state) {
    (void)state;
    model_t a = build(kSame);
    ng_transformer_t *ta = ng_transformer_create(NULL);
    ng_computation_t *ca = step_of(ta, &a);
    assert_int_equal(ng_transformer_save(ta, path_of("initial.ckpt")), NG_OK);

    model_t b = build(kSame);
    ng_transformer_t *tb = ng_transformer_create(NULL);
    ng_computation_t *cb = step_of(tb, &b);
    assert_int_equal(ng_transformer_load(tb, path_of("initial.ckpt")), NG_OK);
    values_t w = value_of(tb, b.W), lr = value_of(tb, b.lr);
    for (int i = 0; i < 6; ++i) assert_float_equal(w.v[i], 0.1 * (i + 1) - 0.35, 1e-6);
    assert_float_equal(lr.v[0], 0.05, 1e-7);
    assert_true(value_of(tb, adam_count(&b)).v[0] == 0.0);
    assert_true(run_step(ca, 1.5f) == run_step(cb, 1.5f));

    ng_computation_destroy(ca);
    ng_computation_destroy(cb);
    ng_transformer_destroy(ta);
    ng_transformer_destroy(tb);
    ng_graph_destroy(a.g);
    ng_graph_destroy(b.g);
}

/* A value set with ng_transformer_set_value is saved even though no computation uses it; the
 * random generator's state travels with the values. */
static void set_values_and_random_state_round_trip(void **state) {
    (void)state;
    ng_graph_t *ga = ng_graph_create(), *gb = ng_graph_create();
    const ng_axis_t *Ka = ng_axis(ga, "K", 4), *Kb = ng_axis(gb, "K", 4);
    ng_op_t *ua = ng_uniform(ga, NG_FLOAT64, &Ka, 1, 0, 1);
    ng_op_t *ub = ng_uniform(gb, NG_FLOAT64, &Kb, 1, 0, 1);
    ng_op_t *ea = ng_persistent_tensor(ga, NG_INT64, NULL, 0, NULL);
    ng_op_t *eb = ng_persistent_tensor(gb, NG_INT64, NULL, 0, NULL);
    assert_int_equal(ng_op_set_name(ea, "epoch"), NG_OK);
    assert_int_equal(ng_op_set_name(eb, "epoch"), NG_OK);

    ng_transformer_t *ta = ng_transformer_create(NULL), *tb = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_set_seed(ta, 42), NG_OK);
    ng_computation_t *ca = ng_computation_create(ta, &ua, 1, NULL, 0);
    ng_computation_t *cb = ng_computation_create(tb, &ub, 1, NULL, 0);
    ng_tensor_t *out = NULL;
    for (int i = 0; i < 2; ++i) {
        assert_int_equal(ng_computation_run(ca, NULL, 0, &out, 1), NG_OK);
        ng_tensor_release(out);
        out = NULL;
    }
    const int64_t seven = 7;
    ng_tensor_t *epoch = ng_tensor_from_data(NG_INT64, NULL, 0, &seven);
    assert_int_equal(ng_transformer_set_value(ta, ea, epoch), NG_OK);
    assert_int_equal(ng_transformer_save(ta, path_of("random.ckpt")), NG_OK);

    /* B knows "epoch" once its value is set (to anything), then loads 7 and A's generator. */
    ng_tensor_t *zero = ng_tensor_create(NG_INT64, NULL, 0);
    assert_int_equal(ng_transformer_set_value(tb, eb, zero), NG_OK);
    assert_int_equal(ng_transformer_load(tb, path_of("random.ckpt")), NG_OK);
    ng_tensor_t *loaded = NULL;
    assert_int_equal(ng_transformer_get_value(tb, eb, &loaded), NG_OK);
    assert_int_equal(*(const int64_t *)ng_tensor_data(loaded), 7);

    ng_tensor_t *third_a = NULL, *third_b = NULL;
    assert_int_equal(ng_computation_run(ca, NULL, 0, &third_a, 1), NG_OK);
    assert_int_equal(ng_computation_run(cb, NULL, 0, &third_b, 1), NG_OK);
    assert_memory_equal(ng_tensor_data(third_a), ng_tensor_data(third_b), 4 * sizeof(double));

    ng_tensor_release(epoch);
    ng_tensor_release(zero);
    ng_tensor_release(loaded);
    ng_tensor_release(third_a);
    ng_tensor_release(third_b);
    ng_computation_destroy(ca);
    ng_computation_destroy(cb);
    ng_transformer_destroy(ta);
    ng_transformer_destroy(tb);
    ng_graph_destroy(ga);
    ng_graph_destroy(gb);
}

/* A constant the compiler folds (here a broadcast over the batch) is no state: it is not saved, so
 * a checkpoint loads into a computation over another batch size. */
static void folded_constants_are_not_saved(void **state) {
    (void)state;
    ng_transformer_t *t[2];
    ng_computation_t *c[2];
    ng_graph_t *g[2];
    ng_op_t *w[2];
    for (int i = 0; i < 2; ++i) {
        g[i] = ng_graph_create();
        const ng_axis_t *N = ng_axis(g[i], "N", 4 + 4 * i), *H = ng_axis(g[i], "H", 3);
        const ng_axis_t *NH[2] = {N, H};
        w[i] = ng_variable(g[i], NG_FLOAT32, &H, 1, ng_scalar(g[i], 0.5 + i));
        assert_int_equal(ng_op_set_name(w[i], "w"), NG_OK);
        ng_op_t *x = ng_placeholder(g[i], NG_FLOAT32, NH, 2, NULL);
        ng_op_t *twos = ng_broadcast(g[i], ng_scalar(g[i], 2), NH, 2);
        ng_op_t *y = ng_sum(g[i], ng_multiply(g[i], ng_multiply(g[i], x, w[i]), twos), NULL, 0);
        t[i] = ng_transformer_create(NULL);
        c[i] = ng_computation_create(t[i], &y, 1, &x, 1);
        assert_non_null(c[i]);
        ng_tensor_t *out = NULL;
        int64_t shape[2] = {4 + 4 * i, 3};
        ng_tensor_t *in = ng_tensor_create(NG_FLOAT32, shape, 2);
        assert_int_equal(ng_computation_run(c[i], &in, 1, &out, 1), NG_OK);
        ng_tensor_release(in);
        ng_tensor_release(out);
    }
    assert_int_equal(ng_transformer_save(t[0], path_of("folded.ckpt")), NG_OK);
    assert_int_equal(ng_transformer_load(t[1], path_of("folded.ckpt")), NG_OK);
    expect_no_error();
    assert_true(value_of(t[1], w[1]).v[2] == 0.5);
    for (int i = 0; i < 2; ++i) {
        ng_computation_destroy(c[i]);
        ng_transformer_destroy(t[i]);
        ng_graph_destroy(g[i]);
    }
}

/* ---- mismatches: a status, a message naming the value, nothing changed ----------------------- */

/* Builds `v`, creates its step on a fresh transformer, gives every value a mark (one run), then
 * expects the load of the reference checkpoint to fail with `status` mentioning `detail`, and
 * every value (and the next run) to be as before. */
static void expect_refused_unchanged(variant_t v, const char *file, ng_status_t status,
                                     const char *detail) {
    model_t m = build(v);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *c = step_of(t, &m);
    run_step(c, 0.5f);
    ng_tensor_t *before_w = NULL, *before_b = NULL, *before_m = NULL;
    assert_int_equal(ng_transformer_get_value(t, m.W, &before_w), NG_OK);
    assert_int_equal(ng_transformer_get_value(t, m.b, &before_b), NG_OK);
    char moment[32];
    snprintf(moment, sizeof moment, "%s/adam_m", v.w_name);
    assert_int_equal(ng_transformer_get_value(t, ng_graph_find(m.g, moment), &before_m), NG_OK);
    const double count = value_of(t, adam_count(&m)).v[0];

    assert_int_not_equal(ng_transformer_load(t, file), NG_OK);
    expect_error(status, "ng_transformer_load", detail);

    ng_tensor_t *after = NULL;
    ng_tensor_t *before[3] = {before_w, before_b, before_m};
    ng_op_t *ops[3] = {m.W, m.b, ng_graph_find(m.g, moment)};
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(ng_transformer_get_value(t, ops[i], &after), NG_OK);
        size_t bytes = (size_t)ng_tensor_numel(after) * ng_dtype_size(ng_tensor_dtype(after));
        assert_memory_equal(ng_tensor_data(before[i]), ng_tensor_data(after), bytes);
        ng_tensor_release(after);
        after = NULL;
        ng_tensor_release(before[i]);
    }
    assert_true(value_of(t, adam_count(&m)).v[0] == count);
    ng_computation_destroy(c);
    ng_transformer_destroy(t);
    ng_graph_destroy(m.g);
}

static void mismatches_change_nothing(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "ref.ckpt");
    const char *ref = path_of("ref.ckpt");

    variant_t renamed = kSame;
    renamed.w_name = "W2";
    expect_refused_unchanged(renamed, ref, NG_ERR_NOT_FOUND, "has no value for W2");

    variant_t wider_dtype = kSame;
    wider_dtype.lr_dtype = NG_FLOAT64;
    expect_refused_unchanged(wider_dtype, ref, NG_ERR_DTYPE, "lr is float32 in ");
    expect_refused_unchanged(wider_dtype, ref, NG_ERR_DTYPE, "but float64 in the transformer");

    variant_t longer = kSame;
    longer.h_length = 4;
    expect_refused_unchanged(longer, ref, NG_ERR_AXES, "W has axes (F(3), H(2)) in ");
    expect_refused_unchanged(longer, ref, NG_ERR_AXES, "but (F(3), H(4)) in the transformer");

    variant_t other_axis = kSame;
    other_axis.h_name = "K";
    expect_refused_unchanged(other_axis, ref, NG_ERR_AXES, "but (F(3), K(2))");

    variant_t extra = kSame;
    extra.extra_variable = 1;
    expect_refused_unchanged(extra, ref, NG_ERR_NOT_FOUND, "has no value for extra");

    ng_transformer_destroy(ta);
    ng_graph_destroy(a.g);
}

/* The checkpoint holds tensors the transformer does not know: a computation that uses them was
 * not created before the load (the mistake a fresh process can make). */
static void unknown_values_are_refused(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "ref2.ckpt");

    model_t b = build(kSame);
    ng_transformer_t *tb = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_load(tb, path_of("ref2.ckpt")), NG_ERR_NOT_FOUND);
    expect_error(NG_ERR_NOT_FOUND, "ng_transformer_load", "W, W/adam_m, W/adam_v");
    expect_error(NG_ERR_NOT_FOUND, "ng_transformer_load", "create every computation");

    /* Only the forward pass: the optimizer's state is unknown to this transformer. */
    ng_computation_t *forward = ng_computation_create(tb, &b.y, 1, &b.x, 1);
    assert_non_null(forward);
    assert_int_equal(ng_transformer_load(tb, path_of("ref2.ckpt")), NG_ERR_NOT_FOUND);
    expect_error(NG_ERR_NOT_FOUND, "ng_transformer_load", "W/adam_m, W/adam_v, b/adam_m");
    ng_tensor_t *w = NULL;
    assert_int_equal(ng_transformer_get_value(tb, b.W, &w), NG_ERR_NOT_FOUND); /* still none */

    ng_computation_destroy(forward);
    ng_transformer_destroy(ta);
    ng_transformer_destroy(tb);
    ng_graph_destroy(a.g);
    ng_graph_destroy(b.g);
}

/* Two graphs on one transformer, each with a variable named W: saving and loading refuse. */
static void duplicate_names_are_refused(void **state) {
    (void)state;
    model_t a = build(kSame), b = build(kSame);
    ng_transformer_t *t = ng_transformer_create(NULL);
    ng_computation_t *ca = step_of(t, &a), *cb = step_of(t, &b);
    const char *path = path_of("dup.ckpt");
    assert_int_equal(ng_transformer_save(t, path), NG_ERR_STATE);
    expect_error(NG_ERR_STATE, "ng_transformer_save", "are named PersistentTensor ");
    assert_int_equal(access(path, F_OK), -1);

    model_t c;
    ng_transformer_t *tc = trained(&c, "dup.ckpt");
    assert_int_equal(ng_transformer_load(t, path), NG_ERR_STATE);
    expect_error(NG_ERR_STATE, "ng_transformer_load", "ng_op_set_name");

    ng_computation_destroy(ca);
    ng_computation_destroy(cb);
    ng_transformer_destroy(t);
    ng_transformer_destroy(tc);
    ng_graph_destroy(a.g);
    ng_graph_destroy(b.g);
    ng_graph_destroy(c.g);
}

/* ---- damaged files --------------------------------------------------------------------------- */

static void damaged_files_are_refused(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "good.ckpt");
    size_t size;
    uint8_t *good = read_all(path_of("good.ckpt"), &size);
    uint8_t *bad = malloc(size + 8);
    assert_non_null(bad);
    const char *path = path_of("bad.ckpt");

    write_all(path, good, 0);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "is empty");
    write_all(path, good, 10);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "is 10 bytes long, shorter than");
    write_all(path, good, size - 1);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "is truncated");
    memcpy(bad, good, size);
    memcpy(bad + size, "trailing", 8);
    write_all(path, bad, size + 8);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "followed by junk");

    memcpy(bad, good, size);
    bad[size / 2] ^= 0x10; /* one bit of the payload */
    write_all(path, bad, size);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "damaged: the CRC-32");

    memcpy(bad, good, size);
    bad[1] = 'X';
    write_all(path, bad, size);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "is not a nanograph checkpoint");

    memcpy(bad, good, size);
    bad[8] = 2;
    write_all(path, bad, size);
    expect_refused_unchanged(kSame, path, NG_ERR_UNSUPPORTED, "format version 2; this library");

    memcpy(bad, good, size);
    bad[16] ^= 1; /* the length */
    write_all(path, bad, size);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "its header gives a payload of");

    /* Payloads with a valid CRC. Checkpoint.values = 1 (0x0a); Value: name = 1 (0x0a),
     * axis_names = 2 (0x12), tensor = 3 (0x1a); TensorProto: dtype = 1 (0x08), shape = 2 (0x12,
     * Dim = 2 (0x12), size = 1 (0x08)), tensor_content = 4 (0x22). */
    const uint8_t not_protobuf[] = {0xff, 0xff, 0xff};
    write_checkpoint(path, not_protobuf, sizeof not_protobuf);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "its payload is not a checkpoint");
    /* "b", axis "H", float (2) given by one float_val: elements must be in tensor_content */
    const uint8_t typed[] = {0x0a, 0x16, 0x0a, 0x01, 'b',  0x12, 0x01, 'H',
                             0x1a, 0x0e, 0x08, 0x01, 0x12, 0x04, 0x12, 0x02,
                             0x08, 0x02, 0x2a, 0x04, 0x00, 0x00, 0x80, 0x3f};
    write_checkpoint(path, typed, sizeof typed);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "value b has no tensor_content");
    /* "b" with content for 2 floats but no axis name */
    const uint8_t no_axis_name[] = {0x0a, 0x17, 0x0a, 0x01, 'b',  0x1a, 0x12, 0x08, 0x01,
                                    0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x08, 0,
                                    0,    0,    0,    0,    0,    0,    0};
    write_checkpoint(path, no_axis_name, sizeof no_axis_name);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "value b has 0 axis names for 1 dim");
    /* a value without a name; a value without a tensor; two values named "b" */
    const uint8_t nameless[] = {0x0a, 0x02, 0x12, 0x00};
    write_checkpoint(path, nameless, sizeof nameless);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "the name of value 0 is empty");
    const uint8_t no_tensor[] = {0x0a, 0x03, 0x0a, 0x01, 'b'};
    write_checkpoint(path, no_tensor, sizeof no_tensor);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "value b has no tensor");
    /* (two empty tensors: an empty one needs no content) */
    const uint8_t twice[] = {0x0a, 0x10, 0x0a, 0x01, 'b',  0x12, 0x01, 'H',  0x1a,
                             0x08, 0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x00,
                             0x0a, 0x10, 0x0a, 0x01, 'b',  0x12, 0x01, 'H',  0x1a,
                             0x08, 0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x00};
    write_checkpoint(path, twice, sizeof twice);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "has two values named b");
    /* a float scalar "lr" without its 4 bytes of content */
    const uint8_t short_content[] = {0x0a, 0x0c, 0x0a, 0x02, 'l',  'r',  0x1a,
                                     0x06, 0x08, 0x01, 0x22, 0x02, 0x00, 0x00};
    write_checkpoint(path, short_content, sizeof short_content);
    expect_refused_unchanged(kSame, path, NG_ERR_FORMAT, "value lr");

    expect_refused_unchanged(kSame, path_of("no-such.ckpt"), NG_ERR_IO, "no-such.ckpt");

    free(good);
    free(bad);
    ng_transformer_destroy(ta);
    ng_graph_destroy(a.g);
}

/* ---- writing --------------------------------------------------------------------------------- */

static void unwritable_targets_fail_and_keep_the_old_file(void **state) {
    (void)state;
    model_t a;
    ng_transformer_t *ta = trained(&a, "keep.ckpt");
    size_t size;
    uint8_t *before = read_all(path_of("keep.ckpt"), &size);
    const int files = count_files();

    /* a directory that does not exist; a "directory" that is a file; a file system that takes no
     * new files (even for root) */
    char path[600];
    snprintf(path, sizeof path, "%s/missing/x.ckpt", dir);
    assert_int_equal(ng_transformer_save(ta, path), NG_ERR_IO);
    expect_error(NG_ERR_IO, "ng_transformer_save", "missing/x.ckpt");
    snprintf(path, sizeof path, "%s/x.ckpt", path_of("keep.ckpt"));
    assert_int_equal(ng_transformer_save(ta, path), NG_ERR_IO);
    expect_error(NG_ERR_IO, "ng_transformer_save", "Not a directory");
    assert_int_equal(ng_transformer_save(ta, "/proc/ng_test.ckpt"), NG_ERR_IO);
    expect_error(NG_ERR_IO, "ng_transformer_save", "/proc/ng_test.ckpt");
    /* the target is a directory: the rename fails, the new file is removed */
    assert_int_equal(mkdir(path_of("subdir"), 0700), 0);
    assert_int_equal(ng_transformer_save(ta, path_of("subdir")), NG_ERR_IO);
    expect_error(NG_ERR_IO, "ng_transformer_save", "cannot replace");
    assert_int_equal(count_files(), files + 1);
    assert_int_equal(rmdir(path_of("subdir")), 0);
    /* a directory without write permission (root may write anyway: then the save succeeds) */
    if (geteuid() != 0) {
        assert_int_equal(chmod(dir, 0500), 0);
        assert_int_equal(ng_transformer_save(ta, path_of("keep.ckpt")), NG_ERR_IO);
        expect_error(NG_ERR_IO, "ng_transformer_save", "Permission denied");
        assert_int_equal(chmod(dir, 0700), 0);
    }
    size_t after_size;
    uint8_t *after = read_all(path_of("keep.ckpt"), &after_size);
    assert_int_equal(after_size, size);
    assert_memory_equal(before, after, size);
    assert_int_equal(count_files(), files);

    free(before);
    free(after);
    ng_transformer_destroy(ta);
    ng_graph_destroy(a.g);
}

static void bad_arguments(void **state) {
    (void)state;
    ng_transformer_t *t = ng_transformer_create(NULL);
    assert_int_equal(ng_transformer_save(NULL, path_of("x.ckpt")), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_save", "t is NULL");
    assert_int_equal(ng_transformer_save(t, NULL), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_save", "path is NULL");
    assert_int_equal(ng_transformer_load(NULL, path_of("x.ckpt")), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_load", "t is NULL");
    assert_int_equal(ng_transformer_load(t, NULL), NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_load", "path is NULL");
    ng_graph_t *g = ng_graph_create();
    assert_int_equal(ng_transformer_save((ng_transformer_t *)g, path_of("x.ckpt")),
                     NG_ERR_INVALID_ARGUMENT);
    expect_error(NG_ERR_INVALID_ARGUMENT, "ng_transformer_save",
                 "t is not a live transformer handle (it is a live graph handle)");
    /* an empty transformer saves an empty checkpoint, which it loads back */
    assert_int_equal(ng_transformer_save(t, path_of("empty.ckpt")), NG_OK);
    assert_int_equal(ng_transformer_load(t, path_of("empty.ckpt")), NG_OK);
    expect_no_error();
    ng_graph_destroy(g);
    ng_transformer_destroy(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variables_and_adam_state_round_trip),
        cmocka_unit_test(file_header_follows_the_format),
        cmocka_unit_test(save_before_any_run_creates_initial_values),
        cmocka_unit_test(set_values_and_random_state_round_trip),
        cmocka_unit_test(folded_constants_are_not_saved),
        cmocka_unit_test(mismatches_change_nothing),
        cmocka_unit_test(unknown_values_are_refused),
        cmocka_unit_test(duplicate_names_are_refused),
        cmocka_unit_test(damaged_files_are_refused),
        cmocka_unit_test(unwritable_targets_fail_and_keep_the_old_file),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
