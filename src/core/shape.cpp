#include "core/shape.hpp"

#include <algorithm>
#include <utility>

#include "core/checked_math.hpp"

namespace ng {

namespace {

void check_splits(const std::vector<int64_t> &splits, int64_t rows, int32_t k) {
    if (static_cast<int64_t>(splits.size()) != rows + 1)
        throw invalid_argument("the row splits of mode ", k, " have ", splits.size(),
                               " entries but mode ", k - 1, " has ", rows,
                               " positions (splits need one more)");
    if (splits[0] != 0)
        throw invalid_argument("the row splits of mode ", k, " start at ", splits[0], ", not 0");
    for (size_t i = 1; i < splits.size(); ++i)
        if (splits[i] < splits[i - 1])
            throw invalid_argument("the row splits of mode ", k, " decrease at entry ", i, " (",
                                   splits[i - 1], " then ", splits[i], ")");
}

}  // namespace

Shape Shape::smooth(const Dims &extents) {
    checked_numel(extents, "shape");
    if (extents.empty()) return Shape();
    std::vector<ShapeMode> modes(extents.size() - 1);
    for (size_t k = 1; k < extents.size(); ++k) modes[k - 1].uniform = extents[k];
    return ragged(extents[0], std::move(modes));
}

Shape Shape::ragged(int64_t outer, std::vector<ShapeMode> modes) {
    if (outer < 0) throw invalid_argument("mode 0 has a negative extent (", outer, ")");
    Shape s;
    s.scalar_ = false;
    s.outer_ = outer;
    s.modes_ = std::move(modes);
    s.counts_.assign(1, outer);
    for (size_t i = 0; i < s.modes_.size(); ++i) {
        int32_t k = static_cast<int32_t>(i + 1);
        const ShapeMode &m = s.modes_[i];
        if (m.jagged()) {
            check_splits(m.splits, s.counts_.back(), k);
            s.counts_.push_back(m.splits.back());
        } else {
            if (m.uniform < 0)
                throw invalid_argument("mode ", k, " has a negative extent (", m.uniform, ")");
            s.counts_.push_back(checked_mul(s.counts_.back(), m.uniform, "shape"));
        }
    }
    s.finish();
    return s;
}

void Shape::finish() {
    kind_ = ShapeKind::Smooth;
    for (ShapeMode &m : modes_) {
        if (!m.jagged()) continue;
        int64_t first = m.splits.size() > 1 ? m.splits[1] - m.splits[0] : 0;
        bool equal = true;
        for (size_t p = 1; p + 1 < m.splits.size() && equal; ++p)
            equal = m.splits[p + 1] - m.splits[p] == first;
        if (equal) {
            m.uniform = first;
            m.splits.clear();
        } else {
            kind_ = ShapeKind::Jagged;
        }
    }
    origin_.assign(static_cast<size_t>(rank()), 0);
}

Shape Shape::nested(Shape outer, std::vector<Shape> elements) {
    if (outer.kind() == ShapeKind::Nested)
        throw unsupported("the outer shape of a nested shape may not itself be nested");
    if (static_cast<int64_t>(elements.size()) != outer.numel())
        throw axes_error("the outer shape ", outer.text(), " has ", outer.numel(), " elements but ",
                         elements.size(), " element shapes were given");
    for (size_t i = 1; i < elements.size(); ++i)
        if (elements[i].rank() != elements[0].rank())
            throw axes_error("element shapes have different ranks (element 0 has rank ",
                             elements[0].rank(), ", element ", i, " has rank ", elements[i].rank(),
                             ")");
    int64_t total = 0;
    for (const Shape &e : elements) total = checked_add(total, e.numel(), "nested shape");
    Shape s;
    s.kind_ = ShapeKind::Nested;
    s.scalar_ = outer.scalar_;
    s.outer_ = total;  // unused for nested shapes; numel() reads counts_
    s.counts_.assign(1, total);
    s.nested_outer_ = std::make_shared<const Shape>(std::move(outer));
    s.elements_ = std::move(elements);
    s.origin_.assign(static_cast<size_t>(s.rank()), 0);
    return s;
}

int32_t Shape::rank() const {
    if (kind_ == ShapeKind::Nested)
        return nested_outer_->rank() + (elements_.empty() ? 0 : elements_[0].rank());
    return scalar_ ? 0 : static_cast<int32_t>(modes_.size()) + 1;
}

int64_t Shape::numel() const {
    if (kind_ == ShapeKind::Nested) return counts_[0];
    return scalar_ ? 1 : counts_.back();
}

int64_t Shape::child_start(int32_t k, int64_t p) const {
    const ShapeMode &m = mode(k);
    return m.jagged() ? m.splits[static_cast<size_t>(p)] : p * m.uniform;
}

int64_t Shape::child_count(int32_t k, int64_t p) const {
    const ShapeMode &m = mode(k);
    return m.jagged() ? m.splits[static_cast<size_t>(p) + 1] - m.splits[static_cast<size_t>(p)]
                      : m.uniform;
}

std::vector<int64_t> Shape::row_splits(int32_t k) const {
    const ShapeMode &m = mode(k);
    if (m.jagged()) return m.splits;
    std::vector<int64_t> splits(static_cast<size_t>(count(k - 1)) + 1);
    for (size_t p = 0; p < splits.size(); ++p) splits[p] = static_cast<int64_t>(p) * m.uniform;
    return splits;
}

int64_t Shape::position(const int64_t *prefix, int32_t n) const {
    if (kind_ == ShapeKind::Nested) throw unsupported("flatten a nested shape before indexing it");
    if (n < 1 || n > rank())
        throw invalid_argument("an index prefix of ", n, " entries into a shape of rank ", rank());
    if (prefix[0] < 0 || prefix[0] >= outer_)
        throw invalid_argument("index 0 is ", prefix[0], " but mode 0 has extent ", outer_);
    int64_t p = prefix[0];
    for (int32_t k = 1; k < n; ++k) {
        int64_t c = child_count(k, p);
        if (prefix[k] < 0 || prefix[k] >= c)
            throw invalid_argument("index ", k, " is ", prefix[k], " but mode ", k, " has extent ",
                                   c, " there");
        p = child_start(k, p) + prefix[k];
    }
    return p;
}

int64_t Shape::extent(const int64_t *prefix, int32_t n) const {
    if (kind_ == ShapeKind::Nested) return flatten().extent(prefix, n);
    if (n < 0 || n >= rank())
        throw invalid_argument("mode ", n, " does not exist in a shape of rank ", rank());
    return n == 0 ? outer_ : child_count(n, position(prefix, n));
}

int32_t Shape::smooth_rank() const {
    if (kind_ == ShapeKind::Nested) return flatten().smooth_rank();
    int32_t r = rank();
    if (kind_ == ShapeKind::Smooth) return r;
    // Depth d fixes the first d indices; the slices are smooth when, for every later mode, the
    // rows that descend from one position of mode d-1 all have the same length.
    for (int32_t d = 1; d < r - 1; ++d) {
        bool smooth = true;
        for (int64_t g = 0; g < count(d - 1) && smooth; ++g) {
            int64_t lo = child_start(d, g), hi = lo + child_count(d, g);
            for (int32_t k = d + 1; k < r && smooth; ++k) {
                for (int64_t p = lo + 1; p < hi && smooth; ++p)
                    smooth = child_count(k, p) == child_count(k, lo);
                lo = child_start(k, lo);
                hi = child_start(k, hi);
            }
        }
        if (smooth) return r - d;
    }
    return 1;
}

const Shape &Shape::nested_outer() const {
    if (kind_ != ShapeKind::Nested) throw invalid_argument("the shape ", text(), " is not nested");
    return *nested_outer_;
}

const Shape &Shape::element(int64_t i) const {
    if (kind_ != ShapeKind::Nested) throw invalid_argument("the shape ", text(), " is not nested");
    if (i < 0 || i >= num_elements())
        throw invalid_argument("element ", i, " of a nested shape of ", num_elements(),
                               " elements");
    return elements_[static_cast<size_t>(i)];
}

Shape Shape::flatten() const {
    if (kind_ != ShapeKind::Nested) {
        Shape copy = *this;
        copy.origin_.assign(copy.origin_.size(), 0);
        return copy;
    }
    const Shape &out = *nested_outer_;
    std::vector<Shape> flat;
    flat.reserve(elements_.size());
    for (const Shape &e : elements_) flat.push_back(e.flatten());
    int32_t re = flat.empty() ? 0 : flat[0].rank();
    if (re == 0) return out.flatten();
    if (out.rank() == 0) return flat[0];
    std::vector<ShapeMode> modes(out.modes_);
    // Inner mode 0 hangs off the outer shape's elements; inner mode j off inner mode j-1's
    // positions, element after element.
    ShapeMode first;
    first.splits.assign(1, 0);
    for (const Shape &e : flat) first.splits.push_back(first.splits.back() + e.outer());
    modes.push_back(std::move(first));
    for (int32_t j = 1; j < re; ++j) {
        ShapeMode m;
        m.splits.assign(1, 0);
        for (const Shape &e : flat)
            for (int64_t p = 0; p < e.count(j - 1); ++p)
                m.splits.push_back(m.splits.back() + e.child_count(j, p));
        modes.push_back(std::move(m));
    }
    return ragged(out.outer(), std::move(modes));
}

void Shape::last_mode_span(int32_t depth, int64_t lo, int64_t hi, int64_t &first,
                           int64_t &last) const {
    for (int32_t k = depth + 1; k < rank(); ++k) {
        lo = child_start(k, lo);
        hi = child_start(k, hi);
    }
    first = lo;
    last = hi;
}

Shape Shape::range(int64_t start, int64_t stop) const {
    if (kind_ == ShapeKind::Nested) throw unsupported("flatten a nested shape before slicing it");
    if (rank() == 0) throw invalid_argument("a shape of rank 0 has no mode to slice");
    if (start < 0 || stop < start || stop > outer_)
        throw invalid_argument("the range [", start, ", ", stop,
                               ") is not within mode 0 of extent ", outer_);
    std::vector<ShapeMode> modes(modes_.size());
    int64_t lo = start, hi = stop;
    for (int32_t k = 1; k < rank(); ++k) {
        const ShapeMode &m = mode(k);
        ShapeMode &out = modes[static_cast<size_t>(k - 1)];
        out.uniform = m.uniform;
        if (m.jagged())
            for (int64_t p = lo; p <= hi; ++p)
                out.splits.push_back(m.splits[static_cast<size_t>(p)] -
                                     m.splits[static_cast<size_t>(lo)]);
        lo = child_start(k, lo);
        hi = child_start(k, hi);
    }
    Shape s = ragged(stop - start, std::move(modes));
    s.origin_ = origin_;
    s.origin_[origin_.size() - static_cast<size_t>(rank())] += start;
    return s;
}

Shape Shape::at(const int64_t *prefix, int32_t n) const {
    if (kind_ == ShapeKind::Nested) throw unsupported("flatten a nested shape before slicing it");
    if (n < 0 || n > rank())
        throw invalid_argument("an index prefix of ", n, " entries into a shape of rank ", rank());
    Shape s;
    if (n == 0) {
        s = *this;
    } else if (n < rank()) {
        int64_t p = position(prefix, n);
        int64_t lo = child_start(n, p), hi = lo + child_count(n, p);
        std::vector<ShapeMode> modes;
        for (int32_t k = n + 1; k < rank(); ++k) {
            const ShapeMode &m = mode(k);
            ShapeMode out;
            out.uniform = m.uniform;
            if (m.jagged())
                for (int64_t q = lo; q <= hi; ++q)
                    out.splits.push_back(m.splits[static_cast<size_t>(q)] -
                                         m.splits[static_cast<size_t>(lo)]);
            modes.push_back(std::move(out));
            lo = child_start(k, lo);
            hi = child_start(k, hi);
        }
        s = ragged(child_count(n, p), std::move(modes));
    } else {
        position(prefix, n);  // checks the full index
    }
    s.origin_ = origin_;
    size_t base = origin_.size() - static_cast<size_t>(rank());
    for (int32_t i = 0; i < n; ++i) s.origin_[base + static_cast<size_t>(i)] += prefix[i];
    return s;
}

bool Shape::operator==(const Shape &other) const {
    if (kind_ != other.kind_ || rank() != other.rank() || numel() != other.numel()) return false;
    if (kind_ == ShapeKind::Nested)
        return *nested_outer_ == *other.nested_outer_ && elements_ == other.elements_;
    if (scalar_) return true;
    if (outer_ != other.outer_) return false;
    for (size_t i = 0; i < modes_.size(); ++i)
        if (modes_[i].uniform != other.modes_[i].uniform ||
            modes_[i].splits != other.modes_[i].splits)
            return false;
    return true;
}

std::string Shape::text() const {
    if (kind_ == ShapeKind::Nested)
        return concat("{", nested_outer_->text(), " of ", elements_.size(), " shapes of rank ",
                      elements_.empty() ? 0 : elements_[0].rank(), "}");
    std::string out = "(";
    for (int32_t k = 0; k < rank(); ++k) {
        if (k > 0) out += ", ";
        if (k == 0 || !mode(k).jagged()) {
            out += std::to_string(k == 0 ? outer_ : mode(k).uniform);
            continue;
        }
        out += "[";
        const std::vector<int64_t> &sp = mode(k).splits;
        for (size_t p = 0; p + 1 < sp.size(); ++p) {
            if (p == 6 && sp.size() > 8) {
                out += " ...";
                break;
            }
            out += (p ? " " : "") + std::to_string(sp[p + 1] - sp[p]);
        }
        out += "]";
    }
    return out + ")";
}

Shape broadcast_shapes(const Shape &a, const Shape &b) {
    if (a.kind() == ShapeKind::Nested || b.kind() == ShapeKind::Nested)
        throw unsupported("nested shapes do not combine: flatten them first");
    if (a.kind() == ShapeKind::Jagged && b.kind() == ShapeKind::Jagged) {
        if (a != b) throw axes_error("the jagged shapes ", a.text(), " and ", b.text(), " differ");
        return a.flatten();
    }
    if (a.kind() == ShapeKind::Smooth && b.kind() == ShapeKind::Smooth) {
        int32_t r = std::max(a.rank(), b.rank());
        Dims out(static_cast<size_t>(r));
        for (int32_t i = 0; i < r; ++i) {
            int32_t ia = a.rank() - r + i, ib = b.rank() - r + i;
            int64_t ea = ia >= 0 ? (ia == 0 ? a.outer() : a.mode(ia).uniform) : 1;
            int64_t eb = ib >= 0 ? (ib == 0 ? b.outer() : b.mode(ib).uniform) : 1;
            if (ea != eb && ea != 1 && eb != 1)
                throw axes_error("the shapes ", a.text(), " and ", b.text(),
                                 " do not combine: extents ", ea, " and ", eb);
            out[static_cast<size_t>(i)] = ea == 1 ? eb : ea;
        }
        return Shape::smooth(out);
    }
    const Shape &j = a.kind() == ShapeKind::Jagged ? a : b;
    const Shape &s = a.kind() == ShapeKind::Jagged ? b : a;
    if (s.rank() > j.rank())
        throw axes_error("the smooth shape ", s.text(), " has a higher rank than the jagged shape ",
                         j.text());
    for (int32_t i = 0; i < s.rank(); ++i) {
        int32_t m = j.rank() - s.rank() + i;
        int64_t e = i == 0 ? s.outer() : s.mode(i).uniform;
        if (e == 1) continue;
        bool ok = m == 0 ? e == j.outer() : !j.mode(m).jagged() && j.mode(m).uniform == e;
        if (!ok)
            throw axes_error("the shapes ", a.text(), " and ", b.text(), " do not combine: mode ",
                             m, " of the jagged shape does not have extent ", e);
    }
    return j.flatten();
}

}  // namespace ng
