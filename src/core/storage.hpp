// Storage: one block of memory that tensors view. Either owned (64-byte aligned, large blocks
// advised for transparent huge pages; from the allocator current when it was made) or borrowed from
// the caller with an optional deleter that runs exactly once, when the last view of it goes away.
#pragma once

#include <cstddef>
#include <memory>

#include "core/allocator.hpp"

namespace ng {

class Storage {
public:
    using Deleter = void (*)(void *data, void *ctx);

    // Allocates `bytes` zeroed bytes, 64-byte aligned. Throws std::bad_alloc.
    static std::shared_ptr<Storage> allocate(size_t bytes);
    // The same without zeroing, for memory that is written before it is read (the arena, new
    // outputs): pages the program never touches then cost no physical memory.
    static std::shared_ptr<Storage> allocate_uninitialized(size_t bytes);
    // Wraps caller memory; `deleter` (may be null: borrowed) runs once when the storage dies.
    // If this throws, the deleter is not called: ownership passes only on success.
    static std::shared_ptr<Storage> wrap(void *data, size_t bytes, Deleter deleter, void *ctx);

    ~Storage();
    Storage(const Storage &) = delete;
    Storage &operator=(const Storage &) = delete;

    void *data() const noexcept { return data_; }
    size_t bytes() const noexcept { return bytes_; }
    bool owned() const noexcept { return owned_; }
    // Owned storage: true when it was made by `a` (so it may be used as if `a` had just made it).
    bool made_by(const Allocator &a) const noexcept { return owned_ && allocator_ == a; }

    // Takes ownership of borrowed memory after the fact: `deleter(deleter_data, ctx)` runs when
    // the storage dies. Callers build every object that may still fail first and call this
    // last, so that a failed import never runs the caller's deleter. `deleter_data` is what the
    // caller handed over (it may differ from data() when negative strides put the lowest
    // address elsewhere).
    void adopt(Deleter deleter, void *ctx, void *deleter_data) noexcept;

private:
    Storage(void *data, size_t bytes, bool owned) noexcept
        : data_(data), bytes_(bytes), owned_(owned) {}
    Storage(void *data, size_t bytes, const Allocator &allocator, size_t alignment) noexcept
        : data_(data), bytes_(bytes), owned_(true), allocator_(allocator), alignment_(alignment) {}
    static std::shared_ptr<Storage> allocate_owned(size_t bytes, bool zeroed);

    void *data_;
    size_t bytes_;
    bool owned_;
    Deleter deleter_ = nullptr;
    void *ctx_ = nullptr;
    void *deleter_data_ = nullptr;
    Allocator allocator_;  // owned storage: the allocator that made it
    size_t alignment_ = 0;
};

}  // namespace ng
