// Shapes and their iterators through the C API.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "capi/boundary.hpp"
#include "capi/shape_handle.hpp"

using ng::capi::call;
using ng::capi::call_returning;
using ng::capi::new_shape_handle;
using ng::capi::require;
using ng::capi::require_array;
using ng::capi::shape_of;

namespace ng::capi {

ng_shape_t *new_shape_handle(std::shared_ptr<const ng::Shape> s) {
    return new ng_shape{kTag<ng_shape_t>, {1}, std::move(s)};
}

ng_shape_t *new_shape_handle(ng::Shape s) {
    return new_shape_handle(std::make_shared<const ng::Shape>(std::move(s)));
}

}  // namespace ng::capi

namespace {

const ng::Shape &not_nested(const ng_shape_t *s) {
    const ng::Shape &shape = *shape_of(s, "s");
    if (shape.kind() == ng::ShapeKind::Nested)
        throw ng::invalid_argument("s is nested: flatten it first");
    return shape;
}

void check_mode(const ng::Shape &s, int32_t mode, int32_t lowest) {
    if (mode < lowest || mode >= s.rank())
        throw ng::invalid_argument("mode is ", mode, " but the shape ", s.text(), " has rank ",
                                   s.rank());
}

}  // namespace

extern "C" {

NG_API ng_shape_t *ng_shape_smooth(const int64_t *extents, int32_t rank) {
    return call_returning("ng_shape_smooth", (ng_shape_t *)nullptr, [&] {
        require_array(extents, rank, "extents", "rank");
        return new_shape_handle(
            ng::Shape::smooth(rank == 0 ? ng::Dims{} : ng::Dims(extents, extents + rank)));
    });
}

NG_API ng_shape_t *ng_shape_jagged(int64_t outer, int32_t rank, const int64_t *const *splits,
                                   const int64_t *num_splits, const int64_t *extents) {
    return call_returning("ng_shape_jagged", (ng_shape_t *)nullptr, [&] {
        if (rank < 1) throw ng::invalid_argument("rank is ", rank, ", not >= 1");
        std::vector<ng::ShapeMode> modes(static_cast<size_t>(rank - 1));
        for (int32_t k = 1; k < rank; ++k) {
            ng::ShapeMode &m = modes[static_cast<size_t>(k - 1)];
            if (splits != nullptr && splits[k - 1] != nullptr) {
                require(num_splits, "num_splits");
                int64_t n = num_splits[k - 1];
                if (n < 1)
                    throw ng::invalid_argument("num_splits[", k - 1, "] is ", n,
                                               ": row splits have at least one entry");
                m.splits.assign(splits[k - 1], splits[k - 1] + n);
            } else {
                if (extents == nullptr)
                    throw ng::invalid_argument("extents is NULL but mode ", k,
                                               " has no row splits");
                m.uniform = extents[k - 1];
            }
        }
        return new_shape_handle(ng::Shape::ragged(outer, std::move(modes)));
    });
}

NG_API ng_shape_t *ng_shape_nested(const ng_shape_t *outer, const ng_shape_t *const *elements,
                                   int64_t num_elements) {
    return call_returning("ng_shape_nested", (ng_shape_t *)nullptr, [&] {
        const ng::Shape &o = *shape_of(outer, "outer");
        require_array(elements, num_elements, "elements", "num_elements");
        std::vector<ng::Shape> inner;
        inner.reserve(static_cast<size_t>(num_elements));
        for (int64_t i = 0; i < num_elements; ++i)
            inner.push_back(
                *ng::capi::checked_at(elements, static_cast<size_t>(i), "elements")->shape);
        return new_shape_handle(ng::Shape::nested(o, std::move(inner)));
    });
}

NG_API void ng_shape_retain(ng_shape_t *s) {
    if (ng::capi::live_or_null(s)) s->refs.fetch_add(1, std::memory_order_relaxed);
}

NG_API void ng_shape_release(ng_shape_t *s) {
    if (!ng::capi::live_or_null(s)) return;
    if (s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    s->tag = 0;
    delete s;
}

NG_API int32_t ng_shape_kind(const ng_shape_t *s) {
    return call_returning("ng_shape_kind", int32_t{-1},
                          [&] { return static_cast<int32_t>(shape_of(s, "s")->kind()); });
}

NG_API int32_t ng_shape_rank(const ng_shape_t *s) {
    return call_returning("ng_shape_rank", int32_t{-1}, [&] { return shape_of(s, "s")->rank(); });
}

NG_API int64_t ng_shape_numel(const ng_shape_t *s) {
    return call_returning("ng_shape_numel", int64_t{-1}, [&] { return shape_of(s, "s")->numel(); });
}

NG_API int64_t ng_shape_extent(const ng_shape_t *s, const int64_t *prefix, int32_t n) {
    return call_returning("ng_shape_extent", int64_t{-1}, [&] {
        const ng::Shape &shape = *shape_of(s, "s");
        check_mode(shape, n, 0);
        require_array(prefix, n, "prefix", "n");
        return shape.extent(prefix, n);
    });
}

NG_API int32_t ng_shape_mode_is_jagged(const ng_shape_t *s, int32_t mode) {
    return call_returning("ng_shape_mode_is_jagged", int32_t{-1}, [&] {
        const ng::Shape &shape = not_nested(s);
        check_mode(shape, mode, 0);
        return mode > 0 && shape.mode(mode).jagged() ? 1 : 0;
    });
}

NG_API int32_t ng_shape_smooth_rank(const ng_shape_t *s) {
    return call_returning("ng_shape_smooth_rank", int32_t{-1},
                          [&] { return shape_of(s, "s")->smooth_rank(); });
}

NG_API int64_t ng_shape_row_splits(const ng_shape_t *s, int32_t mode, int64_t *out, int64_t cap) {
    return call_returning("ng_shape_row_splits", int64_t{-1}, [&] {
        const ng::Shape &shape = not_nested(s);
        check_mode(shape, mode, 1);
        require_array(out, cap, "out", "cap");
        std::vector<int64_t> splits = shape.row_splits(mode);
        int64_t n = static_cast<int64_t>(splits.size());
        for (int64_t i = 0; i < n && i < cap; ++i) out[i] = splits[static_cast<size_t>(i)];
        return n;
    });
}

NG_API int32_t ng_shape_equal(const ng_shape_t *a, const ng_shape_t *b) {
    return call_returning("ng_shape_equal", int32_t{-1},
                          [&] { return *shape_of(a, "a") == *shape_of(b, "b") ? 1 : 0; });
}

NG_API ng_shape_t *ng_shape_flatten(const ng_shape_t *s) {
    return call_returning("ng_shape_flatten", (ng_shape_t *)nullptr,
                          [&] { return new_shape_handle(shape_of(s, "s")->flatten()); });
}

NG_API ng_shape_t *ng_shape_outer(const ng_shape_t *s) {
    return call_returning("ng_shape_outer", (ng_shape_t *)nullptr,
                          [&] { return new_shape_handle(shape_of(s, "s")->nested_outer()); });
}

NG_API ng_shape_t *ng_shape_element(const ng_shape_t *s, int64_t i) {
    return call_returning("ng_shape_element", (ng_shape_t *)nullptr,
                          [&] { return new_shape_handle(shape_of(s, "s")->element(i)); });
}

NG_API ng_shape_t *ng_shape_slice(const ng_shape_t *s, int64_t start, int64_t stop) {
    return call_returning("ng_shape_slice", (ng_shape_t *)nullptr,
                          [&] { return new_shape_handle(shape_of(s, "s")->range(start, stop)); });
}

NG_API ng_shape_t *ng_shape_at(const ng_shape_t *s, const int64_t *prefix, int32_t n) {
    return call_returning("ng_shape_at", (ng_shape_t *)nullptr, [&] {
        const ng::Shape &shape = *shape_of(s, "s");
        require_array(prefix, n, "prefix", "n");
        return new_shape_handle(shape.at(prefix, n));
    });
}

NG_API int32_t ng_shape_origin(const ng_shape_t *s, int64_t *out, int32_t cap) {
    return call_returning("ng_shape_origin", int32_t{-1}, [&] {
        const ng::Shape &shape = *shape_of(s, "s");
        require_array(out, cap, "out", "cap");
        for (int32_t i = 0; i < shape.root_rank() && i < cap; ++i)
            out[i] = shape.origin()[static_cast<size_t>(i)];
        return shape.root_rank();
    });
}

NG_API ng_shape_t *ng_shape_broadcast(const ng_shape_t *a, const ng_shape_t *b) {
    return call_returning("ng_shape_broadcast", (ng_shape_t *)nullptr, [&] {
        return new_shape_handle(ng::broadcast_shapes(*shape_of(a, "a"), *shape_of(b, "b")));
    });
}

NG_API int64_t ng_shape_text(const ng_shape_t *s, char *out, size_t cap) {
    return call_returning("ng_shape_text", int64_t{-1}, [&] {
        std::string text = shape_of(s, "s")->text();
        if (cap > 0) {
            require(out, "out");
            size_t n = text.size() < cap - 1 ? text.size() : cap - 1;
            std::memcpy(out, text.data(), n);
            out[n] = '\0';
        }
        return static_cast<int64_t>(text.size());
    });
}

NG_API ng_shape_iter_t *ng_shape_iter_create(const ng_shape_t *s, int32_t index_mode) {
    return call_returning("ng_shape_iter_create", (ng_shape_iter_t *)nullptr, [&] {
        const std::shared_ptr<const ng::Shape> &shape = shape_of(s, "s");
        if (index_mode != NG_INDEX_RELATIVE && index_mode != NG_INDEX_ABSOLUTE)
            throw ng::invalid_argument("index_mode is ", index_mode,
                                       ", not NG_INDEX_RELATIVE or NG_INDEX_ABSOLUTE");
        return new ng_shape_iter{ng::capi::kTag<ng_shape_iter_t>,
                                 ng::ShapeIterator(shape, index_mode == NG_INDEX_ABSOLUTE)};
    });
}

NG_API void ng_shape_iter_destroy(ng_shape_iter_t *it) {
    if (!ng::capi::live_or_null(it)) return;
    it->tag = 0;
    delete it;
}

NG_API int32_t ng_shape_iter_index_length(const ng_shape_iter_t *it) {
    return call_returning("ng_shape_iter_index_length", int32_t{-1},
                          [&] { return ng::capi::checked(it, "it")->iter.index_length(); });
}

NG_API int32_t ng_shape_iter_next(ng_shape_iter_t *it, int64_t *index, int32_t cap) {
    return call_returning("ng_shape_iter_next", int32_t{-1}, [&] {
        ng::ShapeIterator &iter = ng::capi::checked(it, "it")->iter;
        int32_t n = iter.index_length();
        if (cap < n)
            throw ng::invalid_argument("cap is ", cap, " but the index has ", n, " entries");
        require_array(index, n, "index", "the index length");
        return iter.next(index) ? 1 : 0;
    });
}

NG_API ng_status_t ng_shape_iter_reset(ng_shape_iter_t *it) {
    return call("ng_shape_iter_reset", [&] { ng::capi::checked(it, "it")->iter.reset(); });
}

}  // extern "C"
