// What the strided drivers share: their iteration space (the one strided walker of
// core/strided_space.hpp, fed with Strided operands), the tile length, per-thread scratch and
// strided element moves.
//
// Drivers keep their space in the thread's Scratch (kernels/scratch.hpp) so that a run reuses the
// vectors' capacity and does not allocate after warm-up.
#pragma once

#include <cstdint>
#include <vector>

#include "core/strided_space.hpp"
#include "kernels/kernels.hpp"

namespace ng::kernels {

// Elements per tile of the innermost dimension: a few tiles of doubles fit in L1 together.
constexpr int64_t kTile = 2048;

// The kernels' view of the one strided walker (core/strided_space.hpp): operands come as
// Strided.
class IterationSpace : public StridedSpace {
public:
    // Validates shape (non-negative) and that every operand has one stride per dimension.
    void assign(const char *driver, const std::vector<int64_t> &shape,
                std::initializer_list<const Strided *> first,
                const std::vector<Strided> &rest = {});
};

// Per-thread, 64-byte aligned scratch memory that grows and never shrinks (so a steady-state run
// does not allocate). Each thread has a few independent areas, in its current Scratch
// (kernels/scratch.hpp): throws NG_ERR_INTERNAL on a thread without one.
enum class ScratchArea : int32_t { Tile, Operands, Partials, Row, Panel, Count };
void *thread_scratch(ScratchArea area, size_t bytes);

// Strided copies of n elements of `size` bytes.
void gather(size_t size, int64_t n, const void *src, int64_t src_stride, void *dst);
void scatter(size_t size, int64_t n, const void *src, void *dst, int64_t dst_stride);
// dst[i * dst_stride] = *value for i < n.
void broadcast(size_t size, int64_t n, const void *value, void *dst, int64_t dst_stride);

inline char *advance(void *p, int64_t elements, size_t size) {
    return static_cast<char *>(p) + elements * static_cast<int64_t>(size);
}

}  // namespace ng::kernels
