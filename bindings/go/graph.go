package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// Graph owns its ops and axes. Build one graph from one goroutine at a time.
type Graph struct {
	mu     sync.Mutex
	h      *C.ng_graph_t
	closed bool
	users  int // live computations compiled from the graph: it is destroyed after them
}

// NewGraph creates an empty graph.
func NewGraph() (*Graph, error) {
	h, err := withThread(func() (*C.ng_graph_t, error) {
		h := C.ng_graph_create()
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	g := &Graph{h: h}
	runtime.SetFinalizer(g, (*Graph).Close)
	return g, nil
}

// Close destroys the graph: its ops and axes can no longer be used (they return ErrClosed).
// Computations compiled from it go on working; the C graph is freed after the last of them.
func (g *Graph) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	g.destroyIfUnused()
}

func (g *Graph) destroyIfUnused() {
	if g.closed && g.users == 0 && g.h != nil {
		C.ng_graph_destroy(g.h)
		g.h = nil
	}
}

func (g *Graph) addUser() {
	g.mu.Lock()
	g.users++
	g.mu.Unlock()
}

func (g *Graph) releaseUser() {
	g.mu.Lock()
	g.users--
	g.destroyIfUnused()
	g.mu.Unlock()
}

func (g *Graph) handle() (*C.ng_graph_t, error) {
	if g == nil || g.closed {
		return nil, closedError("graph")
	}
	return g.h, nil
}

// Axis is a named axis of a given length; it keeps its graph alive.
type Axis struct {
	h *C.ng_axis_t
	g *Graph
}

// Op is an op of a graph: a value with a dtype and named axes. It keeps its graph alive.
type Op struct {
	h *C.ng_op_t
	g *Graph
}

// Graph is the graph the op belongs to.
func (o *Op) Graph() *Graph { return o.g }

func (o *Op) handle() (*C.ng_op_t, error) {
	if o == nil {
		return nil, &Error{Status: StatusInvalidArgument, Message: "nanograph: nil op"}
	}
	if _, err := o.g.handle(); err != nil {
		return nil, err
	}
	return o.h, nil
}

func (a *Axis) handle() (*C.ng_axis_t, error) {
	if a == nil {
		return nil, &Error{Status: StatusInvalidArgument, Message: "nanograph: nil axis"}
	}
	if _, err := a.g.handle(); err != nil {
		return nil, err
	}
	return a.h, nil
}

// newOp wraps the result of a builder run on a locked thread.
func (g *Graph) newOp(f func(gh *C.ng_graph_t) *C.ng_op_t) (*Op, error) {
	gh, err := g.handle()
	if err != nil {
		return nil, err
	}
	h, err := withThread(func() (*C.ng_op_t, error) {
		h := f(gh)
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	runtime.KeepAlive(g)
	if err != nil {
		return nil, err
	}
	return &Op{h: h, g: g}, nil
}

// Axis is the axis of the graph with this name and length (the same one for equal arguments).
func (g *Graph) Axis(name string, length int64) (*Axis, error) {
	gh, err := g.handle()
	if err != nil {
		return nil, err
	}
	n := cstr(name)
	defer free(n)
	h, err := withThread(func() (*C.ng_axis_t, error) {
		h := C.ng_axis(gh, n, C.int64_t(length))
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	return &Axis{h: h, g: g}, nil
}

// Name is the axis's name.
func (a *Axis) Name() string {
	h, err := a.handle()
	if err != nil {
		return ""
	}
	return C.GoString(C.ng_axis_name(h))
}

// Length is the axis's length.
func (a *Axis) Length() int64 {
	h, err := a.handle()
	if err != nil {
		return -1
	}
	return int64(C.ng_axis_length(h))
}

// Components are the axes a flattened axis was made of (none for other axes).
func (a *Axis) Components() []*Axis {
	h, err := a.handle()
	if err != nil {
		return nil
	}
	n := int(C.ng_axis_num_components(h))
	out := make([]*Axis, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, &Axis{h: C.ng_axis_component(h, C.int32_t(i)), g: a.g})
	}
	return out
}

// Same reports whether two Axis values are one axis of one graph.
func (a *Axis) Same(b *Axis) bool { return a != nil && b != nil && a.h == b.h }

func axesArray(axes []*Axis) ([]*C.ng_axis_t, error) {
	out := make([]*C.ng_axis_t, len(axes))
	for i, a := range axes {
		h, err := a.handle()
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func axesPtr(a []*C.ng_axis_t) **C.ng_axis_t {
	if len(a) == 0 {
		return nil
	}
	return (**C.ng_axis_t)(unsafe.Pointer(&a[0]))
}

func opsArray(ops []*Op) ([]*C.ng_op_t, error) {
	out := make([]*C.ng_op_t, len(ops))
	for i, o := range ops {
		h, err := o.handle()
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func opsPtr(a []*C.ng_op_t) **C.ng_op_t {
	if len(a) == 0 {
		return nil
	}
	return (**C.ng_op_t)(unsafe.Pointer(&a[0]))
}

// Status is the status of the first op builder that failed on the graph (StatusOK if none).
func (g *Graph) Status() Status {
	gh, err := g.handle()
	if err != nil {
		return StatusClosed
	}
	return Status(C.ng_graph_status(gh))
}

// Err is the graph's first construction error, or nil: build a whole graph, check once.
func (g *Graph) Err() error {
	gh, err := g.handle()
	if err != nil {
		return err
	}
	if s := Status(C.ng_graph_status(gh)); s != StatusOK {
		return &Error{Status: s, Message: C.GoString(C.ng_graph_error(gh))}
	}
	return nil
}

// Ops are the graph's ops in creation order.
func (g *Graph) Ops() []*Op {
	gh, err := g.handle()
	if err != nil {
		return nil
	}
	n := int(C.ng_graph_num_ops(gh))
	out := make([]*Op, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, &Op{h: C.ng_graph_op(gh, C.int32_t(i)), g: g})
	}
	return out
}

// Find is the op with that name (ErrNotFound when none).
func (g *Graph) Find(name string) (*Op, error) {
	n := cstr(name)
	defer free(n)
	return g.newOp(func(gh *C.ng_graph_t) *C.ng_op_t { return C.ng_graph_find(gh, n) })
}

// OpsWithMetadata lists the ops whose metadata has key (equal to value unless value is nil).
func (g *Graph) OpsWithMetadata(key string, value *string) ([]*Op, error) {
	gh, err := g.handle()
	if err != nil {
		return nil, err
	}
	k := cstr(key)
	defer free(k)
	var v *C.char
	if value != nil {
		v = cstr(*value)
		defer free(v)
	}
	return withThread(func() ([]*Op, error) {
		n := C.ng_graph_select(gh, k, v, nil, 0)
		if n < 0 {
			return nil, lastError()
		}
		hs := make([]*C.ng_op_t, int(n)+1)
		C.ng_graph_select(gh, k, v, opsPtr(hs), n)
		out := make([]*Op, n)
		for i := range out {
			out[i] = &Op{h: hs[i], g: g}
		}
		return out, nil
	})
}

// DotText is the Graphviz DOT text of the graph, or of what roots depend on.
func (g *Graph) DotText(roots ...*Op) (string, error) {
	gh, err := g.handle()
	if err != nil {
		return "", err
	}
	rs, err := opsArray(roots)
	if err != nil {
		return "", err
	}
	return withThread(func() (string, error) {
		var needed C.size_t
		if C.ng_graph_dot(gh, opsPtr(rs), C.int32_t(len(rs)), nil, 0, &needed) != C.NG_OK {
			return "", lastError()
		}
		buf := (*C.char)(C.malloc(needed))
		defer C.free(unsafe.Pointer(buf))
		if C.ng_graph_dot(gh, opsPtr(rs), C.int32_t(len(rs)), buf, needed, nil) != C.NG_OK {
			return "", lastError()
		}
		return C.GoString(buf), nil
	})
}

// WriteDot writes the DOT text of the graph (or of what roots depend on) to a file.
func (g *Graph) WriteDot(path string, roots ...*Op) error {
	gh, err := g.handle()
	if err != nil {
		return err
	}
	rs, err := opsArray(roots)
	if err != nil {
		return err
	}
	p := cstr(path)
	defer free(p)
	return status(func() C.ng_status_t { return C.ng_graph_write_dot(gh, opsPtr(rs), C.int32_t(len(rs)), p) })
}

// ---- op attributes ------------------------------------------------------------------------

// Name is the op's name, unique in its graph.
func (o *Op) Name() string {
	h, err := o.handle()
	if err != nil {
		return ""
	}
	return C.GoString(C.ng_op_name(h))
}

// SetName renames the op.
func (o *Op) SetName(name string) error {
	h, err := o.handle()
	if err != nil {
		return err
	}
	n := cstr(name)
	defer free(n)
	return status(func() C.ng_status_t { return C.ng_op_set_name(h, n) })
}

// Type is the op's type ("Add", "Dot", "Variable", ...).
func (o *Op) Type() string {
	h, err := o.handle()
	if err != nil {
		return ""
	}
	return C.GoString(C.ng_op_type(h))
}

// DType is the dtype of the op's value.
func (o *Op) DType() DType {
	h, err := o.handle()
	if err != nil {
		return 0
	}
	return DType(C.ng_op_dtype(h))
}

// Axes are the axes of the op's value, in order.
func (o *Op) Axes() []*Axis {
	h, err := o.handle()
	if err != nil {
		return nil
	}
	n := int(C.ng_op_rank(h))
	out := make([]*Axis, n)
	for i := range out {
		out[i] = &Axis{h: C.ng_op_axis(h, C.int32_t(i)), g: o.g}
	}
	return out
}

// Shape is the lengths of the op's axes.
func (o *Op) Shape() []int64 {
	axes := o.Axes()
	out := make([]int64, len(axes))
	for i, a := range axes {
		out[i] = a.Length()
	}
	return out
}

// Flags is the union of FlagConstant, FlagPersistent, FlagTrainable, FlagInput (0 for ops that
// are not assignable tensors).
func (o *Op) Flags() uint32 {
	h, err := o.handle()
	if err != nil {
		return 0
	}
	return uint32(C.ng_op_flags(h))
}

// Flags of assignable tensors.
const (
	FlagConstant   uint32 = C.NG_FLAG_CONSTANT
	FlagPersistent uint32 = C.NG_FLAG_PERSISTENT
	FlagTrainable  uint32 = C.NG_FLAG_TRAINABLE
	FlagInput      uint32 = C.NG_FLAG_INPUT
)

// Args are the op's data arguments.
func (o *Op) Args() []*Op {
	h, err := o.handle()
	if err != nil {
		return nil
	}
	out := make([]*Op, int(C.ng_op_num_args(h)))
	for i := range out {
		out[i] = &Op{h: C.ng_op_arg(h, C.int32_t(i)), g: o.g}
	}
	return out
}

// ControlDeps are the ops that must run before this one.
func (o *Op) ControlDeps() []*Op {
	h, err := o.handle()
	if err != nil {
		return nil
	}
	out := make([]*Op, int(C.ng_op_num_control_deps(h)))
	for i := range out {
		out[i] = &Op{h: C.ng_op_control_dep(h, C.int32_t(i)), g: o.g}
	}
	return out
}

// AddControlDep makes dep run before this op whenever it runs.
func (o *Op) AddControlDep(dep *Op) error {
	h, err := o.handle()
	if err != nil {
		return err
	}
	d, err := dep.handle()
	if err != nil {
		return err
	}
	return status(func() C.ng_status_t { return C.ng_op_add_control_dep(h, d) })
}

// InitialValue is the initial value of an assignable tensor (nil when it has none).
func (o *Op) InitialValue() (*Op, error) {
	h, err := o.handle()
	if err != nil {
		return nil, err
	}
	return withThread(func() (*Op, error) {
		v := C.ng_op_initial_value(h)
		if v == nil {
			if C.ng_last_status() != C.NG_OK {
				return nil, lastError()
			}
			return nil, nil
		}
		return &Op{h: v, g: o.g}, nil
	})
}

// SetMetadata sets (or replaces) a metadata entry.
func (o *Op) SetMetadata(key, value string) error {
	h, err := o.handle()
	if err != nil {
		return err
	}
	k, v := cstr(key), cstr(value)
	defer free(k)
	defer free(v)
	return status(func() C.ng_status_t { return C.ng_op_set_metadata(h, k, v) })
}

// Metadata is a metadata value; ok is false when the key is absent.
func (o *Op) Metadata(key string) (value string, ok bool) {
	h, err := o.handle()
	if err != nil {
		return "", false
	}
	k := cstr(key)
	defer free(k)
	v := C.ng_op_metadata(h, k)
	if v == nil {
		return "", false
	}
	return C.GoString(v), true
}

// Same reports whether two Op values are one op.
func (o *Op) Same(p *Op) bool { return o != nil && p != nil && o.h == p.h }

func (o *Op) listing(f func(h *C.ng_op_t, out **C.ng_op_t, n C.int32_t) C.int32_t) ([]*Op, error) {
	h, err := o.handle()
	if err != nil {
		return nil, err
	}
	return withThread(func() ([]*Op, error) {
		n := f(h, nil, 0)
		if n < 0 {
			return nil, lastError()
		}
		hs := make([]*C.ng_op_t, int(n)+1)
		f(h, opsPtr(hs), n)
		out := make([]*Op, n)
		for i := range out {
			out[i] = &Op{h: hs[i], g: o.g}
		}
		return out, nil
	})
}

// Variables are the trainable variables the op depends on, in the order first reached.
func (o *Op) Variables() ([]*Op, error) {
	return o.listing(func(h *C.ng_op_t, out **C.ng_op_t, n C.int32_t) C.int32_t {
		return C.ng_variables(h, out, n)
	})
}

// Placeholders are the placeholders the op depends on, in the order first reached.
func (o *Op) Placeholders() ([]*Op, error) {
	return o.listing(func(h *C.ng_op_t, out **C.ng_op_t, n C.int32_t) C.int32_t {
		return C.ng_placeholders(h, out, n)
	})
}
