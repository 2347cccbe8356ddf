// Which outputs a kernel writes with stores that bypass the cache (non-temporal stores). The cache
// reads every line before a kernel overwrites it: a fifth of the memory traffic of d = f(a, b, c),
// a third of that of b = f(a). When what a kernel reads and writes in all fills half the
// last-level cache, little of its output is left in the cache for what comes next, so that read
// is all that caching it buys, and streaming it saves the read.
#pragma once

#include <xmmintrin.h>

#include <cstdint>
#include <string>

namespace ng::kernels {

// Bytes in a cache size as Linux's sysfs writes it ("32768K", "1M", "512"), or 0 when `text` is
// not one.
int64_t parse_cache_size(const std::string &text);

// The environment variable that sets the last-level cache's size (in parse_cache_size's form),
// for machines whose sysfs does not tell what a process gets (a virtual machine's host's cache).
constexpr char kCacheSizeVariable[] = "NANOGRAPH_CACHE_SIZE";

// The cache size to plan for: `setting` (kCacheSizeVariable's value, or null) when it is a size,
// else `found` (what sysfs describes, 0 for nothing) when positive, else 32 MiB.
int64_t chosen_cache_bytes(const char *setting, int64_t found);

// chosen_cache_bytes of kCacheSizeVariable and the largest cache of the highest level that the
// first CPU's sysfs entries describe; read once.
int64_t last_level_cache_bytes();

// Whether a kernel's output is streamed past the cache, given the bytes the kernel touches: its
// output's and each input's (an input broadcast along a dimension counted once along it). When
// they are at least half the last-level cache. Counting the output alone (an output of half the
// cache) left a 2^24-float tanh(a * b + c) * 0.5 + a writing through the cache on a virtual
// machine that reports its host's much larger cache, which is slower than streaming it at one and
// at two threads (bench_ab --only tanh_fma).
inline bool streams_output(int64_t touched_bytes) {
    return touched_bytes >= last_level_cache_bytes() / 2;
}

// The elements before the first 64-byte boundary at or after `p`, for an array of elements of
// `size` bytes that starts inside a line (a NumPy array's data starts 16 bytes into its
// allocation); 0 when it starts on a boundary or no element lies on one. Stores past the cache
// write whole vectors at vector boundaries, so a streamed output starts there.
inline int64_t elements_to_line(const void *p, size_t size) {
    const auto into = reinterpret_cast<uintptr_t>(p) % 64;
    return into == 0 || into % size != 0 ? 0 : int64_t((64 - into) / size);
}

// Makes a thread's stores that bypassed the cache visible to other threads, as its ordinary stores
// are: once after the last of a run of them, before the thread signals that it is done (an
// sfence waits for the write-combining buffers to drain; after every tile of 2048 values it made
// a streamed chain slower: bench_ab --threads 1 --only tanh_fma).
inline void fence_streamed_stores() {
    _mm_sfence();
}

}  // namespace ng::kernels
