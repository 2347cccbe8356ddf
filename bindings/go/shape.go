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

// ShapeKind is the kind of a Shape.
type ShapeKind int32

// The kinds of shape.
const (
	ShapeSmooth ShapeKind = C.NG_SHAPE_SMOOTH // a hyper-rectangle
	ShapeJagged ShapeKind = C.NG_SHAPE_JAGGED // some slices along a mode have different extents
	ShapeNested ShapeKind = C.NG_SHAPE_NESTED // elements that are shapes
)

// IndexMode says which indices a ShapeIter gives.
type IndexMode int32

// The index modes.
const (
	IndexRelative IndexMode = C.NG_INDEX_RELATIVE // offsets from zero: rank entries
	IndexAbsolute IndexMode = C.NG_INDEX_ABSOLUTE // the origin added: one entry per mode of the root
)

// Shape describes which indices exist (smooth, jagged or nested); immutable and
// reference-counted by the library, so it may be shared between goroutines.
type Shape struct {
	counted[C.ng_shape_t, *Shape, shapeKind]
}

type shapeKind struct{}

func (shapeKind) name() string                { return "shape" }
func (shapeKind) free(h *C.ng_shape_t)        { C.ng_shape_release(h) }
func (shapeKind) retain(h *C.ng_shape_t)      { C.ng_shape_retain(h) }
func (shapeKind) wrap(h *C.ng_shape_t) *Shape { return adoptShape(h) }

func adoptShape(h *C.ng_shape_t) *Shape {
	s := &Shape{}
	s.h = h
	runtime.SetFinalizer(s, (*Shape).Close)
	return s
}

func newShape(f func() *C.ng_shape_t) (*Shape, error) {
	h, err := withThread(func() (*C.ng_shape_t, error) {
		h := f()
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	return adoptShape(h), nil
}

// SmoothShape is the hyper-rectangle of the given extents (none: rank 0, one element).
func SmoothShape(extents ...int64) (*Shape, error) {
	return newShape(func() *C.ng_shape_t { return C.ng_shape_smooth(int64s(extents), C.int32_t(len(extents))) })
}

// ShapeMode describes one mode after the first of a jagged shape: Splits (row splits over the
// positions of the mode before it) when not nil, otherwise the uniform Extent.
type ShapeMode struct {
	Splits []int64
	Extent int64
}

// Uniform is a mode of one extent.
func Uniform(extent int64) ShapeMode { return ShapeMode{Extent: extent} }

// RowSplits is a jagged mode: row p of the mode before has splits[p+1] - splits[p] entries.
func RowSplits(splits ...int64) ShapeMode {
	if splits == nil {
		splits = []int64{}
	}
	return ShapeMode{Splits: splits}
}

// JaggedShape is a shape of mode 0 of extent outer followed by the given modes (normalised: it is
// smooth when every row of every jagged mode has the same length).
func JaggedShape(outer int64, modes ...ShapeMode) (*Shape, error) {
	n := len(modes)
	if n == 0 {
		return newShape(func() *C.ng_shape_t { return C.ng_shape_jagged(C.int64_t(outer), 1, nil, nil, nil) })
	}
	// The array of pointers to splits lives in C memory: cgo forbids passing Go memory that holds
	// Go pointers.
	ptrSize := C.size_t(unsafe.Sizeof(uintptr(0)))
	total := 0
	for _, m := range modes {
		total += len(m.Splits)
	}
	block := C.malloc(ptrSize*C.size_t(n) + 8*C.size_t(total+1))
	defer C.free(block)
	ptrs := unsafe.Slice((**C.int64_t)(block), n)
	data := unsafe.Slice((*C.int64_t)(unsafe.Add(block, uintptr(ptrSize)*uintptr(n))), total+1)
	counts := make([]C.int64_t, n)
	extents := make([]C.int64_t, n)
	at := 0
	for i, m := range modes {
		ptrs[i] = nil
		extents[i] = C.int64_t(m.Extent)
		if m.Splits != nil {
			ptrs[i] = &data[at]
			counts[i] = C.int64_t(len(m.Splits))
			for _, v := range m.Splits {
				data[at] = C.int64_t(v)
				at++
			}
		}
	}
	return newShape(func() *C.ng_shape_t {
		return C.ng_shape_jagged(C.int64_t(outer), C.int32_t(n+1), (**C.int64_t)(block), &counts[0], &extents[0])
	})
}

// NestedShape is a shape whose elements are shapes: numel(outer) elements of one rank, in the
// outer shape's row-major order. The arguments are not consumed.
func NestedShape(outer *Shape, elements ...*Shape) (*Shape, error) {
	oh, err := outer.handle()
	if err != nil {
		return nil, err
	}
	hs := make([]*C.ng_shape_t, len(elements)+1)
	for i, e := range elements {
		if hs[i], err = e.handle(); err != nil {
			return nil, err
		}
	}
	defer runtime.KeepAlive(outer)
	defer runtime.KeepAlive(elements)
	return newShape(func() *C.ng_shape_t {
		return C.ng_shape_nested(oh, &hs[0], C.int64_t(len(elements)))
	})
}

// shapeInt runs an accessor returning -1 on failure.
func (s *Shape) int64Of(f func(h *C.ng_shape_t) C.int64_t) (int64, error) {
	h, err := s.handle()
	if err != nil {
		return -1, err
	}
	defer runtime.KeepAlive(s)
	return withThread(func() (int64, error) {
		if v := f(h); v >= 0 {
			return int64(v), nil
		}
		return -1, lastError()
	})
}

// Kind is ShapeSmooth, ShapeJagged or ShapeNested.
func (s *Shape) Kind() (ShapeKind, error) {
	v, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_kind(h)) })
	return ShapeKind(v), err
}

