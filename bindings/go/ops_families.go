package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

// Op builders. Each returns the new op, or an *Error (the graph also records its first error:
// Graph.Err). Operands and axes must belong to the graph.

// Negative builds ng_negative(x).
func (g *Graph) Negative(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_negative(gh, xh) })
}

// Absolute builds ng_absolute(x).
func (g *Graph) Absolute(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_absolute(gh, xh) })
}

// Sign builds ng_sign(x).
func (g *Graph) Sign(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sign(gh, xh) })
}

// Exp builds ng_exp(x).
func (g *Graph) Exp(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_exp(gh, xh) })
}

// Log builds ng_log(x).
func (g *Graph) Log(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_log(gh, xh) })
}

// Sqrt builds ng_sqrt(x).
func (g *Graph) Sqrt(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sqrt(gh, xh) })
}

// Square builds ng_square(x).
func (g *Graph) Square(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_square(gh, xh) })
}

// Reciprocal builds ng_reciprocal(x).
func (g *Graph) Reciprocal(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_reciprocal(gh, xh) })
}

// Sigmoid builds ng_sigmoid(x).
func (g *Graph) Sigmoid(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sigmoid(gh, xh) })
}

// Relu builds ng_relu(x).
func (g *Graph) Relu(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_relu(gh, xh) })
}

// Sin builds ng_sin(x).
func (g *Graph) Sin(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sin(gh, xh) })
}

// Cos builds ng_cos(x).
func (g *Graph) Cos(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_cos(gh, xh) })
}

// Tanh builds ng_tanh(x).
func (g *Graph) Tanh(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_tanh(gh, xh) })
}

// StopGradient builds ng_stop_gradient(x).
func (g *Graph) StopGradient(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_stop_gradient(gh, xh) })
}

// Unflatten builds ng_unflatten(x).
func (g *Graph) Unflatten(x *Op) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_unflatten(gh, xh) })
}

// Add builds ng_add(a, b), the operands aligned by axis name.
func (g *Graph) Add(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_add(gh, ah, bh) })
}

// Subtract builds ng_subtract(a, b), the operands aligned by axis name.
func (g *Graph) Subtract(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_subtract(gh, ah, bh) })
}

// Multiply builds ng_multiply(a, b), the operands aligned by axis name.
func (g *Graph) Multiply(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_multiply(gh, ah, bh) })
}

// Divide builds ng_divide(a, b), the operands aligned by axis name.
func (g *Graph) Divide(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_divide(gh, ah, bh) })
}

// Power builds ng_power(a, b), the operands aligned by axis name.
func (g *Graph) Power(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_power(gh, ah, bh) })
}

// Maximum builds ng_maximum(a, b), the operands aligned by axis name.
func (g *Graph) Maximum(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_maximum(gh, ah, bh) })
}

// Minimum builds ng_minimum(a, b), the operands aligned by axis name.
func (g *Graph) Minimum(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_minimum(gh, ah, bh) })
}

// Equal builds ng_equal(a, b), the operands aligned by axis name.
func (g *Graph) Equal(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_equal(gh, ah, bh) })
}

// NotEqual builds ng_not_equal(a, b), the operands aligned by axis name.
func (g *Graph) NotEqual(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_not_equal(gh, ah, bh) })
}

// Less builds ng_less(a, b), the operands aligned by axis name.
func (g *Graph) Less(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_less(gh, ah, bh) })
}

// LessEqual builds ng_less_equal(a, b), the operands aligned by axis name.
func (g *Graph) LessEqual(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_less_equal(gh, ah, bh) })
}

// Greater builds ng_greater(a, b), the operands aligned by axis name.
func (g *Graph) Greater(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_greater(gh, ah, bh) })
}

// GreaterEqual builds ng_greater_equal(a, b), the operands aligned by axis name.
func (g *Graph) GreaterEqual(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_greater_equal(gh, ah, bh) })
}

// Dot builds ng_dot(a, b), the operands aligned by axis name.
func (g *Graph) Dot(a, b *Op) (*Op, error) {
	ah, err := a.handle()
	if err != nil {
		return nil, err
	}
	bh, err := b.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_dot(gh, ah, bh) })
}

