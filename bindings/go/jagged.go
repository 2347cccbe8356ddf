package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// Jagged is a jagged host tensor: a dtype, a smooth or jagged shape and one value per index of
// the shape, packed in row-major order (nothing padded). Reference-counted by the library; a
// slice is a view sharing the values. Values live in C memory.
//
// DLPack has no jagged form: a jagged tensor crosses as its Values (rank 1) and the RowSplits of
// each jagged mode, both ordinary tensors.
type Jagged struct {
	counted[C.ng_jagged_t, *Jagged, jaggedKind]
}

type jaggedKind struct{}

func (jaggedKind) name() string                  { return "jagged tensor" }
func (jaggedKind) free(h *C.ng_jagged_t)         { C.ng_jagged_release(h) }
func (jaggedKind) retain(h *C.ng_jagged_t)       { C.ng_jagged_retain(h) }
func (jaggedKind) wrap(h *C.ng_jagged_t) *Jagged { return adoptJagged(h) }

func newJagged(f func() *C.ng_jagged_t) (*Jagged, error) {
	h, err := withThread(func() (*C.ng_jagged_t, error) {
		h := f()
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	return adoptJagged(h), nil
}

func adoptJagged(h *C.ng_jagged_t) *Jagged {
	j := &Jagged{}
	j.h = h
	runtime.SetFinalizer(j, (*Jagged).Close)
	return j
}

// NewJagged is a zero-filled jagged tensor of a smooth or jagged shape (not nested).
func NewJagged(dt DType, shape *Shape) (*Jagged, error) {
	sh, err := shape.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(shape)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_create(C.ng_dtype_t(dt), sh) })
}

// JaggedFromSlice is a jagged tensor holding a copy of data ([]float32, []float64, []int32,
// []int64, []uint8 or []bool of the shape's element count, in row-major order).
func JaggedFromSlice(shape *Shape, data interface{}) (*Jagged, error) {
	sh, err := shape.handle()
	if err != nil {
		return nil, err
	}
	dt, ptr, n, err := sliceData(data)
	if err != nil {
		return nil, err
	}
	if want, err := shape.Numel(); err != nil {
		return nil, err
	} else if int64(n) != want {
		return nil, &Error{Status: StatusInvalidArgument, Message: fmt.Sprintf("nanograph: JaggedFromSlice: %d values for %d elements", n, want)}
	}
	defer runtime.KeepAlive(shape)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_from_data(C.ng_dtype_t(dt), sh, ptr) })
}

// WrapCJagged wraps packed values in memory that is not Go's, without copying; the memory must
// outlive the tensor, its views and exports of its values.
func WrapCJagged(dt DType, shape *Shape, values unsafe.Pointer) (*Jagged, error) {
	sh, err := shape.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(shape)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_wrap(C.ng_dtype_t(dt), sh, values, nil, nil) })
}

// JaggedFromValues is a jagged tensor over the values of a rank-1 tensor, without copying.
func JaggedFromValues(shape *Shape, values *Tensor) (*Jagged, error) {
	sh, err := shape.handle()
	if err != nil {
		return nil, err
	}
	vh, err := values.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(shape)
	defer runtime.KeepAlive(values)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_from_values(sh, vh) })
}

// JaggedFromPadded reads a jagged tensor off a padded dense tensor and its bool mask (copied).
func JaggedFromPadded(padded, mask *Tensor) (*Jagged, error) {
	ph, err := padded.handle()
	if err != nil {
		return nil, err
	}
	mh, err := mask.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(padded)
	defer runtime.KeepAlive(mask)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_from_padded(ph, mh) })
}

// DType is the element type.
func (j *Jagged) DType() (DType, error) {
	h, err := j.handle()
	if err != nil {
		return 0, err
	}
	defer runtime.KeepAlive(j)
	return withThread(func() (DType, error) {
		if d := DType(C.ng_jagged_dtype(h)); d != 0 {
			return d, nil
		}
		return 0, lastError()
	})
}

// Shape is the tensor's shape (a slice's shape carries its origin).
func (j *Jagged) Shape() (*Shape, error) {
	h, err := j.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(j)
	return newShape(func() *C.ng_shape_t { return C.ng_jagged_shape(h) })
}

// Values is a rank-1 tensor view of the values in row-major order (no copy).
func (j *Jagged) Values() (*Tensor, error) {
	h, err := j.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(j)
	return newTensor(func() *C.ng_tensor_t { return C.ng_jagged_values(h) })
}

// RowSplits are the row splits of one mode (1 <= mode < rank) as a new int64 tensor.
func (j *Jagged) RowSplits(mode int) (*Tensor, error) {
	h, err := j.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(j)
	return newTensor(func() *C.ng_tensor_t { return C.ng_jagged_row_splits(h, C.int32_t(mode)) })
}

// Position is where an index (one entry per mode) is among the values.
func (j *Jagged) Position(index ...int64) (int64, error) {
	h, err := j.handle()
	if err != nil {
		return -1, err
	}
	defer runtime.KeepAlive(j)
	return withThread(func() (int64, error) {
		if p := C.ng_jagged_position(h, int64s(index), C.int32_t(len(index))); p >= 0 {
			return int64(p), nil
		}
		return -1, lastError()
	})
}

// Read copies the values out into dst (a slice of the dtype and element count).
func (j *Jagged) Read(dst interface{}) error {
	h, err := j.handle()
	if err != nil {
		return err
	}
	dt, ptr, n, err := sliceData(dst)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(j)
	return status(func() C.ng_status_t { return C.ng_jagged_read(h, ptr, C.size_t(n*dt.Size())) })
}

// Write copies src (packed, the dtype and element count) into the values.
func (j *Jagged) Write(src interface{}) error {
	h, err := j.handle()
	if err != nil {
		return err
	}
	dt, ptr, n, err := sliceData(src)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(j)
	return status(func() C.ng_status_t { return C.ng_jagged_write(h, ptr, C.size_t(n*dt.Size())) })
}

// ToPadded converts to a dense tensor padded with zeros to each mode's largest extent, and a
// bool mask of the same shape saying which entries are values.
func (j *Jagged) ToPadded() (padded, mask *Tensor, err error) {
	h, err := j.handle()
	if err != nil {
		return nil, nil, err
	}
	defer runtime.KeepAlive(j)
	var p, m *C.ng_tensor_t
	if err := status(func() C.ng_status_t { return C.ng_jagged_to_padded(h, &p, &m) }); err != nil {
		return nil, nil, err
	}
	return adoptTensor(p), adoptTensor(m), nil
}

// Slice is a view of positions [start, stop) of mode 0.
func (j *Jagged) Slice(start, stop int64) (*Jagged, error) {
	h, err := j.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(j)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_slice(h, C.int64_t(start), C.int64_t(stop)) })
}

// At is a view of the slice at an index prefix.
func (j *Jagged) At(prefix ...int64) (*Jagged, error) {
	h, err := j.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(j)
	return newJagged(func() *C.ng_jagged_t { return C.ng_jagged_at(h, int64s(prefix), C.int32_t(len(prefix))) })
}

// handle is the shared handle's, except that a nil *Jagged is reported as closed instead of
// panicking.
func (j *Jagged) handle() (*C.ng_jagged_t, error) {
	if j == nil {
		return nil, closedError(jaggedKind{}.name())
	}
	return j.counted.handle()
}
