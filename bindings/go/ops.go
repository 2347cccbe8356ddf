package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Constant builds a constant with the given axes from dense row-major data: a []float32,
// []float64, []int32, []int64, []uint8 or []bool of the axes' element count (nil: zeros).
func (g *Graph) Constant(axes []*Axis, data interface{}) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	dt, ptr, n, err := sliceData(data)
	if err != nil {
		return nil, err
	}
	want := 1
	for _, a := range axes {
		want *= int(a.Length())
	}
	if ptr != nil && n != want {
		return nil, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("nanograph: Constant: %d values for %d elements", n, want)}
	}
	// Copied by the library before the call returns, so Go memory may be passed.
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_constant(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), ptr)
	})
}

// Scalar builds a float32 constant of rank 0.
func (g *Graph) Scalar(v float64) (*Op, error) {
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_scalar(gh, C.double(v)) })
}

// ScalarOf builds a constant of rank 0 and any dtype.
func (g *Graph) ScalarOf(dt DType, v float64) (*Op, error) {
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_scalar_of(gh, C.ng_dtype_t(dt), C.double(v)) })
}

// AssignableTensor builds an assignable tensor with any valid union of Flag* values.
func (g *Graph) AssignableTensor(dt DType, axes []*Axis, flags uint32, initial *Op) (*Op, error) {
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
		return C.ng_assignable_tensor(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), C.uint32_t(flags), ih)
	})
}

// Cast converts x to another dtype.
func (g *Graph) Cast(x *Op, dt DType) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_cast(gh, xh, C.ng_dtype_t(dt)) })
}

// Select is cond ? a : b elementwise.
func (g *Graph) Select(cond, a, b *Op) (*Op, error) {
	hs, err := opsArray([]*Op{cond, a, b})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_select(gh, hs[0], hs[1], hs[2]) })
}

// ExpandDims inserts axis at position (x repeated along it).
func (g *Graph) ExpandDims(x *Op, axis *Axis, position int) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ah, err := axis.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_expand_dims(gh, xh, ah, C.int32_t(position)) })
}

// SliceSpec slices one axis: Start, Start+Step, ... before Stop, or only index Start (dropping
// the axis) when Index is true.
type SliceSpec struct {
	Start, Stop, Step int64
	Index             bool
}

// All is the whole axis of a given length, as a SliceSpec.
func All(length int64) SliceSpec { return SliceSpec{0, length, 1, false} }

func sliceSpecs(specs []SliceSpec) []C.ng_slice_t {
	cs := make([]C.ng_slice_t, len(specs)+1)
	for i, s := range specs {
		cs[i] = C.ng_slice_t{start: C.int64_t(s.Start), stop: C.int64_t(s.Stop), step: C.int64_t(s.Step)}
		if s.Index {
			cs[i].index_only = 1
		}
	}
	return cs
}

// Slice takes one SliceSpec per axis of x.
func (g *Graph) Slice(x *Op, specs ...SliceSpec) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	cs := sliceSpecs(specs)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_slice(gh, xh, &cs[0], C.int32_t(len(specs))) })
}

// AssignSlice writes rhs into a slice of lhs (one SliceSpec per axis) when the op runs.
func (g *Graph) AssignSlice(lhs *Op, specs []SliceSpec, rhs *Op) (*Op, error) {
	hs, err := opsArray([]*Op{lhs, rhs})
	if err != nil {
		return nil, err
	}
	cs := sliceSpecs(specs)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_assign_slice(gh, hs[0], &cs[0], C.int32_t(len(specs)), hs[1])
	})
}

// Fill sets every element of an assignable tensor to value when the op runs.
func (g *Graph) Fill(persistent *Op, value float64) (*Op, error) {
	h, err := persistent.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_fill(gh, h, C.double(value)) })
}

// ValueOf is an assignable tensor's value at this op's position in the order of side effects.
func (g *Graph) ValueOf(persistent *Op) (*Op, error) {
	h, err := persistent.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_value_of(gh, h) })
}

