// What a computation's parameter or result looks like from outside (name, dtype, axes), copied
// out of the graph when the computation is compiled so that it can describe itself after the
// graph is gone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "graph/op.hpp"

namespace ng {

struct ValueInfo {
    std::string name;
    DType dtype = 0;
    std::vector<std::string> axis_names;
    std::vector<int64_t> axis_lengths;
};

std::vector<ValueInfo> describe_values(const std::vector<const Op *> &ops);

}  // namespace ng
