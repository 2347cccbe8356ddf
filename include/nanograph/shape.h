/**
 * @file shape.h
 * @brief Shapes as values (smooth, jagged, nested) and index iteration with an origin.
 *
 * A shape describes which indices exist, nothing more: no dtype, no memory.
 * - A **smooth** shape is a hyper-rectangle: rank r and one extent per mode.
 * - A **jagged** shape (rank >= 2) has slices along a mode whose extents differ. Mode 0 always
 *   has one extent; every later mode k is either *uniform* (one extent) or *jagged*: its
 *   extents are given as row splits over the positions of mode k-1 (position p of mode k-1 has
 *   splits[p+1] - splits[p] children; splits starts at 0 and never decreases). Nothing is
 *   padded. Positions are numbered in row-major order over the whole shape. A jagged shape of
 *   rank r whose largest smooth slices have rank s has r - s *layers* (see
 *   ng_shape_smooth_rank()): a rank-3 shape may hold smooth matrices of different extents.
 * - A **nested** shape has shapes as elements (a matrix of matrices, a vector of jagged
 *   matrices): it keeps the partition of modes between the outer shape and its elements.
 *   ng_shape_flatten() turns it into one smooth or jagged shape, explicitly.
 *
 * Shapes are normalised: a mode given as row splits whose rows all have the same length is
 * uniform, so a shape is jagged exactly when some slices differ. Shapes are immutable and
 * reference-counted (ng_shape_retain() / ng_shape_release(), thread-safe), so sharing one
 * between threads and tensors is safe.
 *
 * A slice (ng_shape_slice(), ng_shape_at()) remembers its *origin*: the index, in the
 * coordinates of the shape it was first cut from (its root), of its element (0, ..., 0). An
 * iterator (::ng_shape_iter_t) gives either those absolute indices or offsets from zero.
 *
 * Accessors that cannot return a status return a documented failure value (-1, NULL) and set
 * ng_last_status() / ng_last_error(); on success they clear the error.
 */
#ifndef NANOGRAPH_SHAPE_H
#define NANOGRAPH_SHAPE_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief A shape: smooth, jagged or nested; immutable and reference-counted. */
typedef struct ng_shape ng_shape_t;
/** @brief An iterator over the indices of a shape, in row-major order. */
typedef struct ng_shape_iter ng_shape_iter_t;

/** @brief The kinds of shape (ng_shape_kind()). */
enum ng_shape_kind_code {
    NG_SHAPE_SMOOTH = 0, /**< A hyper-rectangle. */
    NG_SHAPE_JAGGED = 1, /**< Some slices along a mode have different extents. */
    NG_SHAPE_NESTED = 2, /**< Elements that are shapes. */
    /** Not a kind. Makes the enum's type signed 32-bit, as the int32_t that carries these
     * values, so binding generators give the constants that type. */
    NG_SHAPE_KIND_SIGNED_ = -2147483647 - 1
};

/** @brief Which indices an iterator gives (ng_shape_iter_create()). */
enum ng_index_mode_code {
    NG_INDEX_RELATIVE = 0, /**< Offsets from zero: rank entries. */
    NG_INDEX_ABSOLUTE = 1, /**< The origin added: one entry per mode of the root shape. */
    /** Not a mode. Makes the enum's type signed 32-bit, as the int32_t that carries these
     * values, so binding generators give the constants that type. */
    NG_INDEX_MODE_SIGNED_ = -2147483647 - 1
};

/**
 * @brief Makes a smooth shape.
 * @param extents rank extents, each >= 0; may be NULL when rank is 0 (one element).
 * @param rank The number of modes, >= 0.
 * @return A new shape (release it with ng_shape_release()), or NULL with
 *         ::NG_ERR_INVALID_ARGUMENT for a negative rank or extent, a NULL extents or an element
 *         count that overflows.
 */
NG_API ng_shape_t *ng_shape_smooth(const int64_t *extents, int32_t rank);

