#include "runtime/computation.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <unordered_set>
#include <utility>

#include "core/checked_math.hpp"
#include "graph/queries.hpp"
#include "kernels/parallel.hpp"
#include "passes/memory_plan.hpp"
#include "passes/pipeline.hpp"

namespace ng {

namespace {

void check_params(const std::vector<const Op *> &params) {
    std::unordered_set<const Op *> listed;  // a set: a model may have thousands of inputs
    for (size_t i = 0; i < params.size(); ++i) {
        const Op *p = params[i];
        if (!(p->flags() & kFlagInput))
            throw invalid_argument("parameter ", i, " (", p->name, ") is not a placeholder");
        if (!listed.insert(p).second)
            throw invalid_argument("placeholder ", p->name, " is listed twice as a parameter");
    }
}

}  // namespace

Computation::Computation(std::shared_ptr<Transformer> t, const std::vector<const Op *> &results,
                         const std::vector<const Op *> &params, InitializerCompilation *compiling)
    : transformer_(std::move(t)),
      param_info_(describe_values(params)),
      result_info_(describe_values(results)) {
    const AllocatorScope scope = transformer_->allocator_scope();  // constants, arena
    check_params(params);
    graph_ = compile_graph(
        results, params,
        [](const Plan &plan, const std::vector<char *> &bases) {
            Executor(plan).run(bases, nullptr);
        },
        num_source_ops_);
    for (const ValueInfo &p : param_info_)
        param_strides_.push_back(row_major_strides(p.axis_lengths));
    InitializerCompilation outermost;
    compile_persistents(results, compiling ? *compiling : outermost);
    compile();
    for (const PersistentSpec *p : buffer_specs_)
        if (p && p->info.is_placeholder() && !p->initializer &&
            !transformer_->has_value(p->info.id))
            throw state_error(
                "placeholder ", p->info.value.name,
                " is neither a parameter of the computation nor has a value or an initial value");
}

// An initializer holds the specs of the tensors it reads, which hold their initializers, and so
// on: left to the members' destructors, a chain of tensors each initialised from the one before
// would be destroyed recursively, as deep as the chain. The specs this computation holds the last
// reference to are taken apart here one level at a time instead: each initializer's own specs are
// moved out before it is destroyed. Under the transformer's lock, the only place a registered
// spec can gain a reference from (Transformer::register_persistent keeps weak ones).
Computation::~Computation() {
    try {
        release_initializers();
    } catch (...) {
        // No memory for the work list: what is left goes with the members, recursively.
    }
}

void Computation::release_initializers() {
    std::vector<std::unordered_map<uint64_t, std::shared_ptr<const PersistentSpec>>> pending;
    pending.push_back(std::exchange(persistents_, {}));
    std::unique_lock<std::recursive_mutex> values;
    while (!pending.empty()) {
        auto specs = std::move(pending.back());
        pending.pop_back();
        for (const auto &entry : specs) {
            const std::shared_ptr<const PersistentSpec> &spec = entry.second;
            if (!spec->initializer) continue;
            if (!values) values = transformer_->lock_values();
            if (spec.use_count() == 1 && spec->initializer.use_count() == 1)
                pending.push_back(std::exchange(spec->initializer->persistents_, {}));
        }
    }  // each spec of `specs` (and its initializer, whose specs are in `pending`) dies here
}

// Copies what the runtime needs of every persistent tensor the graph uses, compiles the
// initializers of those the transformer has no value for yet, and registers them with the
// transformer (checkpoints save and load them before any run).
void Computation::compile_persistents(const std::vector<const Op *> &results,
                                      InitializerCompilation &compiling) {
    std::unordered_map<uint64_t, const Op *> used;
    for (const Node &n : graph_.nodes)
        if (n.is_leaf()) used.emplace(n.uid, nullptr);
    std::vector<Op *> roots;
    for (const Op *r : results) roots.push_back(const_cast<Op *>(r));
    walk_upstream(roots, false, [&](Op *op) {
        auto at = used.find(op->uid);
        if (at != used.end()) at->second = op;
    });
    for (const auto &u : used) {
        if (u.second == nullptr) throw internal_error("persistent tensor ", u.first, " not found");
        auto spec = compile_persistent(transformer_, *u.second, compiling);
        transformer_->register_persistent(spec);
        persistents_.emplace(u.first, std::move(spec));
    }
}

// Lowers for the current parameter strides: views, BLAS flags and packing decisions all follow
// the inputs' actual layouts, so strided inputs are read in place.
void Computation::compile() {
    Plan plan = compile_plan(graph_, param_strides_);
    if (!arena_ || arena_->bytes() < plan.arena_bytes)
        arena_ = Storage::allocate_uninitialized(plan.arena_bytes);
    executor_.reset();
    plan_ = std::move(plan);
    bases_.assign(plan_.buffers.size(), nullptr);
    versions_.assign(plan_.buffers.size(), 0);
    buffer_specs_.assign(plan_.buffers.size(), nullptr);
    for (size_t b = 0; b < plan_.buffers.size(); ++b)
        if (plan_.buffers[b].kind == Buffer::Kind::Persistent)
            buffer_specs_[b] = persistents_.at(plan_.buffers[b].persistent).get();
    forwarded_.assign(plan_.results.size(), false);
    recycled_.resize(plan_.results.size());  // the results keep their dtypes and shapes
    forwardable_.assign(plan_.results.size(), false);
    executor_ = std::make_unique<Executor>(plan_);
    // A run fetches the transformer's pool only when a kernel may split its work: a step, or
    // the copy of a result out of the arena.
    needs_pool_ = executor_->may_use_pool();
    for (size_t i = 0; i < plan_.results.size(); ++i) {
        forwardable_[i] = is_forwardable_result(plan_, plan_.results[i]);
        needs_pool_ |= kernels::may_split(checked_numel(plan_.result_shapes[i], "result shape"));
    }
    // Arena offsets and constants do not change from run to run: their bases are set here. The
    // versions of arena memory and parameters stay 0 (unknown: they change from run to run).
    param_buffers_.clear();
    persistent_buffers_.clear();
    result_buffers_.clear();
    char *arena = static_cast<char *>(arena_->data());
    for (size_t b = 0; b < plan_.buffers.size(); ++b) {
        const Buffer &buf = plan_.buffers[b];
        switch (buf.kind) {
        case Buffer::Kind::Arena: bases_[b] = arena + buf.arena_offset; break;
        case Buffer::Kind::Constant:
            bases_[b] = static_cast<char *>(buf.constant->data());
            versions_[b] = 1;  // the plan's own data, never written
            break;
        case Buffer::Kind::Persistent: persistent_buffers_.push_back(b); break;
        case Buffer::Kind::Param: param_buffers_.emplace_back(b, buf.param); break;
        }
    }
    for (size_t i = 0; i < plan_.results.size(); ++i)
        if (forwardable_[i]) {
            const auto b = static_cast<size_t>(plan_.results[i].buffer);
            result_buffers_.emplace_back(b, bases_[b]);
        }
}

namespace {

// Shapes and strides as a run compares them: ranks are small, so a plain loop beats memcmp.
bool same_dims(const Dims &a, const Dims &b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k] != b[k]) return false;
    return true;
}

