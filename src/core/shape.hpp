// Shapes as values: smooth (a hyper-rectangle), jagged (slices along a mode differ in extent)
// and nested (a shape whose elements are shapes). See docs/shapes.md.
//
// A smooth or jagged shape of rank r is stored mode by mode, like a ragged tensor's row
// partition: mode 0 has one extent; every later mode k is either uniform (each position of mode
// k-1 has the same number of children) or jagged, with row splits over the positions of mode
// k-1 (splits[p+1] - splits[p] children for position p). Nothing is ever padded: the storage is
// proportional to the number of rows, and the number of elements is the number of positions of
// the last mode. Shapes are normalised on construction, so a "jagged" mode whose rows all have
// the same length is stored as uniform: a shape is jagged only if it truly is, and two shapes are
// equal exactly when they describe the same index set with the same mode structure.
//
// A slice remembers its origin: the index, in the coordinates of the shape it was first cut
// from (its root), of the slice's element (0, ..., 0). The slice's modes are the root's last
// rank() modes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/tensor.hpp"

namespace ng {

enum class ShapeKind : int32_t { Smooth = 0, Jagged = 1, Nested = 2 };

// One mode after the first: uniform extent, or row splits over the previous mode's positions.
struct ShapeMode {
    int64_t uniform = 0;          // the extent when splits is empty
    std::vector<int64_t> splits;  // non-empty: jagged, previous count + 1 entries, from 0
    bool jagged() const { return !splits.empty(); }
};

class Shape {
public:
    // Rank 0 smooth shape (one element).
    Shape() = default;
    // A smooth shape; throws NG_ERR_INVALID_ARGUMENT for a negative or overflowing extent.
    static Shape smooth(const Dims &extents);
    // A smooth or jagged shape: `outer` is mode 0's extent, `modes` modes 1 .. rank-1. Checks
    // every splits array (count, starts at 0, non-decreasing) and normalises.
    static Shape ragged(int64_t outer, std::vector<ShapeMode> modes);
    // A nested shape: `elements` holds numel(outer) shapes of one rank, in the order of the
    // outer shape's iteration. `outer` may not itself be nested; elements may.
    static Shape nested(Shape outer, std::vector<Shape> elements);

    ShapeKind kind() const { return kind_; }
    // Total rank (a nested shape: the outer rank plus the elements' rank).
    int32_t rank() const;
    int64_t numel() const;

    // Smooth and jagged shapes: mode 0's extent, and the description of mode k >= 1.
    int64_t outer() const { return outer_; }
    const ShapeMode &mode(int32_t k) const { return modes_.at(static_cast<size_t>(k - 1)); }
    // The number of positions of mode k (mode 0: outer(); the last mode: numel()).
    int64_t count(int32_t k) const { return counts_.at(static_cast<size_t>(k)); }
    // First child (in mode k) of position p of mode k-1, and its number of children.
    int64_t child_start(int32_t k, int64_t p) const;
    int64_t child_count(int32_t k, int64_t p) const;
    // The row splits of mode k >= 1 over mode k-1's positions, implicit for a uniform mode.
    std::vector<int64_t> row_splits(int32_t k) const;

    // The extent of mode n in the slice at index `prefix` (n entries, each checked).
    int64_t extent(const int64_t *prefix, int32_t n) const;
    // The position in mode n-1 of index `prefix` (n >= 1 entries), checked.
    int64_t position(const int64_t *prefix, int32_t n) const;
    // The rank s of the largest smooth slices: every slice obtained by fixing the first r - s
    // indices is a hyper-rectangle. A jagged shape has r - s layers; a smooth one has s = r.
    int32_t smooth_rank() const;

    // Nested shapes.
    const Shape &nested_outer() const;
    const Shape &element(int64_t i) const;
    int64_t num_elements() const { return static_cast<int64_t>(elements_.size()); }
    // The same index set as one smooth or jagged shape (a copy for one that is not nested):
    // outer modes first, then the elements' modes. Loses the partition of modes.
    Shape flatten() const;

    // Slices (not of nested shapes: flatten first). `range` keeps every mode and takes
    // positions [start, stop) of mode 0; `at` fixes the first n indices (n <= rank) and keeps
    // the rest. Both record the origin.
    Shape range(int64_t start, int64_t stop) const;
    Shape at(const int64_t *prefix, int32_t n) const;
    // The positions [first, last) of the last mode that a shape obtained by range/at covers in
    // this shape: where a slice's values are in a flat value array.
    void last_mode_span(int32_t depth, int64_t lo, int64_t hi, int64_t &first, int64_t &last) const;

    // The origin in the root's coordinates (root rank entries; zeros for an unsliced shape).
    const Dims &origin() const { return origin_; }
    int32_t root_rank() const { return static_cast<int32_t>(origin_.size()); }

    // Same kind, same mode structure and extents, same elements (origins are not compared).
    bool operator==(const Shape &other) const;
    bool operator!=(const Shape &other) const { return !(*this == other); }

    // "(3, [2 1 4])": extents, a jagged mode as its row lengths (long ones abbreviated).
    std::string text() const;

private:
    void finish();  // normalises jagged modes, computes counts and kind, zero origin

    ShapeKind kind_ = ShapeKind::Smooth;
    int64_t outer_ = 1;
    bool scalar_ = true;            // rank 0 (then outer_ is meaningless)
    std::vector<ShapeMode> modes_;  // modes 1 .. rank-1
    std::vector<int64_t> counts_;   // positions per mode
    Dims origin_;
    // nested
    std::shared_ptr<const Shape> nested_outer_;
    std::vector<Shape> elements_;
};

// Combines the shapes of two operands of an elementwise op (docs/shapes.md, "Combining
// shapes"): trailing modes are aligned; an extent 1 of a smooth operand stretches; a jagged
// operand combines with a jagged one only when they are equal, and with a smooth one whose
// aligned modes are 1 or equal a uniform mode. Throws NG_ERR_AXES naming both shapes, or
// NG_ERR_UNSUPPORTED for nested shapes (flatten them first).
Shape broadcast_shapes(const Shape &a, const Shape &b);

}  // namespace ng
