// Whole-file reads and writes through stdio, checked at every step.
#include "io/file_bytes.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
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

// A file operation that failed for lack of memory (fopen allocates its buffer, the kernel its
// structures) is out of memory like any other allocation, not an I/O error.
Error io_error(const char *what, const std::string &path) {
    const int error = errno;
    return Error(error == ENOMEM ? NG_ERR_OUT_OF_MEMORY : NG_ERR_IO,
                 concat("cannot ", what, " ", path, ": ", std::strerror(error)));
}

// A file descriptor closed on every path out.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    ~Descriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    // Closes now and says whether that worked (a delayed write error can surface only here).
    bool close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0;
    }

private:
    int fd_;
};

// The directory that holds `path`, whose entry the rename changes.
std::string directory_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Opens a new file beside `path`, created exclusively (never someone else's file) with the
// permissions the umask gives new files; its name goes to `name`.
int create_beside(const std::string &path, std::string &name) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        name = concat(path, ".tmp.", ::getpid(), ".", counter++);
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST) break;
    }
    throw io_error("create a file beside", path);
}

void write_all(int fd, const std::string &bytes, const std::string &name) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw io_error("write", name);
        done += static_cast<size_t>(n);
    }
}

void write_and_rename(const std::string &temporary, int fd, const std::string &path,
                      const std::string &bytes) {
    Descriptor file(fd);
    write_all(file.get(), bytes, temporary);
    if (::fsync(file.get()) != 0) throw io_error("flush", temporary);
    if (!file.close()) throw io_error("close", temporary);
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw io_error("replace", path);
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

void write_file_atomically(const std::string &path, const std::string &bytes) {
    std::string temporary;
    const int fd = create_beside(path, temporary);
    try {
        write_and_rename(temporary, fd, path, bytes);
    } catch (...) {
        ::unlink(temporary.c_str());
        throw;
    }
    // The new content is in place; make the directory entry durable too. File systems that
    // cannot flush a directory say EINVAL: there is nothing more to do on those.
    const std::string directory = directory_of(path);
    Descriptor dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0) throw io_error("open the directory", directory);
    if (::fsync(dir.get()) != 0 && errno != EINVAL)
        throw io_error("flush the directory", directory);
}

}  // namespace ng
