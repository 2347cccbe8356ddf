/**
 * @file segment.h
 * @brief Jagged values in graphs: reductions, softmax and gather over the segments of a flat
 *        axis.
 *
 * In a graph, a jagged axis is two things: a **flat axis** over every real element (all the
 * rows' elements one after another, never padded) and its **row splits**, an NG_INT64 op with
 * one axis whose length is the number of segments plus one (a placeholder fed at each run, or a
 * constant). Segment s holds the flat positions splits[s] .. splits[s+1]-1. The splits are
 * checked when the computation runs: they must start at 0, never decrease and end at the flat
 * axis's length (otherwise the run fails with ::NG_ERR_INVALID_ARGUMENT).
 *
 * Everything that stays inside a segment is an ordinary op over the flat axis: elementwise ops
 * between values over the same flat axis (the same splits), dense values broadcast by name (a
 * weight over `H` applies to every element), reductions over other axes, and `dot` of every
 * element with a dense matrix (ng_dot contracting an inner axis). Only what crosses elements of a
 * segment needs the functions below. Work and memory are proportional to the real elements.
 *
 * The reductions' result has the segment axis first, then the operand's other axes in order;
 * ng_segment_gather() goes the other way. All of them are differentiable (ng_deriv()).
 * Like every builder, each returns NULL and records the graph's first error on bad input:
 * ::NG_ERR_INVALID_ARGUMENT (NULL or foreign handles), ::NG_ERR_AXES (an axis the operand lacks,
 * splits whose length is not the number of segments plus one, a result axis name the operand
 * already has) or ::NG_ERR_DTYPE (splits that are not NG_INT64, a bool operand, an integer
 * operand where a float is needed).
 */
#ifndef NANOGRAPH_SEGMENT_H
#define NANOGRAPH_SEGMENT_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief The sum over each segment of a flat axis.
 * @param g The graph.
 * @param x The values: any axes including `along`; any dtype but bool.
 * @param along The flat axis of x to reduce segment by segment.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments The result's new first axis: one entry per segment (an empty segment gives 0).
 * @return The op, axes (segments, x's other axes...), or NULL (see the file's description).
 */
NG_API ng_op_t *ng_segment_sum(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments);

/**
 * @brief The mean over each segment (0 for an empty segment).
 * @param g The graph.
 * @param x The values, float32 or float64.
 * @param along The flat axis of x.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments The result's new first axis.
 * @return The op, axes (segments, x's other axes...), or NULL.
 */
NG_API ng_op_t *ng_segment_mean(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                                const ng_axis_t *segments);

/**
 * @brief The max over each segment (the dtype's lowest value, -inf for floats, for an empty
 *        segment; NaN if the segment holds a NaN). Its derivative goes to the elements equal to
 *        the max, shared equally between ties.
 * @param g The graph.
 * @param x The values; any dtype but bool.
 * @param along The flat axis of x.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments The result's new first axis.
 * @return The op, axes (segments, x's other axes...), or NULL.
 */
NG_API ng_op_t *ng_segment_max(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments);

/**
 * @brief The min over each segment (-max of -x: +inf for an empty float segment).
 * @param g The graph.
 * @param x The values; any dtype but bool.
 * @param along The flat axis of x.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments The result's new first axis.
 * @return The op, axes (segments, x's other axes...), or NULL.
 */
NG_API ng_op_t *ng_segment_min(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments);

/**
 * @brief Softmax over each segment: exp(x - m) / sum over the segment of exp(x - m), with m the
 *        segment's max (so any finite logits give finite results).
 * @param g The graph.
 * @param x The logits, float32 or float64.
 * @param along The flat axis of x whose segments are normalised.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments An axis with one entry per segment, used inside (not in the result).
 * @return The op, with x's axes in x's order, or NULL.
 */
NG_API ng_op_t *ng_segment_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                   ng_op_t *splits, const ng_axis_t *segments);

/**
 * @brief Log-softmax over each segment: x - m - log(sum over the segment of exp(x - m)).
 * @param g The graph.
 * @param x The logits, float32 or float64.
 * @param along The flat axis of x.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param segments An axis with one entry per segment, used inside.
 * @return The op, with x's axes in x's order, or NULL.
 */
NG_API ng_op_t *ng_segment_log_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                       ng_op_t *splits, const ng_axis_t *segments);

/**
 * @brief Gives every element of a flat axis the value of its segment (the inverse direction of
 *        the reductions; its derivative is the segment sum).
 * @param g The graph.
 * @param y One value per segment: any axes including `segments`; any dtype but bool.
 * @param segments The axis of y with one entry per segment.
 * @param splits NG_INT64, one axis of length segments' length + 1.
 * @param along The flat axis of the result, of length splits' last entry.
 * @return The op, axes (along, y's other axes...), or NULL.
 */
NG_API ng_op_t *ng_segment_gather(ng_graph_t *g, ng_op_t *y, const ng_axis_t *segments,
                                  ng_op_t *splits, const ng_axis_t *along);

#ifdef __cplusplus
}
#endif

#endif
