package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Transformer holds persistent values and compiles computations. Computations made on it keep
// working after it is closed.
type Transformer struct {
	owned[C.ng_transformer_t, transformerKind]
}

type transformerKind struct{}

func (transformerKind) name() string               { return "transformer" }
func (transformerKind) free(h *C.ng_transformer_t) { C.ng_transformer_destroy(h) }

// NewTransformer creates a transformer for a backend ("" or "cpu").
func NewTransformer(backend string) (*Transformer, error) {
	var b *C.char
	if backend != "" {
		b = cstr(backend)
		defer free(b)
	}
	h, err := withThread(func() (*C.ng_transformer_t, error) {
		h := C.ng_transformer_create(b)
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	t := &Transformer{}
	t.h = h
	runtime.SetFinalizer(t, (*Transformer).Close)
	return t, nil
}

// SetNumThreads sets the threads the kernels use (0: one per core).
func (t *Transformer) SetNumThreads(n int) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	return status(func() C.ng_status_t { return C.ng_transformer_set_num_threads(h, C.int32_t(n)) })
}

// NumThreads is the number of threads the kernels use.
func (t *Transformer) NumThreads() int {
	h, err := t.handle()
	if err != nil {
		return -1
	}
	return int(C.ng_transformer_num_threads(h))
}

// GetValue is a copy of a persistent tensor's value.
func (t *Transformer) GetValue(op *Op) (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	oh, err := op.handle()
	if err != nil {
		return nil, err
	}
	var out *C.ng_tensor_t
	if err := status(func() C.ng_status_t { return C.ng_transformer_get_value(h, oh, &out) }); err != nil {
		return nil, err
	}
	return adoptTensor(out), nil
}

// SetValue sets a persistent tensor's value (copied).
func (t *Transformer) SetValue(op *Op, value *Tensor) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	oh, err := op.handle()
	if err != nil {
		return err
	}
	vh, err := value.handle()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(value)
	return status(func() C.ng_status_t { return C.ng_transformer_set_value(h, oh, vh) })
}

// Computation is a compiled computation. Run it from one goroutine at a time.
type Computation struct {
	owned[C.ng_computation_t, computationKind]
	graphs []*Graph // set once by Compile, released once by Close
}

type computationKind struct{}

func (computationKind) name() string               { return "computation" }
func (computationKind) free(h *C.ng_computation_t) { C.ng_computation_destroy(h) }

// Compile compiles a computation of results with params as its inputs.
func (t *Transformer) Compile(results []*Op, params ...*Op) (*Computation, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	rs, err := opsArray(results)
	if err != nil {
		return nil, err
	}
	ps, err := opsArray(params)
	if err != nil {
		return nil, err
	}
	ch, err := withThread(func() (*C.ng_computation_t, error) {
		c := C.ng_computation_create(h, opsPtr(rs), C.int32_t(len(rs)), opsPtr(ps), C.int32_t(len(ps)))
		if c == nil {
			return nil, lastError()
		}
		return c, nil
	})
	if err != nil {
		return nil, err
	}
	c := &Computation{}
	c.h = ch
	seen := map[*Graph]bool{}
	for _, o := range append(append([]*Op{}, results...), params...) {
		if !seen[o.g] {
			seen[o.g] = true
			o.g.addUser()
			c.graphs = append(c.graphs, o.g)
		}
	}
	runtime.SetFinalizer(c, (*Computation).Close)
	return c, nil
}

// Close destroys the computation (and a closed graph it was the last user of). Safe to repeat.
func (c *Computation) Close() {
	if c.release() {
		for _, g := range c.graphs {
			g.releaseUser()
		}
		c.graphs = nil
	}
}

// NumParams is the number of inputs a run takes.
func (c *Computation) NumParams() int {
	h, err := c.handle()
	if err != nil {
		return -1
	}
	return int(C.ng_computation_num_params(h))
}