/**
 * @brief Makes a jagged (or smooth) shape from mode 0's extent and, for each later mode, either
 *        row splits or a uniform extent.
 *
 * For mode k (1 <= k < rank), entry k-1 of the arrays describes it: when splits[k-1] is not NULL
 * the mode is jagged and splits[k-1] holds num_splits[k-1] entries, which must be the number of
 * positions of mode k-1 plus one (mode 0 has `outer` positions; a jagged mode has its last split;
 * a uniform mode has the previous count times its extent). Otherwise extents[k-1] is the mode's
 * uniform extent. The splits are copied.
 *
 * Example: three rows of lengths 2, 0, 3 are `outer` 3 and splits {0, 2, 2, 5}.
 * @param outer The extent of mode 0, >= 0.
 * @param rank The number of modes, >= 1 (rank 1 is a smooth vector).
 * @param splits rank-1 pointers, each NULL for a uniform mode; may be NULL when every mode is
 *               uniform (or rank is 1).
 * @param num_splits rank-1 counts, read where splits[k-1] is not NULL; may be NULL when splits is.
 * @param extents rank-1 uniform extents, read where splits[k-1] is NULL; may be NULL when every
 *                mode is jagged.
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT (rank < 1, a negative extent, a
 *         missing array, splits with the wrong count, not starting at 0 or decreasing, an
 *         overflowing element count).
 */
NG_API ng_shape_t *ng_shape_jagged(int64_t outer, int32_t rank, const int64_t *const *splits,
                                   const int64_t *num_splits, const int64_t *extents);

/**
 * @brief Makes a nested shape: an outer smooth or jagged shape whose elements are shapes.
 * @param outer The outer shape (not nested). Not consumed: the caller still releases it.
 * @param elements ng_shape_numel(outer) shapes, all of one rank, in the outer shape's row-major
 *                 order; they may be nested. Not consumed. May be NULL when there are none.
 * @param num_elements The number of elements: must equal ng_shape_numel(outer).
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT (NULL or invalid handles, a
 *         negative count), ::NG_ERR_AXES (a count that differs from the outer shape's, elements
 *         of different ranks) or ::NG_ERR_UNSUPPORTED (a nested outer shape).
 */
NG_API ng_shape_t *ng_shape_nested(const ng_shape_t *outer, const ng_shape_t *const *elements,
                                   int64_t num_elements);

/**
 * @brief Adds a reference to a shape. Thread-safe.
 * @param s A shape, or NULL (ignored).
 */
NG_API void ng_shape_retain(ng_shape_t *s);

/**
 * @brief Drops a reference to a shape; the last one frees it. Thread-safe.
 * @param s A shape, or NULL (ignored).
 */
NG_API void ng_shape_release(ng_shape_t *s);

/**
 * @brief The kind of a shape.
 * @param s A shape.
 * @return ::NG_SHAPE_SMOOTH, ::NG_SHAPE_JAGGED or ::NG_SHAPE_NESTED, or -1 with
 *         ::NG_ERR_INVALID_ARGUMENT for a NULL or invalid handle.
 */
NG_API int32_t ng_shape_kind(const ng_shape_t *s);

/**
 * @brief The number of modes (for a nested shape: the outer rank plus its elements' rank).
 * @param s A shape.
 * @return The rank, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_shape_rank(const ng_shape_t *s);

/**
 * @brief The number of elements (indices) of a shape; 1 for rank 0.
 * @param s A shape.
 * @return The count, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int64_t ng_shape_numel(const ng_shape_t *s);

/**
 * @brief The extent of mode n in the slice at a given index prefix.
 * @param s A shape (a nested one is read as its flattening).
 * @param prefix The first n indices, each within its mode's extent there; may be NULL when n is
 *               0.
 * @param n Which mode, 0 <= n < rank; mode 0 needs no prefix.
 * @return The extent, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle, n out of range, a
 *         NULL prefix or an index outside the shape.
 */
NG_API int64_t ng_shape_extent(const ng_shape_t *s, const int64_t *prefix, int32_t n);

