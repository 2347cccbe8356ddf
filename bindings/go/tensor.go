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

// Tensor is a host tensor: a dtype, a shape, strides and reference-counted storage in C memory.
//
// Go memory cannot be lent to the library (cgo forbids C keeping Go pointers), so tensors made
// from Go slices copy them once; the other way needs no copy: Float32s and friends view the
// tensor's C memory as a Go slice, valid while the tensor is open.
type Tensor struct {
	counted[C.ng_tensor_t, *Tensor, tensorKind]
}

type tensorKind struct{}

func (tensorKind) name() string                  { return "tensor" }
func (tensorKind) free(h *C.ng_tensor_t)         { C.ng_tensor_release(h) }
func (tensorKind) retain(h *C.ng_tensor_t)       { C.ng_tensor_retain(h) }
func (tensorKind) wrap(h *C.ng_tensor_t) *Tensor { return adoptTensor(h) }

func adoptTensor(h *C.ng_tensor_t) *Tensor {
	t := &Tensor{}
	t.h = h
	runtime.SetFinalizer(t, (*Tensor).Close)
	return t
}

func newTensor(f func() *C.ng_tensor_t) (*Tensor, error) {
	h, err := withThread(func() (*C.ng_tensor_t, error) {
		h := f()
		if h == nil {
			return nil, lastError()
		}
		return h, nil
	})
	if err != nil {
		return nil, err
	}
	return adoptTensor(h), nil
}

// Zeros creates a zero-filled dense tensor.
func Zeros(dt DType, shape ...int64) (*Tensor, error) {
	return newTensor(func() *C.ng_tensor_t {
		return C.ng_tensor_create(C.ng_dtype_t(dt), int64s(shape), C.int32_t(len(shape)))
	})
}

// FromSlice creates a dense tensor holding a copy of data ([]float32, []float64, []int32,
// []int64, []uint8 or []bool), with the given shape (none: a vector of len(data)).
func FromSlice(data interface{}, shape ...int64) (*Tensor, error) {
	dt, ptr, n, err := sliceData(data)
	if err != nil {
		return nil, err
	}
	if len(shape) == 0 {
		shape = []int64{int64(n)}
	}
	want := int64(1)
	for _, d := range shape {
		want *= d
	}
	if want != int64(n) {
		return nil, &Error{Status: StatusInvalidArgument, Message: fmt.Sprintf("nanograph: FromSlice: %d values for shape %v", n, shape)}
	}
	return newTensor(func() *C.ng_tensor_t {
		return C.ng_tensor_from_data(C.ng_dtype_t(dt), int64s(shape), C.int32_t(len(shape)), ptr)
	})
}

// WrapC wraps memory that is not Go's (C memory, or a mapping) without copying; strides nil
// means dense row-major. The memory must outlive the tensor and every view of it.
func WrapC(dt DType, shape, strides []int64, data unsafe.Pointer) (*Tensor, error) {
	return newTensor(func() *C.ng_tensor_t {
		return C.ng_tensor_wrap(C.ng_dtype_t(dt), int64s(shape), int64s(strides), C.int32_t(len(shape)), data, nil, nil)
	})
}

// FromDLPack imports a DLPack 0.6 DLManagedTensor (a C pointer from another library) without
// copying; the tensor owns it on success.
func FromDLPack(managed unsafe.Pointer) (*Tensor, error) {
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_from_dlpack((*C.struct_DLManagedTensor)(managed)) })
}

// ToDLPack exports the tensor as a DLPack 0.6 DLManagedTensor (C memory) without copying; the
// consumer calls its deleter once.
func (t *Tensor) ToDLPack() (unsafe.Pointer, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	var out *C.struct_DLManagedTensor
	if err := status(func() C.ng_status_t { return C.ng_tensor_to_dlpack(h, &out) }); err != nil {
		return nil, err
	}
	return unsafe.Pointer(out), nil
}

// DType is the tensor's element type.
func (t *Tensor) DType() DType {
	h, err := t.handle()
	if err != nil {
		return 0
	}
	return DType(C.ng_tensor_dtype(h))
}

// Shape is the tensor's dimensions.
func (t *Tensor) Shape() []int64 {
	h, err := t.handle()
	if err != nil {
		return nil
	}
	out := make([]int64, int(C.ng_tensor_rank(h)))
	for i := range out {
		out[i] = int64(C.ng_tensor_dim(h, C.int32_t(i)))
	}
	return out
}

// Strides are the tensor's strides, in elements.
func (t *Tensor) Strides() []int64 {
	h, err := t.handle()
	if err != nil {
		return nil
	}
	out := make([]int64, int(C.ng_tensor_rank(h)))
	for i := range out {
		out[i] = int64(C.ng_tensor_stride(h, C.int32_t(i)))
	}
	return out
}