// NumResults is the number of results a run returns.
func (c *Computation) NumResults() int {
	h, err := c.handle()
	if err != nil {
		return -1
	}
	return int(C.ng_computation_num_results(h))
}

// Run runs once: one tensor per parameter; returns one new tensor per result (close them, or
// leave them to the finalizer).
func (c *Computation) Run(inputs ...*Tensor) ([]*Tensor, error) {
	h, err := c.handle()
	if err != nil {
		return nil, err
	}
	n := c.NumResults()
	outs := make([]*C.ng_tensor_t, n+1)
	if err := c.run(h, inputs, outs[:n]); err != nil {
		return nil, err
	}
	res := make([]*Tensor, n)
	for i := range res {
		res[i] = adoptTensor(outs[i])
	}
	return res, nil
}

// RunInto runs once, writing each result into the given output tensor (matching dtype and shape).
func (c *Computation) RunInto(inputs []*Tensor, outputs []*Tensor) error {
	h, err := c.handle()
	if err != nil {
		return err
	}
	outs := make([]*C.ng_tensor_t, len(outputs)+1)
	for i, o := range outputs {
		if outs[i], err = o.handle(); err != nil {
			return err
		}
	}
	defer runtime.KeepAlive(outputs)
	return c.run(h, inputs, outs[:len(outputs)])
}

func (c *Computation) run(h *C.ng_computation_t, inputs []*Tensor, outs []*C.ng_tensor_t) error {
	ins := make([]*C.ng_tensor_t, len(inputs)+1)
	for i, t := range inputs {
		th, err := t.handle()
		if err != nil {
			return err
		}
		ins[i] = th
	}
	defer runtime.KeepAlive(inputs)
	var outp **C.ng_tensor_t
	if len(outs) > 0 {
		outp = &outs[0]
	}
	return status(func() C.ng_status_t {
		return C.ng_computation_run(h, (**C.ng_tensor_t)(unsafe.Pointer(&ins[0])), C.int32_t(len(inputs)), outp, C.int32_t(len(outs)))
	})
}

// Stats are figures of a compiled plan.
type Stats struct {
	ArenaBytes, BufferBytes                        uint64
	NumBuffers, NumKernels, NumNodes, NumSourceOps int
}

// Stats reads the figures of the computation's plan.
func (c *Computation) Stats() (Stats, error) {
	h, err := c.handle()
	if err != nil {
		return Stats{}, err
	}
	var s C.ng_computation_stats_t
	s.struct_size = C.size_t(unsafe.Sizeof(s))
	if err := status(func() C.ng_status_t { return C.ng_computation_stats(h, &s) }); err != nil {
		return Stats{}, err
	}
	return Stats{uint64(s.arena_bytes), uint64(s.buffer_bytes), int(s.num_buffers), int(s.num_kernels),
		int(s.num_nodes), int(s.num_source_ops)}, nil
}

// SetSeed seeds the generator RandomUniform and RandomNormal draw from and restarts its count
// of draws: the runs that follow draw the same values as after any other call with this seed.
// A new transformer has seed 0.
func (t *Transformer) SetSeed(seed uint64) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(t)
	return status(func() C.ng_status_t { return C.ng_transformer_set_seed(h, C.uint64_t(seed)) })
}

// AxisInfo is one axis of a computation's parameter or result.
type AxisInfo struct {
	Name   string
	Length int64
}

// ValueInfo describes a parameter (the tensor a run takes) or a result of a computation: the op's
// name, the dtype and the axes, whose order is the tensor's dims.
type ValueInfo struct {
	Name  string
	DType DType
	Axes  []AxisInfo
}

// Shape is the lengths of the axes.
func (v ValueInfo) Shape() []int64 {
	out := make([]int64, len(v.Axes))
	for i, a := range v.Axes {
		out[i] = a.Length
	}
	return out
}