/**
 * @brief Whether a mode is jagged (its extent depends on the indices before it).
 * @param s A smooth or jagged shape.
 * @param mode 0 <= mode < rank.
 * @return 1 if jagged, 0 if uniform (mode 0 always is), -1 with ::NG_ERR_INVALID_ARGUMENT for a
 *         bad handle, a nested shape or a mode out of range.
 */
NG_API int32_t ng_shape_mode_is_jagged(const ng_shape_t *s, int32_t mode);

/**
 * @brief The layer structure: the rank s of the largest smooth slices. Fixing the first r - s
 *        indices always leaves a hyper-rectangle; a jagged shape has r - s layers.
 * @param s A shape (a nested one is read as its flattening).
 * @return s (the rank itself for a smooth shape, between 1 and rank-1 for a jagged one), or -1
 *         with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_shape_smooth_rank(const ng_shape_t *s);

/**
 * @brief The row splits of a mode over the positions of the mode before it (implicit ones for a
 *        uniform mode: 0, e, 2e, ...).
 * @param s A smooth or jagged shape.
 * @param mode 1 <= mode < rank.
 * @param out Receives at most cap entries; may be NULL when cap is 0 (to ask for the count).
 * @param cap The capacity of out, >= 0.
 * @return The number of splits (positions of mode-1, plus one), even when larger than cap, or -1
 *         with ::NG_ERR_INVALID_ARGUMENT for a bad handle, a nested shape, a mode out of range, a
 *         negative cap or a NULL out with cap > 0.
 */
NG_API int64_t ng_shape_row_splits(const ng_shape_t *s, int32_t mode, int64_t *out, int64_t cap);

/**
 * @brief Whether two shapes are the same: same kind, modes, extents and elements (origins are
 *        not compared).
 * @param a A shape.
 * @param b A shape.
 * @return 1 if equal, 0 if not, -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_shape_equal(const ng_shape_t *a, const ng_shape_t *b);

/**
 * @brief Flattens a nested shape into one smooth or jagged shape of the same rank and elements,
 *        in the same order (outer modes first). The partition of modes is lost.
 * @param s A shape; a shape that is not nested gives an equal copy with a zero origin.
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_shape_t *ng_shape_flatten(const ng_shape_t *s);

/**
 * @brief The outer shape of a nested shape.
 * @param s A nested shape.
 * @return A new reference (release it), or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle
 *         or a shape that is not nested.
 */
NG_API ng_shape_t *ng_shape_outer(const ng_shape_t *s);

/**
 * @brief One element of a nested shape.
 * @param s A nested shape.
 * @param i 0 <= i < ng_shape_numel() of the outer shape, in its row-major order.
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT for a bad handle, a shape that is
 *         not nested or i out of range.
 */
NG_API ng_shape_t *ng_shape_element(const ng_shape_t *s, int64_t i);

/**
 * @brief The slice of positions [start, stop) of mode 0, keeping every mode; its origin is
 *        start along that mode.
 * @param s A smooth or jagged shape of rank >= 1.
 * @param start The first position, 0 <= start <= stop.
 * @param stop One past the last position, <= the extent of mode 0.
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handle, rank 0, a range outside
 *         the mode) or ::NG_ERR_UNSUPPORTED (a nested shape: flatten it first).
 */
NG_API ng_shape_t *ng_shape_slice(const ng_shape_t *s, int64_t start, int64_t stop);

/**
 * @brief The slice at a fixed index prefix: the first n indices are fixed and the remaining
 *        rank - n modes kept; its origin is the prefix.
 * @param s A smooth or jagged shape.
 * @param prefix n indices inside the shape; may be NULL when n is 0.
 * @param n 0 <= n <= rank (n == rank gives a rank-0 shape: one element).
 * @return A new shape, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handle, n out of range, a NULL
 *         prefix, an index outside the shape) or ::NG_ERR_UNSUPPORTED (a nested shape).
 */
NG_API ng_shape_t *ng_shape_at(const ng_shape_t *s, const int64_t *prefix, int32_t n);

