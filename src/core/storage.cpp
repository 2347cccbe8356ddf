#include "core/storage.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace ng {

namespace {

constexpr size_t kCacheLine = 64;
// Blocks this large are aligned to a huge page and advised for transparent huge pages: the
// first touch of each 4 KiB page costs ~2 us, so a 2 MiB page saves hundreds of faults.
constexpr size_t kHugePage = size_t{2} << 20;

std::mutex allocator_mutex;
Allocator installed;  // guarded by allocator_mutex
// The innermost AllocatorScope's allocator on this thread, or null. A plain pointer: a
// thread_local with a destructor would pin the library in memory after dlclose.
thread_local const Allocator *scoped_allocator = nullptr;

// The size asked of the allocator: posix_memalign(0) may return NULL, and every storage gets a
// distinct valid address instead.
size_t request_of(size_t bytes) noexcept {
    return bytes == 0 ? kCacheLine : bytes;
}

// 64-byte aligned (huge-page aligned and advised when large). Throws std::bad_alloc.
void *aligned_alloc_bytes(const Allocator &a, size_t bytes, size_t alignment, bool zeroed) {
    const size_t request = request_of(bytes);
    void *p = nullptr;
    if (!a.is_default())
        p = a.allocate(request, alignment, a.ctx);
    else if (posix_memalign(&p, alignment, request) != 0)
        p = nullptr;
    if (p == nullptr) throw std::bad_alloc();
    // Advice only: a kernel without THP support refuses it, which costs speed, not correctness.
    if (alignment == kHugePage) (void)madvise(p, request, MADV_HUGEPAGE);
    if (zeroed) std::memset(p, 0, request);
    return p;
}

void aligned_free(const Allocator &a, void *p, size_t bytes, size_t alignment) noexcept {
    if (a.is_default())
        std::free(p);
    else
        a.deallocate(p, request_of(bytes), alignment, a.ctx);
}

}  // namespace

Allocator current_allocator() noexcept {
    if (scoped_allocator != nullptr) return *scoped_allocator;
    std::lock_guard<std::mutex> lock(allocator_mutex);
    return installed;
}

// An empty scope touches no thread-local state: every run enters one, and most transformers
// have no allocator of their own.
AllocatorScope::AllocatorScope(const std::optional<Allocator> &a) noexcept
    : allocator_(a), previous_(nullptr) {
    if (!allocator_) return;
    previous_ = scoped_allocator;
    scoped_allocator = &*allocator_;
}

AllocatorScope::~AllocatorScope() {
    if (allocator_) scoped_allocator = previous_;
}

void set_allocator(const Allocator &a) noexcept {
    std::lock_guard<std::mutex> lock(allocator_mutex);
    installed = a;
}

std::shared_ptr<Storage> Storage::allocate_owned(size_t bytes, bool zeroed) {
    const Allocator a = current_allocator();
    const size_t alignment = bytes >= kHugePage ? kHugePage : kCacheLine;
    void *p = aligned_alloc_bytes(a, bytes, alignment, zeroed);
    // The Storage owns p from here: if the shared_ptr's control block cannot be allocated, the
    // unique_ptr keeps it and frees the block once, while unwinding.
    std::unique_ptr<Storage> owner(new (std::nothrow) Storage(p, bytes, a, alignment));
    if (!owner) {
        aligned_free(a, p, bytes, alignment);
        throw std::bad_alloc();
    }
    return std::shared_ptr<Storage>(std::move(owner));
}

std::shared_ptr<Storage> Storage::allocate(size_t bytes) {
    return allocate_owned(bytes, true);
}

std::shared_ptr<Storage> Storage::allocate_uninitialized(size_t bytes) {
    return allocate_owned(bytes, false);
}

std::shared_ptr<Storage> Storage::wrap(void *data, size_t bytes, Deleter deleter, void *ctx) {
    // unique_ptr first: if the shared_ptr's control block cannot be allocated, the storage is
    // destroyed before it owns anything, so the caller keeps ownership.
    std::unique_ptr<Storage> unowned(new Storage(data, bytes, false));
    std::shared_ptr<Storage> shared(std::move(unowned));
    shared->adopt(deleter, ctx, data);
    return shared;
}

void Storage::adopt(Deleter deleter, void *ctx, void *deleter_data) noexcept {
    deleter_ = deleter;
    ctx_ = ctx;
    deleter_data_ = deleter_data;
}

Storage::~Storage() {
    if (owned_)
        aligned_free(allocator_, data_, bytes_, alignment_);
    else if (deleter_ != nullptr)
        deleter_(deleter_data_, ctx_);
}

}  // namespace ng
