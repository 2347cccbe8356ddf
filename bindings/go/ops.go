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

// The op builders are generated from the C headers (ops_generated.go). Written here by hand are
// the builders the generator leaves out (Constant, SGD, Adam: EXCLUDED in
// bindings/gen/builders.py says why), the types they take, and the helpers the generated ones
// call (sliceSpecs, optionalHandle, sameLengths).

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

// optionalHandle is the handle of an op that may be nil (NULL for the library).
func optionalHandle(o *Op) (*C.ng_op_t, error) {
	if o == nil {
		return nil, nil
	}
	return o.handle()
}

// sameLengths fails unless the lists, passed with one count, have one length.
func sameLengths(fn string, lists ...[]int64) error {
	for _, l := range lists[1:] {
		if len(l) != len(lists[0]) {
			return &Error{Status: StatusInvalidArgument,
				Message: fmt.Sprintf("nanograph: %s: lists of lengths %d and %d, not one length", fn, len(lists[0]), len(l))}
		}
	}
	return nil
}
