// C API of checkpoints (include/nanograph/checkpoint.h).
#include "capi/boundary.hpp"
#include "capi/transformer_handle.hpp"
#include "io/checkpoint.hpp"
#include "nanograph/checkpoint.h"

extern "C" {

NG_API ng_status_t ng_transformer_save(ng_transformer_t *t, const char *path) {
    return ng::capi::call("ng_transformer_save", [&] {
        ng::Transformer &tr = ng::capi::transformer_of(t, "t");
        ng::io::save_checkpoint(tr, ng::capi::require(path, "path"));
    });
}

NG_API ng_status_t ng_transformer_load(ng_transformer_t *t, const char *path) {
    return ng::capi::call("ng_transformer_load", [&] {
        ng::Transformer &tr = ng::capi::transformer_of(t, "t");
        ng::io::load_checkpoint(tr, ng::capi::require(path, "path"));
    });
}

}  // extern "C"
