// Storage: one block of memory that tensors view. Either owned (64-byte aligned, large blocks
// advised for transparent huge pages) or borrowed from the caller with an optional deleter that
// runs exactly once, when the last view of it goes away.
#pragma once

#include <cstddef>
#include <memory>

namespace ng {

class Storage {
public:
    using Deleter = void (*)(void *data, void *ctx);

    // Allocates `bytes` zeroed bytes, 64-byte aligned. Throws std::bad_alloc.
    static std::shared_ptr<Storage> allocate(size_t bytes);
    // Wraps caller memory; `deleter` (may be null: borrowed) runs once when the storage dies.
    static std::shared_ptr<Storage> wrap(void *data, size_t bytes, Deleter deleter, void *ctx);

    ~Storage();
    Storage(const Storage &) = delete;
    Storage &operator=(const Storage &) = delete;

    void *data() const noexcept { return data_; }
    size_t bytes() const noexcept { return bytes_; }
    bool owned() const noexcept { return owned_; }

private:
    Storage(void *data, size_t bytes, bool owned, Deleter deleter, void *ctx) noexcept
        : data_(data), bytes_(bytes), owned_(owned), deleter_(deleter), ctx_(ctx) {}

    void *data_;
    size_t bytes_;
    bool owned_;
    Deleter deleter_;
    void *ctx_;
};

// 64-byte aligned, zeroed, huge-page-advised memory for arenas and storage. Throws std::bad_alloc.
void *aligned_alloc_zeroed(size_t bytes);
void aligned_free(void *p) noexcept;

}  // namespace ng
