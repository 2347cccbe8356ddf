#include "capi/handles.hpp"

#include <string>

#include "core/error.hpp"

namespace ng::capi {
namespace {

// The name of the handle type whose tag is `tag`; null when it is none.
const char *handle_name(uint32_t tag) noexcept {
#define NG_NAME_OF_TAG(Handle, Object, Tag, Name) \
    if (tag == (Tag)) return Name;
    NG_CAPI_HANDLES(NG_NAME_OF_TAG)
#undef NG_NAME_OF_TAG
    return nullptr;
}

}  // namespace

void refuse_handle(const void *h, const char *arg, int64_t index, uint32_t expected) {
    const std::string name = index < 0 ? std::string(arg) : concat(arg, "[", index, "]");
    if (h == nullptr) throw invalid_argument(name, " is NULL");
    const char *wanted = handle_name(expected);
    if (const char *found = handle_name(tag_at(h)))
        throw invalid_argument(name, " is not a live ", wanted, " handle (it is a live ", found,
                               " handle)");
    throw invalid_argument(name, " is not a live ", wanted,
                           " handle (it was destroyed, or it is not a nanograph handle)");
}

}  // namespace ng::capi
