#include "capi/boundary.hpp"

namespace ng::capi {

void refuse_array(int64_t count, const char *name, const char *count_name) {
    if (count < 0) throw invalid_argument(count_name, " is negative (", count, ")");
    throw invalid_argument(name, " is NULL but ", count_name, " is ", count);
}

}  // namespace ng::capi