// The refusals of validate(), out of its loop.
[[noreturn, gnu::cold, gnu::noinline]] void refuse_input(size_t i, const ValueInfo &p,
                                                         const Tensor &t) {
    if (t.dtype() != p.dtype)
        throw dtype_error("input ", i, " (", p.name, ") has dtype ", dtype_name(t.dtype()),
                          ", expected ", dtype_name(p.dtype));
    throw axes_error("input ", i, " (", p.name, ") has shape ", dims_text(t.shape()), ", expected ",
                     dims_text(p.axis_lengths));
}

[[noreturn, gnu::cold, gnu::noinline]] void refuse_output(size_t i, DType dtype, const Dims &shape,
                                                          const Tensor &t) {
    if (t.dtype() != dtype)
        throw dtype_error("output ", i, " has dtype ", dtype_name(t.dtype()), ", expected ",
                          dtype_name(dtype));
    throw axes_error("output ", i, " has shape ", dims_text(t.shape()), ", expected ",
                     dims_text(shape));
}

}  // namespace

bool Computation::validate(const Tensor *const *inputs, Tensor *const *outputs) const {
    bool restrided = false;
    for (size_t i = 0; i < param_info_.size(); ++i) {
        const ValueInfo &p = param_info_[i];
        const Tensor &t = *inputs[i];
        if (t.dtype() != p.dtype || !same_dims(t.shape(), p.axis_lengths)) refuse_input(i, p, t);
        restrided |= !same_dims(t.strides(), param_strides_[i]);
    }
    for (size_t i = 0; i < plan_.results.size(); ++i) {
        if (!outputs[i]) continue;
        if (outputs[i]->dtype() != plan_.result_dtypes[i] ||
            !same_dims(outputs[i]->shape(), plan_.result_shapes[i]))
            refuse_output(i, plan_.result_dtypes[i], plan_.result_shapes[i], *outputs[i]);
    }
    return restrided;
}

