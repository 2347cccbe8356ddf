#include "runtime/executor.hpp"

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "kernels/parallel.hpp"
#include "kernels/thread_pool.hpp"

namespace ng {

namespace {

kernels::Strided describe(const Operand &o) {
    kernels::Strided s;
    s.strides = o.strides;
    return s;
}

// alpha of a Gemm step, times its scale operand's value when it has one.
double gemm_alpha(const Step &s, const std::vector<kernels::Strided> &inputs) {
    double alpha = s.alpha;
    if (s.scale_input >= 0) {
        const void *scale = inputs[s.scale_input].data;
        alpha *= s.dtype == NG_FLOAT64 ? *static_cast<const double *>(scale)
                                       : double(*static_cast<const float *>(scale));
    }
    return alpha;
}

void run_gemm(const Step &s, double alpha, const std::vector<kernels::Strided> &inputs,
              const kernels::Strided &output, ThreadPool *pool) {
    const int64_t row_bytes = s.ldc * static_cast<int64_t>(dtype_size(s.dtype));
    char *c = static_cast<char *>(output.data);
    if (s.k > 0)
        kernels::gemm(s.dtype, s.transpose_a, s.transpose_b, s.m, s.n, s.k, alpha, inputs[0].data,
                      s.lda, inputs[1].data, s.ldb, s.beta, c, s.ldc, pool);
    else if (s.beta == 0)  // an empty sum, and beta = 0 ignores what C held (as BLAS does)
        for (int64_t i = 0; i < s.m; ++i) kernels::fill(s.dtype, s.n, 0.0, c + i * row_bytes);
    else if (s.beta != 1)
        throw internal_error("gemm step with beta ", s.beta);
    if (!s.flag) return;
    // The ReLU epilogue while C is in cache: in one call when its rows are contiguous.
    if (s.ldc == s.n)
        kernels::unary(kernels::UnaryFn::Relu, s.dtype, s.m * s.n, c, c);
    else
        for (int64_t i = 0; i < s.m; ++i)
            kernels::unary(kernels::UnaryFn::Relu, s.dtype, s.n, c + i * row_bytes,
                           c + i * row_bytes);
}

// A panel deeper than this (floats) no longer stays in a core's second-level cache while rows of
// A pass over it: such products stay with OpenBLAS, which splits the depth.
constexpr int64_t kMaxPackedDepth = 4096;

// How a Gemm step runs in nanograph's own float32 product (kernels/packed_gemm.hpp), if it does.
// Packing B once pays off when the packing is kept from run to run: B is a constant, or a
// persistent tensor this plan does not write (weights at inference; a run of another computation
// that writes them makes the next run pack them again). Any other B (training's weights and
// gradients) goes to the own product, packed a panel at a time at each run, only where that
// outruns OpenBLAS on this CPU. A single row or column stays with gemm's gemv.
Executor::OwnProduct own_product(const Plan &plan, const Step &s,
                                 const std::vector<bool> &written) {
    using Own = Executor::OwnProduct;
    if (s.dtype != NG_FLOAT32 || !kernels::PackedPanels::available()) return Own::None;
    if (s.m < 2 || s.n < 2 || s.k < 1 || s.k > kMaxPackedDepth) return Own::None;
    const int32_t b = s.inputs.at(1).buffer;
    const Buffer::Kind kind = plan.buffers[size_t(b)].kind;
    if (kind == Buffer::Kind::Constant || (kind == Buffer::Kind::Persistent && !written[size_t(b)]))
        return Own::PackedOnce;
    return kernels::panel_product_outruns_openblas() ? Own::PackedEachRun : Own::None;
}

}  // namespace

// Whether a Gemm step's fused bias is one value per column of a dense C (a layer's bias over its
// outputs), which the packed product adds as it stores C instead of copying it over C first.
bool Executor::is_column_bias(const Step &s, const Prepared &p) {
    const std::vector<int64_t> &bias = p.inputs.at(size_t(s.bias_input)).strides;
    return s.shape.size() == 2 && s.shape[0] == s.m && s.shape[1] == s.n && bias.size() == 2 &&
           bias[0] == 0 && bias[1] == 1 && p.output.strides.size() == 2 &&
           p.output.strides[0] == s.ldc && p.output.strides[1] == 1;
}

Executor::Executor(const Plan &plan) : plan_(plan), written_(plan.buffers.size(), false) {
    for (const Step &s : plan.steps)
        if (s.output.buffer >= 0) written_[size_t(s.output.buffer)] = true;
    prepared_.reserve(plan.steps.size());
    for (const Step &s : plan.steps) {
        Prepared p;
        auto address = [&](const Operand &o) {
            const auto size = static_cast<int64_t>(dtype_size(plan.buffers[o.buffer].dtype));
            return Address{o.buffer, checked_mul(o.offset, size, "operand offset")};
        };
        p.addresses.push_back(address(s.output));
        for (const Operand &o : s.inputs) p.addresses.push_back(address(o));
        p.bases.resize(p.addresses.size());
        for (const Operand &o : s.inputs) p.inputs.push_back(describe(o));
        p.output = describe(s.output);
        switch (s.kind) {
        case Step::Kind::Elementwise:
            p.elementwise.prepare(s.program, s.shape, p.inputs, p.output);
            break;
        case Step::Kind::Copy:
            p.elementwise.prepare_copy(s.dtype, s.shape, p.inputs.at(0), p.output);
            break;
        case Step::Kind::Reduce:
            p.reduce.prepare(s.reduce_fn, s.program, s.shape, p.inputs, p.output);
            break;
        case Step::Kind::Gemm:
            p.own_product = own_product(plan, s, written_);
            if (p.own_product != OwnProduct::None) {
                if (p.own_product == OwnProduct::PackedOnce)
                    p.packed = std::make_unique<Prepared::PackedB>();
                p.adds_bias = s.bias_input >= 0 && is_column_bias(s, p);
                may_use_pool_ = true;  // the product splits its panels over the pool
            } else {
                p.gemm_threads = kernels::gemm_threads(s.dtype, s.transpose_a, s.transpose_b, s.m,
                                                       s.n, s.k, s.ldc);
                may_use_pool_ |= p.gemm_threads == kernels::GemmThreads::Pool;
            }
            if (s.bias_input >= 0 && !p.adds_bias)  // copied over C
                p.elementwise.prepare_copy(s.dtype, s.shape, p.inputs.at(s.bias_input), p.output);
            break;
        default: break;
        }
        switch (s.kind) {
        case Step::Kind::Elementwise:
        case Step::Kind::Copy:
        case Step::Kind::Reduce:
            may_use_pool_ |= kernels::may_split(checked_numel(s.shape, "step shape"));
            break;
        case Step::Kind::Kernel:
            may_use_pool_ |= s.kernel.may_use_pool;
            draws_random_ |= s.kernel.draws_random;
            break;
        default: break;  // Gemm: above; the others run on the caller
        }
        prepared_.push_back(std::move(p));
    }
}

bool Executor::writes(int32_t buffer) const {
    return written_.at(size_t(buffer));
}

void Executor::run(const std::vector<char *> &bases, ThreadPool *pool, uint64_t seed, uint64_t draw,
                   const uint64_t *versions) {
    seed_ = seed;
    draw_ = draw;
    versions_ = versions;
    for (size_t i = 0; i < plan_.steps.size(); ++i)
        run_step(plan_.steps[i], prepared_[i], bases, pool);
}

void Executor::run_step(const Step &s, Prepared &p, const std::vector<char *> &bases,
                        ThreadPool *pool) {
    for (size_t j = 0; j < p.addresses.size(); ++j)
        p.bases[j] = bases[p.addresses[j].buffer] + p.addresses[j].byte_offset;
    switch (s.kind) {  // prepared kernels need nothing more
    case Step::Kind::Elementwise:
    case Step::Kind::Copy: return p.elementwise.run(p.bases.data(), pool);
    case Step::Kind::Reduce: return p.reduce.run(p.bases.data(), pool);
    default: break;
    }
    p.output.data = p.bases[0];
    for (size_t i = 0; i < p.inputs.size(); ++i) p.inputs[i].data = p.bases[i + 1];

    switch (s.kind) {
    case Step::Kind::Elementwise:
    case Step::Kind::Copy:
    case Step::Kind::Reduce: break;  // above
    case Step::Kind::Gemm:
        if (s.bias_input >= 0 && !p.adds_bias) {
            // One layer's output: small enough for the calling thread.
            void *copy[2] = {p.bases[0], p.bases[1 + s.bias_input]};
            p.elementwise.run(copy, nullptr);
        }
        if (s.m == 0 || s.n == 0) break;
        if (p.own_product != OwnProduct::None && s.k > 0)
            run_own_gemm(s, p, gemm_alpha(s, p.inputs), pool);
        else {
            if (pool && p.gemm_threads == kernels::GemmThreads::OpenBlas)
                pool->rest_workers();  // OpenBLAS's threads take the cores
            run_gemm(s, gemm_alpha(s, p.inputs), p.inputs, p.output, pool);
        }
        break;
    case Step::Kind::Fill: {
        int64_t n = 1;
        for (int64_t d : s.shape) n *= d;
        kernels::fill(s.dtype, n, s.value, p.output.data);
        break;
    }
    case Step::Kind::Kernel: s.kernel.run(KernelRun{p.inputs, p.output, pool, seed_, draw_}); break;
    }
}

// Packed each run: panel_gemm packs B as it multiplies. Packed once: B is packed again unless it
// is the same buffer at the same version (known) as last time.
void Executor::run_own_gemm(const Step &s, Prepared &p, double alpha, ThreadPool *pool) {
    kernels::ProductEpilogue epilogue;
    epilogue.alpha = float(alpha);
    epilogue.beta = float(s.beta);
    epilogue.relu = s.flag;
    if (p.adds_bias) {  // C = alpha A B + bias rather than bias copied over C and beta = 1
        epilogue.bias = static_cast<const float *>(p.inputs[size_t(s.bias_input)].data);
        epilogue.beta = 0;
    }
    const auto *a = static_cast<const float *>(p.inputs[0].data);
    const auto *source = static_cast<const float *>(p.inputs[1].data);
    auto *c = static_cast<float *>(p.output.data);
    if (p.own_product == OwnProduct::PackedEachRun) {
        kernels::panel_gemm(s.transpose_a, s.transpose_b, s.m, s.n, s.k, a, s.lda, source, s.ldb,
                            epilogue, c, s.ldc, pool);
        return;
    }
    Prepared::PackedB &b = *p.packed;
    const uint64_t version = versions_ ? versions_[p.addresses[2].buffer] : 0;
    if (version == 0 || version != b.version || source != b.source) {
        b.source = nullptr;  // until packed: a failure leaves nothing to reuse
        b.panels.pack(s.transpose_b, s.k, s.n, source, s.ldb, pool);
        b.source = source, b.version = version;
    }
    kernels::packed_gemm(s.transpose_a, s.m, a, s.lda, b.panels, epilogue, c, s.ldc, pool);
}

}  // namespace ng
