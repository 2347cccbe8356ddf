// Whole files as bytes, for the loaders and writers of serialized formats. Failures throw
// NG_ERR_IO naming the path and the system's reason.
#pragma once

#include <string>

namespace ng {

std::string read_file_bytes(const std::string &path);
void write_file_bytes(const std::string &path, const std::string &bytes);

// Replaces `path` with `bytes` so that, whatever happens (a crash, a full disk, power loss), the
// file holds either its old content or all of the new: the bytes go to a new file beside it
// (same directory, so the rename stays on one file system), which is flushed to the disk (fsync)
// and renamed over `path`; then the directory is flushed so that the rename is durable too.
// On a failure before the rename the new file is removed and `path` is untouched.
void write_file_atomically(const std::string &path, const std::string &bytes);

// Replaces `path` with `bytes` so that, whatever happens (a crash, a full disk, power loss), the
// file holds either its old content or all of the new: the bytes go to a new file beside it
// (same directory, so the rename below stays on one file system), which is flushed to the disk
// (fsync), renamed over `path`, and the directory is flushed so the rename itself is durable.
// On a failure before the rename the new file is removed and `path` is untouched.
void write_file_atomically(const std::string &path, const std::string &bytes);

}  // namespace ng