// Numel is the number of elements.
func (t *Tensor) Numel() int64 {
	h, err := t.handle()
	if err != nil {
		return -1
	}
	return int64(C.ng_tensor_numel(h))
}

// Data is the address of element (0, ..., 0) (C memory, valid while the tensor is open).
func (t *Tensor) Data() unsafe.Pointer {
	h, err := t.handle()
	if err != nil {
		return nil
	}
	return C.ng_tensor_data(h)
}

// IsContiguous reports whether the tensor is dense row-major.
func (t *Tensor) IsContiguous() bool {
	h, err := t.handle()
	return err == nil && C.ng_tensor_is_contiguous(h) == 1
}

// Read copies the elements out, dense row-major, into dst (a slice of the tensor's element type
// and element count).
func (t *Tensor) Read(dst interface{}) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	dt, ptr, n, err := sliceData(dst)
	if err != nil {
		return err
	}
	return status(func() C.ng_status_t {
		return C.ng_tensor_read(h, ptr, C.size_t(n*dt.Size()))
	})
}

// Write copies src (dense row-major, the tensor's dtype and element count) into the tensor.
func (t *Tensor) Write(src interface{}) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	dt, ptr, n, err := sliceData(src)
	if err != nil {
		return err
	}
	return status(func() C.ng_status_t { return C.ng_tensor_write(h, ptr, C.size_t(n*dt.Size())) })
}

func (t *Tensor) view(dt DType) (unsafe.Pointer, int, error) {
	h, err := t.handle()
	if err != nil {
		return nil, 0, err
	}
	if DType(C.ng_tensor_dtype(h)) != dt {
		return nil, 0, &Error{Status: StatusDType, Message: fmt.Sprintf("nanograph: the tensor is %v, not %v", t.DType(), dt)}
	}
	if C.ng_tensor_is_contiguous(h) != 1 {
		return nil, 0, &Error{Status: StatusUnsupported, Message: "nanograph: the tensor is not dense: Copy it first"}
	}
	return C.ng_tensor_data(h), int(C.ng_tensor_numel(h)), nil
}

// Float32s views a dense float32 tensor's memory as a slice (no copy), valid while it is open.
func (t *Tensor) Float32s() ([]float32, error) {
	p, n, err := t.view(Float32)
	if err != nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*float32)(p), n), nil
}

// Float64s views a dense float64 tensor's memory as a slice (no copy).
func (t *Tensor) Float64s() ([]float64, error) {
	p, n, err := t.view(Float64)
	if err != nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*float64)(p), n), nil
}

// Int32s views a dense int32 tensor's memory as a slice (no copy).
func (t *Tensor) Int32s() ([]int32, error) {
	p, n, err := t.view(Int32)
	if err != nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*int32)(p), n), nil
}

// Int64s views a dense int64 tensor's memory as a slice (no copy).
func (t *Tensor) Int64s() ([]int64, error) {
	p, n, err := t.view(Int64)
	if err != nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*int64)(p), n), nil
}

// Copy is a dense copy of the tensor.
func (t *Tensor) Copy() (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_copy(h) })
}

// Reshape is a view with another shape (ErrUnsupported when the strides do not allow it).
func (t *Tensor) Reshape(shape ...int64) (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_reshape(h, int64s(shape), C.int32_t(len(shape))) })
}

// Permute is a view whose dimension i is dimension order[i] of t.
func (t *Tensor) Permute(order ...int32) (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	var p *C.int32_t
	if len(order) > 0 {
		p = (*C.int32_t)(unsafe.Pointer(&order[0]))
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_permute(h, p, C.int32_t(len(order))) })
}

// Transpose is a view with every dimension reversed.
func (t *Tensor) Transpose() (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_transpose(h) })
}

// Slice is a view of dimension dim with Python's slice semantics.
func (t *Tensor) Slice(dim int, start, stop, step int64) (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	return newTensor(func() *C.ng_tensor_t {
		return C.ng_tensor_slice(h, C.int32_t(dim), C.int64_t(start), C.int64_t(stop), C.int64_t(step))
	})
}

// Broadcast is a view repeating t over a larger shape, NumPy style.
func (t *Tensor) Broadcast(shape ...int64) (*Tensor, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_broadcast(h, int64s(shape), C.int32_t(len(shape))) })
}

// handle is the shared handle's, except that a nil *Tensor (an input slot never filled, say) is
// reported as closed instead of panicking.
func (t *Tensor) handle() (*C.ng_tensor_t, error) {
	if t == nil {
		return nil, closedError(tensorKind{}.name())
	}
	return t.counted.handle()
}
