#include "core/shape_iter.hpp"

#include <utility>

namespace ng {

ShapeIterator::ShapeIterator(std::shared_ptr<const Shape> shape, bool absolute)
    : shape_(shape->kind() == ShapeKind::Nested ? std::make_shared<const Shape>(shape->flatten())
                                                : std::move(shape)),
      absolute_(absolute),
      pos_(static_cast<size_t>(shape_->rank()), 0) {}

int32_t ShapeIterator::index_length() const {
    return absolute_ ? shape_->root_rank() : shape_->rank();
}

void ShapeIterator::reset() {
    next_ = 0;
    pos_.assign(pos_.size(), 0);
}

bool ShapeIterator::next(int64_t *index) {
    if (next_ >= shape_->numel()) return false;
    const Shape &s = *shape_;
    int32_t r = s.rank();
    size_t base = 0;
    if (absolute_) {
        base = s.origin().size() - static_cast<size_t>(r);
        for (size_t i = 0; i < s.origin().size(); ++i) index[i] = s.origin()[i];
    } else {
        for (int32_t k = 0; k < r; ++k) index[k] = 0;
    }
    if (r > 0) {
        // The element is position next_ of the last mode; every mode above moves forward (past
        // empty rows) until its current position is the one that contains the mode below's.
        pos_[static_cast<size_t>(r - 1)] = next_;
        for (int32_t k = r - 1; k >= 1; --k) {
            int64_t &parent = pos_[static_cast<size_t>(k - 1)];
            while (pos_[static_cast<size_t>(k)] >= s.child_start(k, parent + 1)) ++parent;
        }
        index[base] += pos_[0];
        for (int32_t k = 1; k < r; ++k)
            index[base + static_cast<size_t>(k)] +=
                pos_[static_cast<size_t>(k)] - s.child_start(k, pos_[static_cast<size_t>(k - 1)]);
    }
    ++next_;
    return true;
}

}  // namespace ng