// Sum builds ng_sum(x) over axes (none: every axis).
func (g *Graph) Sum(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sum(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Max builds ng_max(x) over axes (none: every axis).
func (g *Graph) Max(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_max(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Min builds ng_min(x) over axes (none: every axis).
func (g *Graph) Min(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_min(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Mean builds ng_mean(x) over axes (none: every axis).
func (g *Graph) Mean(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_mean(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Prod builds ng_prod(x) over axes (none: every axis).
func (g *Graph) Prod(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_prod(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Variance builds ng_variance(x) over axes (none: every axis).
func (g *Graph) Variance(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_variance(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// SquaredL2 builds ng_squared_l2(x) over axes (none: every axis).
func (g *Graph) SquaredL2(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_squared_l2(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// L2Norm builds ng_l2_norm(x) over axes (none: every axis).
func (g *Graph) L2Norm(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_l2_norm(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// L1Norm builds ng_l1_norm(x) over axes (none: every axis).
func (g *Graph) L1Norm(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_l1_norm(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Softmax builds ng_softmax(x) over axes (none: every axis).
func (g *Graph) Softmax(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_softmax(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// LogSoftmax builds ng_log_softmax(x) over axes (none: every axis).
func (g *Graph) LogSoftmax(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_log_softmax(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// Broadcast builds ng_broadcast(x, axes).
func (g *Graph) Broadcast(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_broadcast(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// AxesWithOrder builds ng_axes_with_order(x, axes).
func (g *Graph) AxesWithOrder(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_axes_with_order(gh, xh, axesPtr(ax), C.int32_t(len(ax)))
	})
}

// CastAxes builds ng_cast_axes(x, axes).
func (g *Graph) CastAxes(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_cast_axes(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// CrossEntropyMulti builds ng_cross_entropy_multi(y, t, axes).
func (g *Graph) CrossEntropyMulti(y, t *Op, axes ...*Axis) (*Op, error) {
	yh, err := y.handle()
	if err != nil {
		return nil, err
	}
	th, err := t.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_cross_entropy_multi(gh, yh, th, axesPtr(ax), C.int32_t(len(ax)))
	})
}

// CrossEntropyBinary builds ng_cross_entropy_binary(y, t, axes).
func (g *Graph) CrossEntropyBinary(y, t *Op, axes ...*Axis) (*Op, error) {
	yh, err := y.handle()
	if err != nil {
		return nil, err
	}
	th, err := t.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_cross_entropy_binary(gh, yh, th, axesPtr(ax), C.int32_t(len(ax)))
	})
}

// Argmax builds ng_argmax(x, axis): int64 indices.
func (g *Graph) Argmax(x *Op, axis *Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ah, err := axis.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_argmax(gh, xh, ah) })
}

// Argmin builds ng_argmin(x, axis): int64 indices.
func (g *Graph) Argmin(x *Op, axis *Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ah, err := axis.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_argmin(gh, xh, ah) })
}

// Placeholder builds ng_placeholder: initial may be nil (zeros).
func (g *Graph) Placeholder(dt DType, axes []*Axis, initial *Op) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	var ih *C.ng_op_t
	if initial != nil {
		if ih, err = initial.handle(); err != nil {
			return nil, err
		}
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_placeholder(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), ih)
	})
}

// Variable builds ng_variable: initial may be nil (zeros).
func (g *Graph) Variable(dt DType, axes []*Axis, initial *Op) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	var ih *C.ng_op_t
	if initial != nil {
		if ih, err = initial.handle(); err != nil {
			return nil, err
		}
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_variable(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), ih)
	})
}

// PersistentTensor builds ng_persistent_tensor: initial may be nil (zeros).
func (g *Graph) PersistentTensor(dt DType, axes []*Axis, initial *Op) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	var ih *C.ng_op_t
	if initial != nil {
		if ih, err = initial.handle(); err != nil {
			return nil, err
		}
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_persistent_tensor(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), ih)
	})
}

// Reshape builds ng_reshape(x, axes): the elements in row-major order onto new axes.
func (g *Graph) Reshape(x *Op, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_reshape(gh, xh, axesPtr(ax), C.int32_t(len(ax))) })
}

// SegmentSum builds ng_segment_sum(x, along, splits, segments).
func (g *Graph) SegmentSum(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_sum(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentMean builds ng_segment_mean(x, along, splits, segments).
func (g *Graph) SegmentMean(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_mean(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentMax builds ng_segment_max(x, along, splits, segments).
func (g *Graph) SegmentMax(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_max(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentMin builds ng_segment_min(x, along, splits, segments).
func (g *Graph) SegmentMin(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_min(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentSoftmax builds ng_segment_softmax(x, along, splits, segments).
func (g *Graph) SegmentSoftmax(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_softmax(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentLogSoftmax builds ng_segment_log_softmax(x, along, splits, segments).
func (g *Graph) SegmentLogSoftmax(x *Op, along *Axis, splits *Op, segments *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{along, segments})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_log_softmax(gh, hs[0], ax[0], hs[1], ax[1]) })
}

// SegmentGather builds ng_segment_gather(x, segments, splits, along).
func (g *Graph) SegmentGather(x *Op, segments *Axis, splits *Op, along *Axis) (*Op, error) {
	hs, err := opsArray([]*Op{x, splits})
	if err != nil {
		return nil, err
	}
	ax, err := axesArray([]*Axis{segments, along})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_segment_gather(gh, hs[0], ax[0], hs[1], ax[1]) })
}