// Rank is the number of modes (nested: the outer rank plus the elements' rank).
func (s *Shape) Rank() (int, error) {
	v, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_rank(h)) })
	return int(v), err
}

// Numel is the number of elements (indices); 1 for rank 0.
func (s *Shape) Numel() (int64, error) {
	return s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.ng_shape_numel(h) })
}

// Extent is the extent of mode len(prefix) in the slice at that index prefix.
func (s *Shape) Extent(prefix ...int64) (int64, error) {
	return s.int64Of(func(h *C.ng_shape_t) C.int64_t {
		return C.ng_shape_extent(h, int64s(prefix), C.int32_t(len(prefix)))
	})
}

// IsJagged reports whether a mode's extent depends on the indices before it.
func (s *Shape) IsJagged(mode int) (bool, error) {
	v, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_mode_is_jagged(h, C.int32_t(mode))) })
	return v == 1, err
}

// SmoothRank is the rank of the largest smooth slices (the rank itself for a smooth shape).
func (s *Shape) SmoothRank() (int, error) {
	v, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_smooth_rank(h)) })
	return int(v), err
}

// RowSplits are the row splits of a mode (1 <= mode < rank) over the positions of the mode
// before it; implicit ones (0, e, 2e, ...) for a uniform mode.
func (s *Shape) RowSplits(mode int) ([]int64, error) {
	n, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.ng_shape_row_splits(h, C.int32_t(mode), nil, 0) })
	if err != nil {
		return nil, err
	}
	out := make([]int64, n+1)
	if _, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t {
		return C.ng_shape_row_splits(h, C.int32_t(mode), int64s(out), C.int64_t(n))
	}); err != nil {
		return nil, err
	}
	return out[:n], nil
}

// Equal reports whether two shapes have the same kind, modes, extents and elements (origins are
// not compared).
func (s *Shape) Equal(o *Shape) (bool, error) {
	oh, err := o.handle()
	if err != nil {
		return false, err
	}
	defer runtime.KeepAlive(o)
	v, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_equal(h, oh)) })
	return v == 1, err
}

func (s *Shape) derive(f func(h *C.ng_shape_t) *C.ng_shape_t) (*Shape, error) {
	h, err := s.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(s)
	return newShape(func() *C.ng_shape_t { return f(h) })
}

// Flatten turns a nested shape into one smooth or jagged shape of the same rank and elements.
func (s *Shape) Flatten() (*Shape, error) {
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t { return C.ng_shape_flatten(h) })
}

// Outer is the outer shape of a nested shape.
func (s *Shape) Outer() (*Shape, error) {
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t { return C.ng_shape_outer(h) })
}

// Element is element i of a nested shape, in the outer shape's row-major order.
func (s *Shape) Element(i int64) (*Shape, error) {
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t { return C.ng_shape_element(h, C.int64_t(i)) })
}

// Slice is positions [start, stop) of mode 0, every mode kept; its origin is start.
func (s *Shape) Slice(start, stop int64) (*Shape, error) {
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t {
		return C.ng_shape_slice(h, C.int64_t(start), C.int64_t(stop))
	})
}

