// Where owned storage (tensors, arenas, outputs, persistent values) gets its memory: by default
// posix_memalign, or functions a host installs (ng_set_allocator). Each block remembers the
// allocator that made it, so changing the allocator never frees a block with the wrong one.
#pragma once

#include <cstddef>

namespace ng {

struct Allocator {
    // Returns `bytes` bytes aligned to `alignment` (a power of two, at least 64), or null.
    void *(*allocate)(size_t bytes, size_t alignment, void *ctx) = nullptr;
    // Frees a block of `allocate` with the same size and alignment.
    void (*deallocate)(void *p, size_t bytes, size_t alignment, void *ctx) = nullptr;
    void *ctx = nullptr;

    bool is_default() const noexcept { return allocate == nullptr; }
};

// The allocator new storage uses (thread-safe).
Allocator current_allocator() noexcept;
// Installs `a` for storage made from now on; a default-constructed one restores posix_memalign.
void set_allocator(const Allocator &a) noexcept;

}  // namespace ng
