// Index iteration over any shape, in row-major order (the order of a jagged tensor's values).
// Allocates once, when made; each step costs O(rank) plus the empty rows it skips.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/shape.hpp"

namespace ng {

class ShapeIterator {
public:
    // `absolute`: indices in the root's coordinates (origin added, root rank entries); otherwise
    // offsets from zero (rank entries). A nested shape is iterated as its flattening.
    ShapeIterator(std::shared_ptr<const Shape> shape, bool absolute);

    // Entries written by next().
    int32_t index_length() const;
    // Writes the next index and returns true, or returns false once every index was given.
    bool next(int64_t *index);
    // Starts again from the first index.
    void reset();
    // How many indices next() has given since the start.
    int64_t position() const { return next_; }

private:
    std::shared_ptr<const Shape> shape_;
    bool absolute_;
    int64_t next_ = 0;
    std::vector<int64_t> pos_;  // the current position in every mode
};

}  // namespace ng