namespace {

// The addresses a tensor's elements occupy, as [lowest, past highest).
struct AddressRange {
    intptr_t lowest, past_highest;
};

AddressRange address_range(const Tensor &t) {
    int64_t lowest = 0, past_highest = 0;
    t.layout().extent(lowest, past_highest);
    const intptr_t base = reinterpret_cast<intptr_t>(t.storage()->data());
    const intptr_t element = static_cast<intptr_t>(t.element_size());
    return {base + static_cast<intptr_t>(lowest) * element,
            base + static_cast<intptr_t>(past_highest) * element};
}

bool overlap(const AddressRange &a, const AddressRange &b) {
    return a.lowest < b.past_highest && b.lowest < a.past_highest;
}

// The bytes of a tensor's storage. Every element of a tensor lies in them (a new tensor spans its
// storage, a wrapped one's storage is its extent, views only narrow), so tensors whose storages
// are disjoint cannot overlap: only tensors that share memory need their exact extents.
AddressRange storage_range(const Tensor &t) {
    const Storage &s = *t.storage();
    const intptr_t base = reinterpret_cast<intptr_t>(s.data());
    return {base, base + static_cast<intptr_t>(s.bytes())};
}

}  // namespace

// Output forwarding: a result that the plan keeps dense in an arena buffer of its own can be
// computed straight into its output tensor, which saves the copy out of the arena. Results live
// to the end of the plan, so no other buffer shares that arena memory. A given output that
// overlaps an input or another output is not forwarded: kernels writing it would clobber
// values still to be read, whereas the copy after the run is safe.
bool Computation::can_forward(size_t i, const Tensor &target, const Tensor *const *inputs,
                              Tensor *const *outputs) const {
    const Value &v = plan_.results[i];
    if (!forwardable_[i] || !target.is_contiguous()) return false;
    for (size_t j = 0; j < i; ++j)
        if (forwarded_[j] && plan_.results[j].buffer == v.buffer) return false;
    if (!outputs[i]) return true;  // a new tensor overlaps nothing
    const AddressRange memory = storage_range(target);
    AddressRange range{0, 0};
    bool have_range = false;
    auto overlaps = [&](const Tensor &other) {
        if (!overlap(memory, storage_range(other))) return false;
        if (!have_range) range = address_range(target), have_range = true;
        return overlap(range, address_range(other));
    };
    for (size_t p = 0; p < param_info_.size(); ++p)
        if (overlaps(*inputs[p])) return false;
    for (size_t j = 0; j < plan_.results.size(); ++j)
        if (j != i && outputs[j] && overlaps(*outputs[j])) return false;
    return true;
}

// Tensors of the same identities have the layouts and addresses the last run checked, and so
// pass validate() again, with the same strides, and get the same answers from can_forward(),
// which depend on nothing else between compiles. For a run of a 4-float add into a given output,
// comparing identities takes about 50 instructions where those checks took about 330 (of 1337).
bool Computation::checked_before(const Tensor *const *inputs, Tensor *const *outputs) const {
    if (checked_.empty()) return false;
    const size_t np = param_info_.size();
    for (size_t i = 0; i < np; ++i)
        if (inputs[i]->identity() != checked_[i]) return false;
    for (size_t i = 0; i < plan_.results.size(); ++i)
        if ((outputs[i] ? outputs[i]->identity() : 0) != checked_[np + i]) return false;
    return true;
}

void Computation::remember_checked(const Tensor *const *inputs, Tensor *const *outputs) {
    checked_.clear();
    // A tensor without an identity (moved from) cannot be told from another: nothing is kept.
    for (size_t i = 0; i < param_info_.size(); ++i) {
        if (inputs[i]->identity() == 0) return checked_.clear();
        checked_.push_back(inputs[i]->identity());
    }
    for (size_t i = 0; i < plan_.results.size(); ++i) {
        if (outputs[i] && outputs[i]->identity() == 0) return checked_.clear();
        checked_.push_back(outputs[i] ? outputs[i]->identity() : 0);
    }
}

void Computation::copy_result(size_t i, Tensor &out, ThreadPool *pool) {
    const Value &v = plan_.results[i];
    copy_from_.data = bases_[v.buffer] +
                      v.layout.offset * static_cast<int64_t>(dtype_size(plan_.result_dtypes[i]));
    copy_from_.strides.assign(v.layout.strides.begin(), v.layout.strides.end());
    copy_to_.data = out.data();
    copy_to_.strides.assign(out.strides().begin(), out.strides().end());
    kernels::copy_strided(plan_.result_dtypes[i], plan_.result_shapes[i], copy_from_, copy_to_,
                          pool);
}

