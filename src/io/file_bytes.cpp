// Whole-file reads and writes through stdio, checked at every step.
#include "io/file_bytes.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/error.hpp"

namespace ng {
namespace {

struct FileCloser {
    void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Error io_error(const char *what, const std::string &path) {
    return Error(NG_ERR_IO, concat("cannot ", what, " ", path, ": ", std::strerror(errno)));
}

}  // namespace

std::string read_file_bytes(const std::string &path) {
    File f(std::fopen(path.c_str(), "rb"));
    if (!f) throw io_error("open", path);
    std::string bytes;
    char buffer[1 << 16];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0;)
        bytes.append(buffer, n);
    if (std::ferror(f.get())) throw io_error("read", path);
    return bytes;
}

void write_file_bytes(const std::string &path, const std::string &bytes) {
    File f(std::fopen(path.c_str(), "wb"));
    if (!f) throw io_error("create", path);
    if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
        throw io_error("write", path);
    if (std::fclose(f.release()) != 0) throw io_error("close", path);
}

}  // namespace ng
