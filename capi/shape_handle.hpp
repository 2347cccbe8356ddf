// The ng_shape and ng_shape_iter handles. Shapes are immutable, so a handle is a reference count
// around a shared ng::Shape; jagged tensors share the same object.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/shape.hpp"
#include "core/shape_iter.hpp"
#include "nanograph/shape.h"

// Distinct from the magic numbers of graph/op.hpp, so no handle passes for another.
enum : uint32_t {
    kShapeMagic = 0x4e475348u,      // "NGSH"
    kShapeIterMagic = 0x4e475349u,  // "NGSI"
    kJaggedMagic = 0x4e474a41u,     // "NGJA"
    kShapeDeadMagic = 0xdeadbeefu,
};

struct ng_shape {
    uint32_t magic;
    std::atomic<int64_t> refs;
    std::shared_ptr<const ng::Shape> shape;
};

struct ng_shape_iter {
    uint32_t magic;
    ng::ShapeIterator iter;
};

namespace ng::capi {

// The shape behind a handle; throws NG_ERR_INVALID_ARGUMENT naming `arg_name` for NULL or a
// handle that is not a live shape.
const std::shared_ptr<const ng::Shape> &shape_of(const ng_shape_t *h, const char *arg_name);
// A new handle with one reference.
ng_shape_t *new_shape_handle(ng::Shape s);
ng_shape_t *new_shape_handle(std::shared_ptr<const ng::Shape> s);

}  // namespace ng::capi