// Pad pads x with zeros: before[i] and after[i] elements around axis i.
func (g *Graph) Pad(x *Op, before, after []int64) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	if len(before) != len(after) {
		return nil, &Error{Status: StatusInvalidArgument, Message: "nanograph: Pad: before and after differ in length"}
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_pad(gh, xh, int64s(before), int64s(after), C.int32_t(len(before)))
	})
}

// Flatten merges consecutive axes into one named name ("" joins the names with '_').
func (g *Graph) Flatten(x *Op, name string, axes ...*Axis) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	n := cstr(name)
	defer free(n)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_flatten(gh, xh, axesPtr(ax), C.int32_t(len(ax)), n)
	})
}

// Concat concatenates ops along the axis named axisName.
func (g *Graph) Concat(axisName string, ops ...*Op) (*Op, error) {
	hs, err := opsArray(ops)
	if err != nil {
		return nil, err
	}
	n := cstr(axisName)
	defer free(n)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_concat(gh, opsPtr(hs), C.int32_t(len(hs)), n) })
}

// Stack stacks ops along a new axis placed at position.
func (g *Graph) Stack(axis *Axis, position int, ops ...*Op) (*Op, error) {
	hs, err := opsArray(ops)
	if err != nil {
		return nil, err
	}
	ah, err := axis.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_stack(gh, opsPtr(hs), C.int32_t(len(hs)), ah, C.int32_t(position))
	})
}

// OneHot encodes integer indices along a new first axis.
func (g *Graph) OneHot(x *Op, axis *Axis, dt DType) (*Op, error) {
	xh, err := x.handle()
	if err != nil {
		return nil, err
	}
	ah, err := axis.handle()
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_one_hot(gh, xh, ah, C.ng_dtype_t(dt)) })
}

// Assign writes rhs into lhs when the op runs.
func (g *Graph) Assign(lhs, rhs *Op) (*Op, error) {
	hs, err := opsArray([]*Op{lhs, rhs})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_assign(gh, hs[0], hs[1]) })
}

// Sequential runs ops in order; its value is the last one's.
func (g *Graph) Sequential(ops ...*Op) (*Op, error) {
	hs, err := opsArray(ops)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sequential(gh, opsPtr(hs), C.int32_t(len(hs))) })
}

// Deriv builds d(cost)/d(wrt) for a scalar cost.
func (g *Graph) Deriv(cost, wrt *Op) (*Op, error) {
	hs, err := opsArray([]*Op{cost, wrt})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_deriv(gh, hs[0], hs[1]) })
}

// Vjp builds the vector-Jacobian product d(sum(errorOp * y))/d(wrt).
func (g *Graph) Vjp(y, errorOp, wrt *Op) (*Op, error) {
	hs, err := opsArray([]*Op{y, errorOp, wrt})
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_vjp(gh, hs[0], hs[1], hs[2]) })
}

// SGDOptions are the options of SGD; start from DefaultSGDOptions.
type SGDOptions struct {
	Momentum    float64
	Nesterov    bool
	WeightDecay float64
}

// sgdOptions and adamOptions are the library's defaults in the C structs, whose struct_size
// says which version of the struct this binding was built with.
func sgdOptions() C.ng_sgd_options_t {
	var o C.ng_sgd_options_t
	C.ng_sgd_options_init(&o, C.size_t(unsafe.Sizeof(o)))
	return o
}

func adamOptions() C.ng_adam_options_t {
	var o C.ng_adam_options_t
	C.ng_adam_options_init(&o, C.size_t(unsafe.Sizeof(o)))
	return o
}

// DefaultSGDOptions are the library's defaults (plain gradient descent).
func DefaultSGDOptions() SGDOptions {
	o := sgdOptions()
	return SGDOptions{Momentum: float64(o.momentum), Nesterov: o.nesterov != 0, WeightDecay: float64(o.weight_decay)}
}

// SGD builds one step of stochastic gradient descent over the trainable variables of cost; the
// op's value is the cost before the step.
func (g *Graph) SGD(cost, learningRate *Op, opts SGDOptions) (*Op, error) {
	hs, err := opsArray([]*Op{cost, learningRate})
	if err != nil {
		return nil, err
	}
	o := sgdOptions()
	o.momentum, o.weight_decay = C.double(opts.Momentum), C.double(opts.WeightDecay)
	o.nesterov = 0
	if opts.Nesterov {
		o.nesterov = 1
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_sgd(gh, hs[0], hs[1], &o) })
}

