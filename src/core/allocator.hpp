// Where owned storage (tensors, arenas, outputs, persistent values) gets its memory: by default
// posix_memalign, or functions a host installs for the process (ng_set_allocator) or for one
// transformer (ng_transformer_set_allocator, in force through an AllocatorScope). Each block
// remembers the allocator that made it, so changing the allocator never frees a block with the
// wrong one.
#pragma once

#include <cstddef>
#include <optional>

namespace ng {

struct Allocator {
    // Returns `bytes` bytes aligned to `alignment` (a power of two, at least 64), or null.
    void *(*allocate)(size_t bytes, size_t alignment, void *ctx) = nullptr;
    // Frees a block of `allocate` with the same size and alignment.
    void (*deallocate)(void *p, size_t bytes, size_t alignment, void *ctx) = nullptr;
    void *ctx = nullptr;

    bool is_default() const noexcept { return allocate == nullptr; }
    // The same functions and context: memory from one may go back to the other.
    bool operator==(const Allocator &o) const noexcept {
        return allocate == o.allocate && deallocate == o.deallocate && ctx == o.ctx;
    }
    bool operator!=(const Allocator &o) const noexcept { return !(*this == o); }
};

// The allocator new storage made on the calling thread uses: the innermost AllocatorScope's, or
// the process-wide one (thread-safe).
Allocator current_allocator() noexcept;
// Installs `a` for storage made from now on; a default-constructed one restores posix_memalign.
void set_allocator(const Allocator &a) noexcept;

// While it lives, storage made on the calling thread comes from `a` instead of the process-wide
// allocator: a transformer's own allocator, in force while it compiles, runs or makes values
// (every block it allocates is made on the thread that called it; the kernels allocate none).
// An empty `a` changes nothing. Scopes nest; each restores the one before.
class AllocatorScope {
public:
    explicit AllocatorScope(const std::optional<Allocator> &a) noexcept;
    ~AllocatorScope();
    AllocatorScope(const AllocatorScope &) = delete;
    AllocatorScope &operator=(const AllocatorScope &) = delete;

private:
    std::optional<Allocator> allocator_;  // a copy: its owner may install another meanwhile
    const Allocator *previous_;
};

}  // namespace ng
