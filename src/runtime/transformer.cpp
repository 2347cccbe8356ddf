#include "runtime/transformer.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/error.hpp"
#include "kernels/kernels.hpp"
#include "runtime/computation.hpp"

namespace ng {

Transformer::Transformer(int threads) {
    set_threads(threads);
}

void Transformer::set_seed(uint64_t seed) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    seed_ = seed;
    draws_ = 0;
}

uint64_t Transformer::seed() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return seed_;
}

uint64_t Transformer::draws() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return draws_;
}

uint64_t Transformer::next_draw() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return draws_++;
}

void Transformer::set_threads(int threads) {
    if (threads < 0) throw invalid_argument("thread count ", threads, " is negative");
    std::shared_ptr<ThreadPool> old;
    std::lock_guard<std::mutex> lock(pool_mutex_);
    threads_ = ThreadPool::size_for(threads);
    pool_.swap(old);
    // `old` now holds the old pool: unless a run still uses it, its workers are joined when it
    // goes, after the lock is released (locals are destroyed in reverse order).
}

int Transformer::threads() const {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    return threads_;
}

std::shared_ptr<ThreadPool> Transformer::pool_for_run() const {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (!pool_) pool_ = std::make_shared<ThreadPool>(threads_);
    return pool_;
}

void Transformer::set_allocator(const std::optional<Allocator> &a) {
    std::lock_guard<std::mutex> lock(allocator_mutex_);
    allocator_ = a;
    has_allocator_.store(a.has_value(), std::memory_order_release);
}

AllocatorScope Transformer::allocator_scope() const {
    if (!has_allocator_.load(std::memory_order_acquire)) return AllocatorScope(std::nullopt);
    std::lock_guard<std::mutex> lock(allocator_mutex_);
    return AllocatorScope(allocator_);
}

bool Transformer::has_value(uint64_t id) const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return values_.count(id) != 0;
}

// A value whose initializer reads other persistent tensors is created after theirs. Its
// initializer's run would create them (each by running its own initializer, which creates those
// it reads, ...), recursing as deep as a chain of tensors each initialised from the one before;
// they are created first instead, deepest first, in the order those runs would have created
// them, so every initializer runs with the values it reads already there.
Transformer::Entry &Transformer::entry(const PersistentSpec &spec) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto found = values_.find(spec.info.id);
    if (found != values_.end()) return found->second;
    if (spec.initializer) create_values_read_by(spec);
    const AllocatorScope scope = allocator_scope();
    Entry e{spec.info, initialize(spec), ++last_version_};
    return values_.emplace(spec.info.id, std::move(e)).first->second;
}

Tensor &Transformer::value(const PersistentSpec &spec) {
    return entry(spec).value;
}

void Transformer::create_values_read_by(const PersistentSpec &spec) {
    struct Pending {
        const PersistentSpec *spec;
        std::vector<const PersistentSpec *> reads;  // by its initializer, in the order it reads
        size_t next = 0;
    };
    std::vector<Pending> stack;
    std::unordered_set<uint64_t> on_path{spec.info.id};
    stack.push_back(Pending{&spec, spec.initializer->persistent_specs()});
    while (!stack.empty()) {
        Pending &top = stack.back();
        if (top.next < top.reads.size()) {
            const PersistentSpec *read = top.reads[top.next++];
            if (values_.count(read->info.id) || on_path.count(read->info.id)) continue;
            if (read->initializer) {
                on_path.insert(read->info.id);
                stack.push_back(Pending{read, read->initializer->persistent_specs()});
            } else {
                entry(*read);
            }
            continue;
        }
        const PersistentSpec *done = top.spec;
        on_path.erase(done->info.id);
        stack.pop_back();
        if (done != &spec) entry(*done);  // what it reads exists: its run creates nothing
    }
}

Transformer::RunValue Transformer::value_for_run(const PersistentSpec &spec, bool writes) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Entry &e = entry(spec);
    if (writes) e.version = ++last_version_;
    return RunValue{e.value, e.version};
}

Tensor Transformer::initialize(const PersistentSpec &spec) {
    const PersistentInfo &p = spec.info;
    if (p.is_placeholder() && !spec.initializer)
        throw state_error("placeholder ", p.value.name,
                          " has no value: pass it as a parameter, set its value, "
                          "or give it an initial value");
    if (p.is_constant()) {
        Tensor value = Tensor::zeros(p.value.dtype, p.shape());
        if (!spec.constant_data.empty())
            value.write(spec.constant_data.data(), spec.constant_data.size());
        return value;
    }
    if (!spec.initializer) return Tensor::zeros(p.value.dtype, p.shape());
    // The initializer is an ordinary computation of the initial value, run once. An initial
    // value over the tensor's own axes in its order is written straight into the value (a run
    // writes every element of its outputs); another is broadcast into it by axis name.
    const ValueInfo &initial = spec.initial_value;
    if (initial.axis_names == p.value.axis_names && initial.axis_lengths == p.value.axis_lengths) {
        Tensor value = Tensor::uninitialized(p.value.dtype, p.shape());
        Tensor *into_value = &value;
        spec.initializer->run(nullptr, &into_value, nullptr);
        return value;
    }
    Tensor value = Tensor::zeros(p.value.dtype, p.shape());
    Tensor *no_slot = nullptr;
    Tensor result;
    spec.initializer->run(nullptr, &no_slot, &result);
    copy_broadcast_by_name(result, initial.axis_names, value, p.value.axis_names,
                           pool_for_run().get());
    return value;
}

