#include "kernels/streaming.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>

namespace ng::kernels {

int64_t parse_cache_size(const std::string &text) {
    size_t at = 0;
    int64_t value = 0;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
        if (value > (int64_t(1) << 40)) return 0;  // no cache is a terabyte
        value = value * 10 + (text[at++] - '0');
    }
    if (at == 0) return 0;
    int64_t unit = 1;
    if (at < text.size()) {
        const char suffix = text[at];
        const int shift = suffix == 'K' ? 10 : suffix == 'M' ? 20 : suffix == 'G' ? 30 : -1;
        if (shift >= 0) {
            unit = int64_t(1) << shift;
            ++at;
        }
    }
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    return at == text.size() ? value * unit : 0;
}

namespace {

// The first line of a small sysfs file, or "" when it cannot be read. POSIX reads rather than
// iostreams: a first iostream sets up the C++ locale, a third of a MiB of pages in a process
// that had no other use for it.
std::string read_line(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "";
    char text[64];
    const ssize_t got = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (got <= 0) return "";
    const std::string all(text, size_t(got));
    return all.substr(0, all.find('\n'));
}

int64_t read_last_level_cache_bytes() {
    int64_t best_level = 0, best = 0;
    // index0, index1, ... until one is missing; a machine has a handful.
    for (int index = 0; index < 16; ++index) {
        const std::string dir =
            "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
        const int64_t level = parse_cache_size(read_line(dir + "level"));
        const int64_t size = parse_cache_size(read_line(dir + "size"));
        if (level == 0) break;
        if (size > 0 && (level > best_level || (level == best_level && size > best))) {
            best_level = level;
            best = size;
        }
    }
    return best;
}

}  // namespace

int64_t chosen_cache_bytes(const char *setting, int64_t found) {
    const int64_t set = setting ? parse_cache_size(setting) : 0;
    return set > 0 ? set : found > 0 ? found : int64_t(32) << 20;
}

int64_t last_level_cache_bytes() {
    static const int64_t bytes =
        chosen_cache_bytes(std::getenv(kCacheSizeVariable), read_last_level_cache_bytes());
    return bytes;
}

}  // namespace ng::kernels
