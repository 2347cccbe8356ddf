// The CPU transformer: owns the values of persistent tensors (keyed by their op's process-wide
// uid, which no other op ever takes), runs their initializers once, and owns the thread pool
// every computation's kernels use. It never refers to a user's graph: what it knows of each
// tensor was copied when a computation was compiled or a value was set.
// It never changes process-wide state such as OpenBLAS's thread count.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/allocator.hpp"
#include "core/tensor.hpp"
#include "kernels/thread_pool.hpp"
#include "runtime/persistent.hpp"

namespace ng {

// Shared: every computation keeps its transformer alive, so destroying the C handle first is safe.
class Transformer : public std::enable_shared_from_this<Transformer> {
public:
    explicit Transformer(int threads);

    // A run already under way keeps the pool it started with (pool_for_run()).
    void set_threads(int threads);
    int threads() const;
    // The pool of threads() threads, its workers started by the first run that asks for it: a
    // host that makes a transformer and then sets its thread count (or runs only on the calling
    // thread) never starts threads it does not use.
    std::shared_ptr<ThreadPool> pool_for_run() const;

    // Held for the whole of a run that uses persistent tensors, and while a value is read or
    // written from outside: such runs of the computations of one transformer never overlap, so
    // one may write a variable another reads. Recursive: initializers run inside a run.
    std::unique_lock<std::recursive_mutex> lock_values() const {
        return std::unique_lock<std::recursive_mutex>(mutex_);
    }

    // The transformer's own allocator for its values, its computations' arenas, constants and
    // outputs (ng_transformer_set_allocator); none: the process-wide one. Memory made before
    // keeps the allocator that made it.
    void set_allocator(const std::optional<Allocator> &a);
    // Storage made on this thread while the scope lives comes from the transformer's own
    // allocator, if it has one. Entered by whatever makes memory for the transformer: compiling
    // and running its computations, creating values, loading checkpoints.
    AllocatorScope allocator_scope() const;

    // The random generator: a seed and the number of draws made since it was set. Every run
    // that draws random values takes the next draw number.
    void set_seed(uint64_t seed);
    uint64_t seed() const;
    uint64_t draws() const;
    uint64_t next_draw();

    // The value of a persistent tensor, created from `spec` first if there is none yet (its
    // constant data, its initializer's result, or zeros; a placeholder without an initializer
    // is NG_ERR_STATE).
    Tensor &value(const PersistentSpec &spec);
    // value() for a run, with the value's version: a number that changes whenever the value may
    // have changed (created, set, restored, or written by a run) and is never given to another
    // value, so what a computation keeps derived from a value (a packed matrix) is current while
    // the number is the same. A run that writes the tensor (`writes`) takes a new number first.
    // Called under lock_values().
    struct RunValue {
        Tensor &value;
        uint64_t version;
    };
    RunValue value_for_run(const PersistentSpec &spec, bool writes);
    bool has_value(uint64_t id) const;
    // Copies `value` (of the tensor's dtype and shape) into the tensor's value, creating it.
    void set_value(const PersistentInfo &info, const Tensor &value);
    // Every value with what is known of its tensor, in no particular order (checkpoints).
    void for_each_value(
        const std::function<void(const PersistentInfo &, const Tensor &)> &visit) const;

    // Checkpoints. A computation registers the spec of every persistent tensor it uses when it is
    // compiled (only state is kept: PersistentInfo::is_state), so a checkpoint can load (or save)
    // tensors that no run has created a value for yet. The transformer holds the specs weakly: a
    // spec's initializer holds the transformer.
    void register_persistent(const std::shared_ptr<const PersistentSpec> &spec);
    // Every tensor the transformer has a value for or a live spec of, sorted by uid.
    std::vector<PersistentInfo> known_persistents() const;
    // Creates, as a first run would, the value of every registered tensor without one yet.
    void create_registered_values();
    // Replaces the values of the given tensors (each of its tensor's dtype and shape, dense) and
    // the random generator's state, all at once: on a failure nothing has changed.
    void restore(std::vector<std::pair<PersistentInfo, Tensor>> values, uint64_t seed,
                 uint64_t draws);

private:
    struct Entry {
        PersistentInfo info;
        Tensor value;
        uint64_t version = 0;
    };
    Tensor initialize(const PersistentSpec &spec);
    Entry &entry(const PersistentSpec &spec);  // the tensor's entry, created as value() says
    void create_values_read_by(const PersistentSpec &spec);  // see entry()

    int threads_ = 1;                           // guarded by pool_mutex_
    mutable std::shared_ptr<ThreadPool> pool_;  // guarded by pool_mutex_; none until a run
    mutable std::mutex pool_mutex_;             // (the pool guards itself)
    std::optional<Allocator> allocator_;        // guarded by allocator_mutex_
    mutable std::mutex allocator_mutex_;
    // Whether allocator_ is set: every run asks, and most transformers have none, so those skip
    // the mutex.
    std::atomic<bool> has_allocator_{false};
    uint64_t seed_ = 0;          // guarded by mutex_
    uint64_t draws_ = 0;         // guarded by mutex_
    uint64_t last_version_ = 0;  // guarded by mutex_: the last version given to a value
    std::unordered_map<uint64_t, Entry> values_;
    // Guarded by mutex_: the specs of live computations, by uid (several computations may use one
    // tensor; expired entries are dropped as new ones come).
    std::unordered_map<uint64_t, std::vector<std::weak_ptr<const PersistentSpec>>> registered_;
    mutable std::recursive_mutex mutex_;  // initializers run computations that read values
};

// Copies `src` (over the axes named `src_axes`) into `dst` (over `dst_axes`), broadcasting by
// axis name.
void copy_broadcast_by_name(const Tensor &src, const std::vector<std::string> &src_axes,
                            Tensor &dst, const std::vector<std::string> &dst_axes,
                            ThreadPool *pool);

}  // namespace ng