void Transformer::set_value(const PersistentInfo &info, const Tensor &v) {
    if (v.dtype() != info.value.dtype)
        throw dtype_error("value has dtype ", dtype_name(v.dtype()), " but ", info.value.name,
                          " is ", dtype_name(info.value.dtype));
    if (v.shape() != info.shape())
        throw axes_error("value shape does not match the axes of ", info.value.name);
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto found = values_.find(info.id);
    if (found == values_.end()) {
        const AllocatorScope scope = allocator_scope();
        Entry e{info, Tensor::zeros(info.value.dtype, info.shape())};
        found = values_.emplace(info.id, std::move(e)).first;
    }
    found->second.value.copy_from(v);
    found->second.version = ++last_version_;
}

void Transformer::for_each_value(
    const std::function<void(const PersistentInfo &, const Tensor &)> &visit) const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    for (const auto &entry : values_) visit(entry.second.info, entry.second.value);
}

void Transformer::register_persistent(const std::shared_ptr<const PersistentSpec> &spec) {
    if (!spec->info.is_state()) return;  // constants and placeholders are never saved
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto &specs = registered_[spec->info.id];
    specs.erase(
        std::remove_if(specs.begin(), specs.end(),
                       [](const std::weak_ptr<const PersistentSpec> &s) { return s.expired(); }),
        specs.end());
    specs.push_back(spec);
}

namespace {

// A live spec among those registered for one tensor, or null.
std::shared_ptr<const PersistentSpec> live_spec(
    const std::vector<std::weak_ptr<const PersistentSpec>> &specs) {
    for (const auto &weak : specs)
        if (auto spec = weak.lock()) return spec;
    return nullptr;
}

}  // namespace

std::vector<PersistentInfo> Transformer::known_persistents() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    std::vector<PersistentInfo> out;
    for (const auto &entry : values_) out.push_back(entry.second.info);
    for (const auto &r : registered_)
        if (!values_.count(r.first))
            if (auto spec = live_spec(r.second)) out.push_back(spec->info);
    std::sort(out.begin(), out.end(),
              [](const PersistentInfo &a, const PersistentInfo &b) { return a.id < b.id; });
    return out;
}

void Transformer::create_registered_values() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    // value() runs initializers: collect first rather than walk the map while they run.
    std::vector<std::shared_ptr<const PersistentSpec>> missing;
    for (const auto &r : registered_)
        if (!values_.count(r.first))
            if (auto spec = live_spec(r.second)) missing.push_back(std::move(spec));
    std::sort(missing.begin(), missing.end(),
              [](const auto &a, const auto &b) { return a->info.id < b->info.id; });
    for (const auto &spec : missing) value(*spec);
}

void Transformer::restore(std::vector<std::pair<PersistentInfo, Tensor>> values, uint64_t seed,
                          uint64_t draws) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    for (const auto &v : values)
        if (v.second.dtype() != v.first.value.dtype || v.second.shape() != v.first.shape() ||
            !v.second.is_contiguous())
            throw internal_error("restored value of ", v.first.value.name,
                                 " does not match its tensor");
    // Built aside and swapped in: a failure (out of memory) leaves every value as it was. Runs
    // find their values afresh each time (value()), so replacing a tensor is safe.
    auto next = values_;
    for (auto &v : values) {
        const uint64_t id = v.first.id;
        next[id] = Entry{std::move(v.first), std::move(v.second), ++last_version_};
    }
    values_.swap(next);
    seed_ = seed;
    draws_ = draws;
}

void copy_broadcast_by_name(const Tensor &src, const std::vector<std::string> &src_axes,
                            Tensor &dst, const std::vector<std::string> &dst_axes,
                            ThreadPool *pool) {
    kernels::Strided from, to;
    from.data = src.data();
    to.data = dst.data();
    to.strides = dst.strides();
    from.strides.assign(dst_axes.size(), 0);
    for (size_t i = 0; i < src_axes.size(); ++i) {
        auto at = std::find(dst_axes.begin(), dst_axes.end(), src_axes[i]);
        if (at == dst_axes.end()) {
            if (src.shape()[i] == 1) continue;
            throw axes_error("axis ", src_axes[i], "(", src.shape()[i],
                             ") of the value is not an axis of the target");
        }
        from.strides[static_cast<size_t>(at - dst_axes.begin())] = src.strides()[i];
    }
    kernels::copy_strided(dst.dtype(), dst.shape(), from, to, pool);
}

}  // namespace ng