type valueFuncs struct {
	name       func(*C.ng_computation_t, C.int32_t) *C.char
	dtype      func(*C.ng_computation_t, C.int32_t) C.ng_dtype_t
	rank       func(*C.ng_computation_t, C.int32_t) C.int32_t
	axisName   func(*C.ng_computation_t, C.int32_t, C.int32_t) *C.char
	axisLength func(*C.ng_computation_t, C.int32_t, C.int32_t) C.int64_t
}

var paramFuncs = valueFuncs{
	func(c *C.ng_computation_t, i C.int32_t) *C.char { return C.ng_computation_param_name(c, i) },
	func(c *C.ng_computation_t, i C.int32_t) C.ng_dtype_t { return C.ng_computation_param_dtype(c, i) },
	func(c *C.ng_computation_t, i C.int32_t) C.int32_t { return C.ng_computation_param_rank(c, i) },
	func(c *C.ng_computation_t, i, a C.int32_t) *C.char { return C.ng_computation_param_axis_name(c, i, a) },
	func(c *C.ng_computation_t, i, a C.int32_t) C.int64_t {
		return C.ng_computation_param_axis_length(c, i, a)
	},
}

var resultFuncs = valueFuncs{
	func(c *C.ng_computation_t, i C.int32_t) *C.char { return C.ng_computation_result_name(c, i) },
	func(c *C.ng_computation_t, i C.int32_t) C.ng_dtype_t { return C.ng_computation_result_dtype(c, i) },
	func(c *C.ng_computation_t, i C.int32_t) C.int32_t { return C.ng_computation_result_rank(c, i) },
	func(c *C.ng_computation_t, i, a C.int32_t) *C.char { return C.ng_computation_result_axis_name(c, i, a) },
	func(c *C.ng_computation_t, i, a C.int32_t) C.int64_t {
		return C.ng_computation_result_axis_length(c, i, a)
	},
}

func (c *Computation) describe(f valueFuncs, i int) (ValueInfo, error) {
	h, done, err := c.hold() // the strings belong to the computation: it stays open while they are copied
	if err != nil {
		return ValueInfo{}, err
	}
	defer done()
	return withThread(func() (ValueInfo, error) {
		ci := C.int32_t(i)
		name := f.name(h, ci)
		if name == nil {
			return ValueInfo{}, lastError()
		}
		v := ValueInfo{Name: C.GoString(name), DType: DType(f.dtype(h, ci))}
		rank := f.rank(h, ci)
		if v.DType == 0 || rank < 0 {
			return ValueInfo{}, lastError()
		}
		for a := C.int32_t(0); a < rank; a++ {
			an := f.axisName(h, ci, a)
			al := f.axisLength(h, ci, a)
			if an == nil || al < 0 {
				return ValueInfo{}, lastError()
			}
			v.Axes = append(v.Axes, AxisInfo{C.GoString(an), int64(al)})
		}
		return v, nil
	})
}

// Param describes parameter i (0 <= i < NumParams): what an input tensor must be.
func (c *Computation) Param(i int) (ValueInfo, error) { return c.describe(paramFuncs, i) }

// Result describes result i (0 <= i < NumResults): what an output tensor is.
func (c *Computation) Result(i int) (ValueInfo, error) { return c.describe(resultFuncs, i) }

// Params describes every parameter, in order.
func (c *Computation) Params() ([]ValueInfo, error) { return c.describeAll(paramFuncs, c.NumParams()) }

// Results describes every result, in order.
func (c *Computation) Results() ([]ValueInfo, error) {
	return c.describeAll(resultFuncs, c.NumResults())
}

func (c *Computation) describeAll(f valueFuncs, n int) ([]ValueInfo, error) {
	if n < 0 {
		return nil, closedError("computation")
	}
	out := make([]ValueInfo, n)
	for i := range out {
		var err error
		if out[i], err = c.describe(f, i); err != nil {
			return nil, err
		}
	}
	return out, nil
}
