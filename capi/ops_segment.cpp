// Entry points for jagged values in graphs (segment.h).
#include "capi/graph_handle.hpp"
#include "graph/builders.hpp"
#include "nanograph/segment.h"

using namespace ng;
using namespace ng::capi;

namespace {

template <class Build>
ng_op_t *segment_op(const char *function, ng_graph_t *g, ng_op_t *x, const char *x_name,
                    const ng_axis_t *first, const char *first_name, ng_op_t *splits,
                    const ng_axis_t *second, const char *second_name, Build &&build) {
    return call_builder(function, g, {x, splits}, [&] {
        Graph &graph = graph_of(g, "g");
        Op *operand = op_in(graph, x, x_name);
        Op *row_splits = op_in(graph, splits, "splits");
        return build(operand, axis_in(graph, first, first_name), row_splits,
                     axis_in(graph, second, second_name));
    });
}

}  // namespace

extern "C" {

NG_API ng_op_t *ng_segment_sum(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments) {
    return segment_op("ng_segment_sum", g, x, "x", along, "along", splits, segments, "segments",
                      [](Op *v, const Axis *a, Op *s, const Axis *n) {
                          return build::segment_reduce(OpKind::SegmentSum, v, a, s, n);
                      });
}

NG_API ng_op_t *ng_segment_mean(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                                const ng_axis_t *segments) {
    return segment_op("ng_segment_mean", g, x, "x", along, "along", splits, segments, "segments",
                      build::segment_mean);
}

NG_API ng_op_t *ng_segment_max(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments) {
    return segment_op("ng_segment_max", g, x, "x", along, "along", splits, segments, "segments",
                      [](Op *v, const Axis *a, Op *s, const Axis *n) {
                          return build::segment_reduce(OpKind::SegmentMax, v, a, s, n);
                      });
}

NG_API ng_op_t *ng_segment_min(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along, ng_op_t *splits,
                               const ng_axis_t *segments) {
    return segment_op("ng_segment_min", g, x, "x", along, "along", splits, segments, "segments",
                      build::segment_min);
}

NG_API ng_op_t *ng_segment_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                   ng_op_t *splits, const ng_axis_t *segments) {
    return segment_op("ng_segment_softmax", g, x, "x", along, "along", splits, segments, "segments",
                      [](Op *v, const Axis *a, Op *s, const Axis *n) {
                          return build::segment_softmax(v, a, s, n, false);
                      });
}

NG_API ng_op_t *ng_segment_log_softmax(ng_graph_t *g, ng_op_t *x, const ng_axis_t *along,
                                       ng_op_t *splits, const ng_axis_t *segments) {
    return segment_op("ng_segment_log_softmax", g, x, "x", along, "along", splits, segments,
                      "segments", [](Op *v, const Axis *a, Op *s, const Axis *n) {
                          return build::segment_softmax(v, a, s, n, true);
                      });
}

NG_API ng_op_t *ng_segment_gather(ng_graph_t *g, ng_op_t *y, const ng_axis_t *segments,
                                  ng_op_t *splits, const ng_axis_t *along) {
    return segment_op("ng_segment_gather", g, y, "y", segments, "segments", splits, along, "along",
                      build::segment_gather);
}

}  // extern "C"