// At is the slice at an index prefix (the first len(prefix) indices fixed); its origin is the
// prefix.
func (s *Shape) At(prefix ...int64) (*Shape, error) {
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t {
		return C.ng_shape_at(h, int64s(prefix), C.int32_t(len(prefix)))
	})
}

// Broadcast is the shape of an elementwise op's result on operands of shapes s and o.
func (s *Shape) Broadcast(o *Shape) (*Shape, error) {
	oh, err := o.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(o)
	return s.derive(func(h *C.ng_shape_t) *C.ng_shape_t { return C.ng_shape_broadcast(h, oh) })
}

// Origin is where the shape's element (0, ..., 0) is in its root shape (one entry per mode of
// the root).
func (s *Shape) Origin() ([]int64, error) {
	n, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.int64_t(C.ng_shape_origin(h, nil, 0)) })
	if err != nil {
		return nil, err
	}
	out := make([]int64, n+1)
	if _, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t {
		return C.int64_t(C.ng_shape_origin(h, int64s(out), C.int32_t(n)))
	}); err != nil {
		return nil, err
	}
	return out[:n], nil
}

// String is a short description such as "(3, [2 0 3])" (a jagged mode as its row lengths).
func (s *Shape) String() string {
	t, err := s.Text()
	if err != nil {
		return err.Error()
	}
	return t
}

// Text is the description String gives, with the error when the shape is closed.
func (s *Shape) Text() (string, error) {
	n, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t { return C.ng_shape_text(h, nil, 0) })
	if err != nil {
		return "", err
	}
	buf := make([]byte, n+1)
	if _, err := s.int64Of(func(h *C.ng_shape_t) C.int64_t {
		return C.ng_shape_text(h, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
	}); err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// ShapeIter steps through the indices of a shape in row-major order (the order of a jagged
// tensor's values). Use it from one goroutine at a time.
type ShapeIter struct {
	owned[C.ng_shape_iter_t, shapeIterKind]
	n int
}

type shapeIterKind struct{}

func (shapeIterKind) name() string              { return "shape iterator" }
func (shapeIterKind) free(h *C.ng_shape_iter_t) { C.ng_shape_iter_destroy(h) }

// Iter makes an iterator over the shape's indices (it keeps its own reference to the shape).
func (s *Shape) Iter(mode IndexMode) (*ShapeIter, error) {
	h, err := s.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(s)
	return withThread(func() (*ShapeIter, error) {
		ih := C.ng_shape_iter_create(h, C.int32_t(mode))
		if ih == nil {
			return nil, lastError()
		}
		it := &ShapeIter{n: int(C.ng_shape_iter_index_length(ih))}
		it.h = ih
		runtime.SetFinalizer(it, (*ShapeIter).Close)
		return it, nil
	})
}

// IndexLength is the number of entries of each index.
func (it *ShapeIter) IndexLength() int { return it.n }

// Next writes the next index into index (IndexLength entries) and reports whether there was one.
func (it *ShapeIter) Next(index []int64) (bool, error) {
	h, err := it.handle()
	if err != nil {
		return false, err
	}
	defer runtime.KeepAlive(it)
	return withThread(func() (bool, error) {
		var p *C.int64_t
		if len(index) > 0 {
			p = (*C.int64_t)(unsafe.Pointer(&index[0]))
		}
		switch C.ng_shape_iter_next(h, p, C.int32_t(len(index))) {
		case 1:
			return true, nil
		case 0:
			return false, nil
		}
		return false, lastError()
	})
}

// All is every remaining index, each a new slice.
func (it *ShapeIter) All() ([][]int64, error) {
	var out [][]int64
	for {
		idx := make([]int64, it.n)
		ok, err := it.Next(idx)
		if err != nil || !ok {
			return out, err
		}
		out = append(out, idx)
	}
}

// Reset starts again from the first index.
func (it *ShapeIter) Reset() error {
	h, err := it.handle()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(it)
	return status(func() C.ng_status_t { return C.ng_shape_iter_reset(h) })
}

// handle is the shared handle's, except that a nil *Shape is reported as closed instead of
// panicking.
func (s *Shape) handle() (*C.ng_shape_t, error) {
	if s == nil {
		return nil, closedError(shapeKind{}.name())
	}
	return s.counted.handle()
}
