#include "kernels/scratch.hpp"

#include <algorithm>
#include <new>

namespace ng::kernels {

namespace {
thread_local Scratch *current = nullptr;  // a plain pointer: nothing to destroy at thread exit
}  // namespace

void Scratch::AlignedFree::operator()(unsigned char *p) const {
    ::operator delete(p, std::align_val_t(64));
}

Scratch *current_scratch() noexcept {
    return current;
}

ScratchScope::ScratchScope(Scratch &s) noexcept : slot_(&current), previous_(*slot_) {
    *slot_ = &s;
}

ScratchScope::~ScratchScope() {
    *slot_ = previous_;
}

void *thread_scratch(ScratchArea area, size_t bytes) {
    Scratch *s = current;
    if (s == nullptr) throw internal_error("thread_scratch: no scratch installed on this thread");
    return scratch_buffer(*s, area, bytes);
}

void *scratch_buffer(Scratch &s, ScratchArea area, size_t bytes) {
    Scratch::Buffer &b = s.buffers[static_cast<int>(area)];
    if (bytes > b.bytes) {
        size_t grown = std::max(bytes, b.bytes * 2);
        b.data.reset(static_cast<unsigned char *>(::operator new(grown, std::align_val_t(64))));
        b.bytes = grown;
    }
    return b.data.get();
}

}  // namespace ng::kernels
