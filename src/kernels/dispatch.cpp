// The level-1 entry points: check the request once, then run it through the table of the best
// instruction set this CPU supports (chosen at first use).
#include <xsimd/xsimd.hpp>

#include <cstring>

#include "core/error.hpp"
#include "kernels/convert.hpp"
#include "kernels/kernel_names.hpp"
#include "kernels/streaming.hpp"
#include "kernels/vector_table.hpp"

namespace ng::kernels {

void bad_kernel_request(const char *what) {
    throw internal_error("kernel table reached with an unchecked ", what, " request");
}

namespace {

// xsimd reads CPUID only; libgcc's check also asks the OS (XGETBV) whether it saves the wide
// registers, so both must agree before code for those registers runs.
const VectorTable &pick_table() {
    auto cpu = xsimd::available_architectures();
    __builtin_cpu_init();
    if (cpu.avx512bw && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd"))
        return vector_table_avx512;
    if (cpu.fma3_avx2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return vector_table_avx2;
    return vector_table_sse2;
}

// The columns of kernel_fns.def, a row per function in the order of its enumeration.
struct UnaryTraits {
    bool float_only, bool_ok, chainable;
};
struct BinaryTraits {
    bool bool_ok, chainable;
};
struct ReduceTraits {
    bool bool_ok;
};
constexpr UnaryTraits kUnaryTraits[] = {
#define NG_UNARY_FN(Name, name, float_only, bool_ok, chainable, polynomial) \
    {float_only, bool_ok, chainable},
#include "kernels/kernel_fns.def"
};
constexpr BinaryTraits kBinaryTraits[] = {
#define NG_BINARY_FN(Name, name, bool_ok, chainable) {bool_ok, chainable},
#include "kernels/kernel_fns.def"
};
constexpr ReduceTraits kReduceTraits[] = {
#define NG_REDUCE_FN(Name, name, bool_ok) {bool_ok},
#include "kernels/kernel_fns.def"
};

// Column `column` of f's row in kernel_fns.def, or `otherwise` for a code outside the enumeration.
template <class Traits, size_t N, class Fn>
bool column_of(const Traits (&table)[N], Fn f, bool Traits::*column, bool otherwise = false) {
    const auto i = static_cast<size_t>(f);
    return i < N ? table[i].*column : otherwise;
}

bool is_float_only(UnaryFn f) {
    return column_of(kUnaryTraits, f, &UnaryTraits::float_only, true);
}

// Bool values must stay 0 or 1: only operations that keep them so accept bool.
bool bool_allowed(UnaryFn f) {
    return column_of(kUnaryTraits, f, &UnaryTraits::bool_ok);
}
bool bool_allowed(BinaryFn f) {
    return column_of(kBinaryTraits, f, &BinaryTraits::bool_ok);
}
bool bool_allowed(ReduceFn f) {
    return column_of(kReduceTraits, f, &ReduceTraits::bool_ok);
}

void check_length(const char *kernel, int64_t n) {
    if (n < 0) throw invalid_argument(kernel, ": negative length ", n);
}

void check_common(const char *kernel, DType dt, int64_t n) {
    check_dtype(dt, kernel);
    check_length(kernel, n);
}

void check_step(const char *kernel, int step) {
    if (step != 0 && step != 1)
        throw internal_error(kernel, ": step ", step, " is neither 0 nor 1");
}

template <class Fn>
void check_bool(const char *kernel, Fn f, DType dt) {
    if (dt == NG_BOOL && !bool_allowed(f))
        throw dtype_error(kernel, " ", fn_name(f), " is not defined for bool");
}

}  // namespace

const VectorTable &vector_table() {
    static const VectorTable &table = pick_table();
    return table;
}

void check_unary(UnaryFn f, DType dt) {
    check_dtype(dt, "unary");
    check_fn(f);
    if (is_float_only(f) && !dtype_is_float(dt))
        throw dtype_error("unary ", fn_name(f), " needs float32 or float64, not ", dtype_name(dt));
    check_bool("unary", f, dt);
}

void check_binary(BinaryFn f, DType dt) {
    check_dtype(dt, "binary");
    check_fn(f);
    check_bool("binary", f, dt);
}

void check_compare(CompareFn f, DType dt) {
    check_dtype(dt, "compare");
    check_fn(f);
}

void unary(UnaryFn f, DType dt, int64_t n, const void *x, void *out) {
    check_unary(f, dt);
    check_length("unary", n);
    vector_table().unary(f, dt, n, x, out);
}

void binary(BinaryFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
            void *out) {
    check_binary(f, dt);
    check_length("binary", n);
    check_step("binary", a_step);
    check_step("binary", b_step);
    vector_table().binary(f, dt, n, a, a_step, b, b_step, out);
}

void compare(CompareFn f, DType dt, int64_t n, const void *a, int a_step, const void *b, int b_step,
             uint8_t *out) {
    check_compare(f, dt);
    check_length("compare", n);
    check_step("compare", a_step);
    check_step("compare", b_step);
    vector_table().compare(f, dt, n, a, a_step, b, b_step, out);
}

void select(DType dt, int64_t n, const uint8_t *cond, const void *a, int a_step, const void *b,
            int b_step, void *out) {
    check_common("select", dt, n);
    check_step("select", a_step);
    check_step("select", b_step);
    vector_table().select(dt, n, cond, a, a_step, b, b_step, out);
}

void reduce_all(ReduceFn f, DType dt, int64_t n, const void *x, void *result) {
    check_common("reduce_all", dt, n);
    check_fn(f);
    check_bool("reduce_all", f, dt);
    vector_table().reduce_all(f, dt, n, x, result);
}

void reduce_rows(ReduceFn f, DType dt, int64_t rows, int64_t n, int64_t tile, const void *x,
                 int64_t x_stride, void *out, int64_t out_stride) {
    check_common("reduce_rows", dt, n);
    check_fn(f);
    check_bool("reduce_rows", f, dt);
    if (rows < 0) throw invalid_argument("reduce_rows: negative row count ", rows);
    if (tile < 1 || (n + tile - 1) / tile > kMaxRowTiles)
        throw internal_error("reduce_rows: ", n, " values in tiles of ", tile, " exceed ",
                             kMaxRowTiles, " tiles");
    vector_table().reduce_rows(f, dt, rows, n, tile, x, x_stride, out, out_stride);
}

void accumulate(ReduceFn f, DType dt, int64_t n, const void *x, void *acc) {
    check_common("accumulate", dt, n);
    check_fn(f);
    check_bool("accumulate", f, dt);
    vector_table().accumulate(f, dt, n, x, acc);
}

void accumulate_rows(ReduceFn f, DType dt, int64_t n, const void *const *rows, int32_t count,
                     void *acc) {
    check_common("accumulate_rows", dt, n);
    check_fn(f);
    check_bool("accumulate_rows", f, dt);
    if (count < 1 || count > kMaxAccumulateRows)
        throw internal_error("accumulate_rows: ", count, " rows; 1 to ", kMaxAccumulateRows,
                             " are allowed");
    vector_table().accumulate_rows(f, dt, n, rows, count, acc);
}

void accumulate_lanes(ReduceFn f, DType dt, int64_t n, int64_t rows, const void *const *starts,
                      int32_t lanes, void *acc) {
    check_common("accumulate_lanes", dt, n);
    check_fn(f);
    check_bool("accumulate_lanes", f, dt);
    if (rows < 0) throw internal_error("accumulate_lanes: ", rows, " rows");
    if (lanes < 1 || lanes > kMaxAccumulateLanes)
        throw internal_error("accumulate_lanes: ", lanes, " lanes; 1 to ", kMaxAccumulateLanes,
                             " are allowed");
    vector_table().accumulate_lanes(f, dt, n, rows, starts, lanes, acc);
}

void exp_shifted(DType dt, int64_t n, const void *x, const void *shift, int shift_step, void *out) {
    check_common("exp_shifted", dt, n);
    if (!dtype_is_float(dt))
        throw dtype_error("exp_shifted needs float32 or float64, not ", dtype_name(dt));
    check_step("exp_shifted", shift_step);
    vector_table().exp_shifted(dt, n, x, shift, shift_step, out);
}

void softmax_rows(DType dt, bool log, int64_t rows, int64_t n, const void *x, int64_t x_stride,
                  void *y, int64_t y_stride, bool stream_out) {
    check_common("softmax_rows", dt, n);
    if (!dtype_is_float(dt))
        throw dtype_error("softmax_rows needs float32 or float64, not ", dtype_name(dt));
    if (rows < 0) throw invalid_argument("softmax_rows: negative row count ", rows);
    vector_table().softmax_rows(dt, log, rows, n, x, x_stride, y, y_stride, stream_out);
}

bool chain_supports(UnaryFn f) {
    return column_of(kUnaryTraits, f, &UnaryTraits::chainable);
}

bool chain_supports(BinaryFn f) {
    return column_of(kBinaryTraits, f, &BinaryTraits::chainable);
}

namespace {
// Every step names a function the chain kernels have and a leaf that exists, temporaries are
// saved before they are read, and the first step loads the accumulator.
void check_chain(const ChainStep *code, int32_t count, int32_t input_count, int32_t leaf_count) {
    using Kind = ChainStep::Kind;
    if (count < 1 || code[0].kind != Kind::Load)
        throw internal_error("run_chain: ", count, " steps, the first must load a leaf");
    if (input_count < 0 || leaf_count < input_count || leaf_count > kMaxChainLeaves)
        throw internal_error("run_chain: ", input_count, " inputs and ", leaf_count,
                             " leaves; at most ", kMaxChainLeaves, " leaves");
    uint32_t saved = 0;  // temporaries written so far, one bit per leaf
    for (int32_t s = 0; s < count; ++s) {
        const ChainStep &step = code[s];
        bool reads = step.kind == Kind::Load || step.kind == Kind::Binary ||
                     step.kind == Kind::BinaryReversed;
        if (step.leaf < 0 || step.leaf >= leaf_count)
            throw internal_error("run_chain: step ", s, " uses leaf ", step.leaf, " of ",
                                 leaf_count);
        bool known = false;
        switch (step.kind) {
        case Kind::Load: known = true; break;
        case Kind::Save:
            known = step.leaf >= input_count;
            saved |= 1u << step.leaf;
            break;
        case Kind::Unary: known = chain_supports(static_cast<UnaryFn>(step.fn)); break;
        case Kind::Binary:
        case Kind::BinaryReversed:
        case Kind::BinarySelf: known = chain_supports(static_cast<BinaryFn>(step.fn)); break;
        }
        if (!known)
            throw internal_error("run_chain: step ", s, " (kind ", static_cast<int32_t>(step.kind),
                                 ", function ", step.fn, ", leaf ", step.leaf,
                                 ") is not a chain step");
        if (reads && step.leaf >= input_count && !(saved & (1u << step.leaf)))
            throw internal_error("run_chain: step ", s, " reads temporary ", step.leaf,
                                 " before it is saved");
    }
}
}  // namespace

namespace {
void check_chain_request(const char *kernel, DType dt, int64_t n, const ChainStep *code,
                         int32_t count, const int *input_steps, int32_t input_count,
                         int32_t leaf_count) {
    check_common(kernel, dt, n);
    if (!dtype_is_float(dt))
        throw dtype_error(kernel, " needs float32 or float64, not ", dtype_name(dt));
    check_chain(code, count, input_count, leaf_count);
    for (int32_t l = 0; l < input_count; ++l) check_step(kernel, input_steps[l]);
}
}  // namespace

void run_chain(DType dt, int64_t n, const ChainStep *code, int32_t count, const void *const *inputs,
               const int *input_steps, int32_t input_count, int32_t leaf_count, void *out,
               bool stream_out) {
    check_chain_request("run_chain", dt, n, code, count, input_steps, input_count, leaf_count);
    vector_table().chain(dt, n, code, count, inputs, input_steps, input_count, leaf_count, out,
                         stream_out);
    if (stream_out) fence_streamed_stores();
}

void run_chain_sum(DType dt, int64_t n, const ChainStep *code, int32_t count,
                   const void *const *inputs, const int *input_steps, int32_t input_count,
                   int32_t leaf_count, void *sum) {
    check_chain_request("run_chain_sum", dt, n, code, count, input_steps, input_count, leaf_count);
    vector_table().chain_sum(dt, n, code, count, inputs, input_steps, input_count, leaf_count, sum);
}

namespace {
// Repeats the element at out[0] over out[1..n), doubling the filled prefix with each copy.
void replicate_first(size_t elem_size, int64_t n, void *out) {
    auto bytes = static_cast<unsigned char *>(out);
    size_t total = static_cast<size_t>(n) * elem_size;
    for (size_t done = elem_size; done < total;) {
        size_t chunk = done < total - done ? done : total - done;
        std::memcpy(bytes + done, bytes, chunk);
        done += chunk;
    }
}
}  // namespace

void fill_identity(ReduceFn f, DType dt, int64_t n, void *out) {
    if (n == 0) return check_common("fill_identity", dt, n);
    reduce_all(f, dt, 0, nullptr, out);  // the reduction of nothing is the identity
    replicate_first(dtype_size(dt), n, out);
}

void fill(DType dt, int64_t n, double value, void *out) {
    check_common("fill", dt, n);
    if (n == 0) return;
    store_as(dt, value, out);
    replicate_first(dtype_size(dt), n, out);
}

}  // namespace ng::kernels
