// Package nanograph is the Go binding of libnanograph: tensor computation graphs over named axes.
//
// Every handle (Graph, Transformer, Computation, Tensor) has a Close method and a finalizer as a
// safety net; axes and ops keep their graph alive. Every failure is an *Error carrying the
// library's status and message. The library keeps the last error per OS thread, and goroutines
// move between threads: every call whose error text is read here runs with its goroutine locked
// to its OS thread (runtime.LockOSThread), so a message always belongs to its call.
package nanograph

/*
#cgo LDFLAGS: -lnanograph
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Status is a status code of the C library.
type Status int32

// The status codes.
const (
	StatusOK              Status = C.NG_OK
	StatusInvalidArgument Status = C.NG_ERR_INVALID_ARGUMENT
	StatusAxes            Status = C.NG_ERR_AXES
	StatusDType           Status = C.NG_ERR_DTYPE
	StatusOutOfMemory     Status = C.NG_ERR_OUT_OF_MEMORY
	StatusNotFound        Status = C.NG_ERR_NOT_FOUND
	StatusUnsupported     Status = C.NG_ERR_UNSUPPORTED
	StatusState           Status = C.NG_ERR_STATE
	StatusIO              Status = C.NG_ERR_IO
	StatusFormat          Status = C.NG_ERR_FORMAT
	StatusInternal        Status = C.NG_ERR_INTERNAL
	// StatusClosed is the binding's own: a handle used after Close (the library is not called).
	StatusClosed Status = -1
)

// String is the C name of the status ("NG_ERR_AXES", ...).
func (s Status) String() string {
	if s == StatusClosed {
		return "closed"
	}
	return C.GoString(C.ng_status_string(C.ng_status_t(s)))
}

// Error is a failed call: the status and the library's message, which names the C function and
// the offending value. errors.Is(err, nanograph.ErrAxes) compares statuses.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error of the same status (the sentinels below have no message).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status && (t.Message == "" || t.Message == e.Message)
}

// Sentinels for errors.Is, one per status.
var (
	ErrInvalidArgument = &Error{Status: StatusInvalidArgument}
	ErrAxes            = &Error{Status: StatusAxes}
	ErrDType           = &Error{Status: StatusDType}
	ErrOutOfMemory     = &Error{Status: StatusOutOfMemory}
	ErrNotFound        = &Error{Status: StatusNotFound}
	ErrUnsupported     = &Error{Status: StatusUnsupported}
	ErrState           = &Error{Status: StatusState}
	ErrIO              = &Error{Status: StatusIO}
	ErrFormat          = &Error{Status: StatusFormat}
	ErrInternal        = &Error{Status: StatusInternal}
	ErrClosed          = &Error{Status: StatusClosed}
)

func closedError(what string) error {
	return &Error{Status: StatusClosed, Message: "nanograph: the " + what + " is closed"}
}

// lastError reads the calling thread's error; the caller holds its OS thread locked.
func lastError() error {
	return &Error{Status: Status(C.ng_last_status()), Message: C.GoString(C.ng_last_error())}
}

// withThread runs f with the goroutine locked to its OS thread, so that the thread-local error
// read inside f is the one f's own C call set.
func withThread[T any](f func() (T, error)) (T, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return f()
}

// status runs a C call returning a status, on a locked thread, and turns a failure into *Error.
func status(f func() C.ng_status_t) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if s := f(); s != C.NG_OK {
		return lastError()
	}
	return nil
}

// DType is an element type.
type DType int32

// The element types.
const (
	Bool    DType = C.NG_BOOL
	Int32   DType = C.NG_INT32
	Int64   DType = C.NG_INT64
	Uint8   DType = C.NG_UINT8
	Float32 DType = C.NG_FLOAT32
	Float64 DType = C.NG_FLOAT64
)

// String is the dtype's name ("float32", ...).
func (d DType) String() string { return C.GoString(C.ng_dtype_name(C.ng_dtype_t(d))) }

// Size is the size in bytes of one element (0 for an unknown dtype).
func (d DType) Size() int { return int(C.ng_dtype_size(C.ng_dtype_t(d))) }

// Version is the loaded library's version, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.ng_version_string()) }

// VersionNumber is the loaded library's version as MAJOR*10000 + MINOR*100 + PATCH.
func VersionNumber() int { return int(C.ng_version_number()) }

func cstr(s string) *C.char { return C.CString(s) }
func free(p *C.char)        { C.free(unsafe.Pointer(p)) }

func int64s(v []int64) *C.int64_t {
	if len(v) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&v[0]))
}