/**
 * @brief The origin of a shape: where its element (0, ..., 0) is in its root shape.
 * @param s A shape.
 * @param out Receives at most cap entries; may be NULL when cap is 0.
 * @param cap The capacity of out, >= 0.
 * @return The root's rank (the number of entries of the origin; the shape's modes are the root's
 *         last ng_shape_rank() modes), or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle, a
 *         negative cap or a NULL out with cap > 0.
 */
NG_API int32_t ng_shape_origin(const ng_shape_t *s, int64_t *out, int32_t cap);

/**
 * @brief The shape of the result of an elementwise op on operands of shapes a and b.
 *
 * Modes are aligned at the end. Two smooth shapes combine NumPy-style (an extent 1 stretches).
 * Two jagged shapes combine only when equal. A jagged and a smooth shape combine when the smooth
 * one's rank is not larger and each of its aligned extents is 1 or equals the jagged shape's
 * uniform extent there (its outer extent for mode 0): the result is the jagged shape. Nested
 * shapes do not combine: flatten them first.
 * @param a A shape.
 * @param b A shape.
 * @return A new shape with a zero origin, or NULL with ::NG_ERR_INVALID_ARGUMENT (bad handle),
 *         ::NG_ERR_AXES (shapes that do not combine) or ::NG_ERR_UNSUPPORTED (a nested shape).
 */
NG_API ng_shape_t *ng_shape_broadcast(const ng_shape_t *a, const ng_shape_t *b);

/**
 * @brief Writes a short description of a shape, such as "(3, [2 0 3])" (a jagged mode as its
 *        row lengths), always NUL-terminated.
 * @param s A shape.
 * @param out Receives at most cap bytes; may be NULL when cap is 0.
 * @param cap The capacity of out in bytes.
 * @return The length of the whole description (without the NUL), even when larger than cap - 1,
 *         or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle or a NULL out with cap > 0.
 */
NG_API int64_t ng_shape_text(const ng_shape_t *s, char *out, size_t cap);

/**
 * @brief Makes an iterator over the indices of a shape, in row-major order (the order of a
 *        jagged tensor's values). It allocates here, never while stepping.
 * @param s A shape (a nested one is iterated as its flattening). The iterator keeps its own
 *          reference: s may be released first.
 * @param index_mode ::NG_INDEX_RELATIVE (offsets from zero, rank entries) or ::NG_INDEX_ABSOLUTE
 *                   (the origin added: root-rank entries).
 * @return A new iterator (destroy it with ng_shape_iter_destroy()), or NULL with
 *         ::NG_ERR_INVALID_ARGUMENT for a bad handle or index mode.
 */
NG_API ng_shape_iter_t *ng_shape_iter_create(const ng_shape_t *s, int32_t index_mode);

/**
 * @brief Destroys an iterator.
 * @param it An iterator, or NULL (ignored).
 */
NG_API void ng_shape_iter_destroy(ng_shape_iter_t *it);

/**
 * @brief The number of entries each step writes.
 * @param it An iterator.
 * @return The index length, or -1 with ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API int32_t ng_shape_iter_index_length(const ng_shape_iter_t *it);

/**
 * @brief Steps to the next index.
 * @param it An iterator.
 * @param index Receives ng_shape_iter_index_length() entries; may be NULL when that is 0.
 * @param cap The capacity of index: at least the index length.
 * @return 1 with the next index written, 0 once every index was given (index untouched), or -1
 *         with ::NG_ERR_INVALID_ARGUMENT for a bad handle, a NULL index or a cap that is too
 *         small.
 */
NG_API int32_t ng_shape_iter_next(ng_shape_iter_t *it, int64_t *index, int32_t cap);

/**
 * @brief Starts an iterator again from the first index.
 * @param it An iterator.
 * @return ::NG_OK, or ::NG_ERR_INVALID_ARGUMENT for a bad handle.
 */
NG_API ng_status_t ng_shape_iter_reset(ng_shape_iter_t *it);

#ifdef __cplusplus
}
#endif

#endif