// A new output for result i. While recycling, the storage of the one handed out before is
// reused when this computation holds the only reference to it: the caller has released that
// tensor and every view of it, so no live tensor sees the new values. Nothing can take a new
// reference between the check and the reuse: only a holder of one can copy it, and runs of one
// computation take turns (the C API's run_mutex; initializers, which do not recycle, run under
// the transformer's lock). The storage must also come from the allocator in force for this run
// (memory stays with the allocator that made it). Reused memory is already mapped, so the
// kernels' first touch does not fault in and zero new pages (14% of the time of an elementwise
// run with a 64 MiB result), and a loop that releases each result before the next run allocates
// nothing. It holds no more memory than the previous run handed out.
Tensor Computation::new_output(size_t i) {
    const DType dt = plan_.result_dtypes[i];
    const Dims &shape = plan_.result_shapes[i];
    std::shared_ptr<Storage> &kept = recycled_[i];
    if (kept && kept.use_count() == 1) {
        // The caller's release (an acquire-release decrement) happens before our writes.
        // ThreadSanitizer does not model fences and GCC says so with -Wtsan; the fence is what
        // the language requires, so it stays and the note is silenced for this line only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
        std::atomic_thread_fence(std::memory_order_acquire);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
        if (kept->made_by(current_allocator()))
            return Tensor(dt, Layout{shape, row_major_strides(shape), 0}, kept);
    }
    kept.reset();  // still held by the caller, or from another allocator: ours no longer
    Tensor t = Tensor::uninitialized(dt, shape);
    if (recycles_outputs_) kept = t.storage();
    return t;
}

void Computation::run(const Tensor *const *inputs, Tensor *const *outputs, Tensor *fresh) {
    // Runs that use persistent tensors of one transformer never overlap (Transformer::lock_values).
    std::unique_lock<std::recursive_mutex> values;
    if (!persistent_buffers_.empty()) values = transformer_->lock_values();
    std::shared_ptr<ThreadPool> pool;
    if (needs_pool_) pool = transformer_->pool_for_run();
    const AllocatorScope scope = transformer_->allocator_scope();  // outputs, values, new arena
    // The computation's kernel scratch serves this thread for the whole run, copies included.
    kernels::ScratchScope scratch(scratch_);
    const bool checked = checked_before(inputs, outputs);
    if (!checked) {
        checked_.clear();  // forwarded_ changes below, and this run may fail before it is done
        if (validate(inputs, outputs)) {
            // Inputs with other strides than the plan was made for: plan again (kept for later
            // runs).
            for (size_t i = 0; i < param_info_.size(); ++i)
                param_strides_[i].assign(inputs[i]->strides().begin(), inputs[i]->strides().end());
            compile();
        }
        // A run given the tensors of the last checked run finds their addresses in bases_ still
        // (a tensor's identity stands for its storage and layout): only new outputs and
        // persistent values need theirs set again.
        for (const auto &[b, param] : param_buffers_)
            bases_[b] = static_cast<char *>(inputs[param]->data());
        // Results back in the arena: the last run may have pointed them at its outputs.
        for (const auto &[b, base] : result_buffers_) bases_[b] = base;
    }
    for (size_t b : persistent_buffers_) {
        const Transformer::RunValue v =
            transformer_->value_for_run(*buffer_specs_[b], executor_->writes(int32_t(b)));
        bases_[b] = static_cast<char *>(v.value.data());
        versions_[b] = v.version;
    }
    for (size_t i = 0; i < plan_.results.size(); ++i) {
        // Every element of a new output is written, by the kernels or by copy_result. The slot
        // is emptied first: a tensor left there by a failed run would pin the recycled storage.
        if (!outputs[i]) {
            fresh[i] = Tensor();
            fresh[i] = new_output(i);
        }
        Tensor &target = outputs[i] ? *outputs[i] : fresh[i];
        if (!checked) forwarded_[i] = can_forward(i, target, inputs, outputs);
        if (forwarded_[i] && (!checked || !outputs[i]))
            bases_[plan_.results[i].buffer] = static_cast<char *>(target.data());
    }
    if (!checked) remember_checked(inputs, outputs);
    const bool draws = executor_->draws_random();
    executor_->run(bases_, pool.get(), draws ? transformer_->seed() : 0,
                   draws ? transformer_->next_draw() : 0, versions_.data());
    for (size_t i = 0; i < plan_.results.size(); ++i)
        if (!forwarded_[i]) copy_result(i, outputs[i] ? *outputs[i] : fresh[i], pool.get());
}

}  // namespace ng
