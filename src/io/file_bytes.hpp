// Whole files as bytes, for the loaders and writers of serialized formats. Failures throw
// NG_ERR_IO naming the path and the system's reason.
#pragma once

#include <string>

namespace ng {

std::string read_file_bytes(const std::string &path);
void write_file_bytes(const std::string &path, const std::string &bytes);

}  // namespace ng
