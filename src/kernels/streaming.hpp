// Which outputs a kernel writes with stores that bypass the cache (non-temporal stores). An output
// larger than the last-level cache is evicted before anything reads it back, so caching it only
// costs: the cache reads every line before the kernel overwrites it, a fifth of the memory traffic
// of d = f(a, b, c) and a third of that of b = f(a).
#pragma once

#include <cstdint>
#include <string>

namespace ng::kernels {

// Bytes in a cache size as Linux's sysfs writes it ("32768K", "1M", "512"), or 0 when `text` is
// not one.
int64_t parse_cache_size(const std::string &text);

// The largest cache of the highest level that the first CPU's sysfs entries describe, read once;
// 32 MiB where the system does not say.
int64_t last_level_cache_bytes();

// Whether an output of `bytes` is streamed past the cache: when it is larger than the last-level
// cache.
inline bool streams_output(int64_t bytes) {
    return bytes > last_level_cache_bytes();
}

}  // namespace ng::kernels