// AdamOptions are the options of Adam; start from DefaultAdamOptions.
type AdamOptions struct {
	Beta1, Beta2, Epsilon, WeightDecay float64
}

// DefaultAdamOptions are the library's defaults.
func DefaultAdamOptions() AdamOptions {
	o := adamOptions()
	return AdamOptions{float64(o.beta1), float64(o.beta2), float64(o.epsilon), float64(o.weight_decay)}
}

// Adam builds one step of Adam over the trainable variables of cost.
func (g *Graph) Adam(cost, learningRate *Op, opts AdamOptions) (*Op, error) {
	hs, err := opsArray([]*Op{cost, learningRate})
	if err != nil {
		return nil, err
	}
	o := adamOptions()
	o.beta1, o.beta2, o.epsilon, o.weight_decay = C.double(opts.Beta1), C.double(opts.Beta2), C.double(opts.Epsilon), C.double(opts.WeightDecay)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_adam(gh, hs[0], hs[1], &o) })
}

// Uniform is a constant of uniform values in [low, high), for initial values.
func (g *Graph) Uniform(dt DType, axes []*Axis, low, high float64, seed uint64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_initializer_uniform(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), C.double(low), C.double(high), C.uint64_t(seed))
	})
}

// Normal is a constant of normally distributed values.
func (g *Graph) Normal(dt DType, axes []*Axis, mean, stddev float64, seed uint64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_initializer_normal(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), C.double(mean), C.double(stddev), C.uint64_t(seed))
	})
}

// GlorotUniform is a constant of Glorot/Xavier uniform values; fanIn are the axes a unit sums over.
func (g *Graph) GlorotUniform(dt DType, axes, fanIn []*Axis, seed uint64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	fi, err := axesArray(fanIn)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_initializer_glorot_uniform(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), axesPtr(fi), C.int32_t(len(fi)), C.uint64_t(seed))
	})
}

// HeNormal is a constant of He (Kaiming) normal values.
func (g *Graph) HeNormal(dt DType, axes, fanIn []*Axis, seed uint64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	fi, err := axesArray(fanIn)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_initializer_he_normal(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), axesPtr(fi), C.int32_t(len(fi)), C.uint64_t(seed))
	})
}

// sliceData is the dtype, address and length of a Go slice of a nanograph element type.
func sliceData(data interface{}) (DType, unsafe.Pointer, int, error) {
	switch v := data.(type) {
	case nil:
		return Float32, nil, 0, nil
	case []float32:
		return Float32, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	case []float64:
		return Float64, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	case []int32:
		return Int32, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	case []int64:
		return Int64, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	case []uint8:
		return Uint8, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	case []bool:
		return Bool, ptrOf(len(v), func() unsafe.Pointer { return unsafe.Pointer(&v[0]) }), len(v), nil
	}
	return 0, nil, 0, &Error{Status: StatusDType, Message: fmt.Sprintf("nanograph: no dtype for %T", data)}
}

func ptrOf(n int, f func() unsafe.Pointer) unsafe.Pointer {
	if n == 0 {
		return nil
	}
	return f()
}

// RandomUniform is values drawn uniformly from [low, high) at every run, from the transformer's
// generator (Transformer.SetSeed); unlike Uniform, which is an initial value drawn once.
func (g *Graph) RandomUniform(dt DType, axes []*Axis, low, high float64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_uniform(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), C.double(low), C.double(high))
	})
}

// RandomNormal is values drawn from N(mean, stddev²) at every run, like RandomUniform.
func (g *Graph) RandomNormal(dt DType, axes []*Axis, mean, stddev float64) (*Op, error) {
	ax, err := axesArray(axes)
	if err != nil {
		return nil, err
	}
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t {
		return C.ng_normal(gh, C.ng_dtype_t(dt), axesPtr(ax), C.int32_t(len(ax)), C.double(mean), C.double(stddev))
	})
}
