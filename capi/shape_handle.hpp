// Shapes at the boundary: the ng_shape handle (capi/handles.hpp) is a reference count around a
// shared, immutable ng::Shape, which jagged tensors share.
#pragma once

#include <memory>

#include "capi/handles.hpp"
#include "core/shape.hpp"
#include "nanograph/shape.h"

namespace ng::capi {

// The shape behind a handle; throws NG_ERR_INVALID_ARGUMENT naming `arg_name` for NULL or a
// handle that is not a live shape.
inline const std::shared_ptr<const ng::Shape> &shape_of(const ng_shape_t *h, const char *arg_name) {
    return checked(h, arg_name)->shape;
}
// A new handle with one reference.
ng_shape_t *new_shape_handle(ng::Shape s);
ng_shape_t *new_shape_handle(std::shared_ptr<const ng::Shape> s);

}  // namespace ng::capi
