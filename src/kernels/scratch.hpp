// Memory the kernel drivers reuse from call to call, so that a warm run allocates nothing.
//
// Each thread that runs kernels has one current Scratch: a pool worker owns one for its whole
// life, a thread running a computation uses the one its executor owns (ScratchScope), and a
// thread calling a driver with none installed gets a temporary one for that call. Only a plain
// pointer is thread_local: a thread_local object with a destructor would keep the library mapped
// after dlclose() for as long as the thread lives, and glibc aborts the process when it cannot
// allocate the record of that destructor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/iteration.hpp"
#include "kernels/kernels.hpp"
#include "kernels/prepared.hpp"

namespace ng::kernels {

struct Scratch {
    struct AlignedFree {
        void operator()(unsigned char *p) const;
    };
    // 64-byte aligned, grows and never shrinks (see thread_scratch()).
    struct Buffer {
        std::unique_ptr<unsigned char, AlignedFree> data;
        size_t bytes = 0;
    };

    // The drivers' plans (kernels/prepared.hpp), prepared again at each call.
    struct {
        ElementwisePlan plan;
        std::vector<void *> bases;
    } elementwise;
    struct {
        ElementwisePlan plan;
    } copy;
    struct {
        IterationSpace space;
        std::vector<int64_t> kept_shape;
        Strided kept_in, kept_out;
    } arg_reduce;
    struct {
        IterationSpace space;
        Strided marker;
    } softmax;
    struct {
        IterationSpace space;
    } one_hot;
    struct {
        ReducePlan plan;
        std::vector<void *> bases;
    } reduce;
    Buffer buffers[static_cast<int>(ScratchArea::Count)];
};

// The calling thread's current scratch, or null.
Scratch *current_scratch() noexcept;

// thread_scratch() (kernels/iteration.hpp) of a given scratch: for a caller that holds it already.
void *scratch_buffer(Scratch &s, ScratchArea area, size_t bytes);

// Makes `s` the calling thread's scratch until the scope ends (then the previous one again).
class ScratchScope {
public:
    explicit ScratchScope(Scratch &s) noexcept;
    ~ScratchScope();
    ScratchScope(const ScratchScope &) = delete;
    ScratchScope &operator=(const ScratchScope &) = delete;

private:
    // The thread's slot, found once: each access to a thread_local from a shared library calls
    // into the dynamic linker, and the destructor then needs none.
    Scratch **slot_;
    Scratch *previous_;
};

// Calls body(scratch) with the calling thread's scratch, or with a temporary one installed for
// the call when the thread has none.
template <class Body>
void with_scratch(Body &&body) {
    if (Scratch *s = current_scratch()) return body(*s);
    Scratch temporary;
    ScratchScope scope(temporary);
    body(temporary);
}

}  // namespace ng::kernels
