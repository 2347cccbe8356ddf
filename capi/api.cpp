// ng_get_api(): the function table for a version of the API.
#include "capi/api_table.h"
#include "capi/boundary.hpp"

extern "C" {

NG_API const ng_api_t *ng_get_api(uint32_t version) {
    return ng::capi::call_returning("ng_get_api", static_cast<const ng_api_t *>(nullptr), [&] {
        if (version == 0) throw ng::invalid_argument("version is 0 (pass NG_API_VERSION)");
        if (version > NG_API_VERSION)
            throw ng::unsupported("version ", version, " is newer than this library's (",
                                  NG_API_VERSION, "): load a newer libnanograph");
        // Every version up to ours is a prefix of the one table: entries are only appended.
        return &nanograph_api_table;
    });
}

}  // extern "C"
