package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import (
	"runtime"
	"sort"
	"unsafe"
)

// ONNXTrainable is the import option that turns float initializers into variables (initialised to
// the model's values) instead of constants, so that the model can be trained further.
const ONNXTrainable uint32 = C.NG_ONNX_TRAINABLE

// ONNXOptions are the options of ImportONNX and ImportONNXFile.
type ONNXOptions struct {
	// Dims binds the model's symbolic dimensions (dim_param) to lengths.
	Dims map[string]int64
	// Flags is 0 or ONNXTrainable.
	Flags uint32
}

// libraryBytes copies bytes the library allocated into Go memory and frees them with ng_free.
func libraryBytes(p unsafe.Pointer, n C.size_t) []byte {
	defer C.ng_free(p)
	return C.GoBytes(p, C.int(n))
}

// ExportONNX is the computation of results from params (placeholders, the model's inputs) as a
// serialized ONNX model (opset 13); constants, variables and persistent tensors become
// initializers holding their initial values.
func (g *Graph) ExportONNX(results []*Op, params ...*Op) ([]byte, error) {
	gh, rs, ps, err := g.exportArgs(results, params)
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(g)
	var p unsafe.Pointer
	var n C.size_t
	if err := status(func() C.ng_status_t {
		return C.ng_onnx_export_bytes(gh, opsPtr(rs), C.int32_t(len(rs)), opsPtr(ps), C.int32_t(len(ps)), &p, &n)
	}); err != nil {
		return nil, err
	}
	return libraryBytes(p, n), nil
}

// ExportONNXFile writes what ExportONNX gives to a file (replaced when it exists).
func (g *Graph) ExportONNXFile(path string, results []*Op, params ...*Op) error {
	gh, rs, ps, err := g.exportArgs(results, params)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(g)
	cp := cstr(path)
	defer free(cp)
	return status(func() C.ng_status_t {
		return C.ng_onnx_export_file(gh, opsPtr(rs), C.int32_t(len(rs)), opsPtr(ps), C.int32_t(len(ps)), cp)
	})
}

// ExportTrainedONNXFile is ExportONNXFile with the values the transformer holds for variables and
// persistent tensors (a trained network); their initial values where it has none yet.
func (t *Transformer) ExportTrainedONNXFile(path string, g *Graph, results []*Op, params ...*Op) error {
	th, err := t.handle()
	if err != nil {
		return err
	}
	gh, rs, ps, err := g.exportArgs(results, params)
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(g)
	defer runtime.KeepAlive(t)
	cp := cstr(path)
	defer free(cp)
	return status(func() C.ng_status_t {
		return C.ng_onnx_export_trained_file(th, gh, opsPtr(rs), C.int32_t(len(rs)), opsPtr(ps), C.int32_t(len(ps)), cp)
	})
}

func (g *Graph) exportArgs(results, params []*Op) (*C.ng_graph_t, []*C.ng_op_t, []*C.ng_op_t, error) {
	gh, err := g.handle()
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err := opsArray(results)
	if err != nil {
		return nil, nil, nil, err
	}
	ps, err := opsArray(params)
	if err != nil {
		return nil, nil, nil, err
	}
	return gh, rs, ps, nil
}

// dims holds the C arrays of bound symbolic dimensions, sorted by name.
type dims struct {
	names   []*C.char // C strings: a Go slice of C pointers may be passed to C
	lengths []C.int64_t
}

func newDims(m map[string]int64) *dims {
	d := &dims{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d.names = append(d.names, cstr(k))
		d.lengths = append(d.lengths, C.int64_t(m[k]))
	}
	return d
}

func (d *dims) free() {
	for _, n := range d.names {
		free(n)
	}
}

func (d *dims) args() (**C.char, *C.int64_t, C.int32_t) {
	if len(d.names) == 0 {
		return nil, nil, 0
	}
	return &d.names[0], &d.lengths[0], C.int32_t(len(d.names))
}

func importedGraph(f func() *C.ng_graph_t) (*Graph, error) {
	h, err := withThread(func() (*C.ng_graph_t, error) {
		h := f()
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

// ImportONNX reads a serialized ONNX model into a new graph: its inputs become placeholders and
// its outputs ops, named as in the model (Graph.Find finds them), with positional axes "d0",
// "d1", ... The bytes are untrusted input.
func ImportONNX(model []byte, opts ONNXOptions) (*Graph, error) {
	d := newDims(opts.Dims)
	defer d.free()
	names, lengths, n := d.args()
	var p unsafe.Pointer
	if len(model) > 0 {
		p = unsafe.Pointer(&model[0])
	}
	return importedGraph(func() *C.ng_graph_t {
		return C.ng_onnx_import_bytes(p, C.size_t(len(model)), names, lengths, n, C.uint32_t(opts.Flags))
	})
}

// ImportONNXFile is ImportONNX from a file.
func ImportONNXFile(path string, opts ONNXOptions) (*Graph, error) {
	d := newDims(opts.Dims)
	defer d.free()
	names, lengths, n := d.args()
	cp := cstr(path)
	defer free(cp)
	return importedGraph(func() *C.ng_graph_t {
		if opts.Flags == 0 {
			return C.ng_onnx_import_file(cp, names, lengths, n)
		}
		return C.ng_onnx_import_file_with(cp, names, lengths, n, C.uint32_t(opts.Flags))
	})
}

// Serialize is the tensor as a TensorFlow TensorProto message (dtype, shape and the elements,
// dense row-major little-endian, whatever the strides).
func (t *Tensor) Serialize() ([]byte, error) {
	h, err := t.handle()
	if err != nil {
		return nil, err
	}
	defer runtime.KeepAlive(t)
	var p unsafe.Pointer
	var n C.size_t
	if err := status(func() C.ng_status_t { return C.ng_tensor_serialize(h, &p, &n) }); err != nil {
		return nil, err
	}
	return libraryBytes(p, n), nil
}

// Deserialize reads a tensor from a TensorFlow TensorProto message (untrusted bytes: a damaged
// message is an ErrFormat).
func Deserialize(message []byte) (*Tensor, error) {
	var p unsafe.Pointer
	if len(message) > 0 {
		p = unsafe.Pointer(&message[0])
	}
	return newTensor(func() *C.ng_tensor_t { return C.ng_tensor_deserialize(p, C.size_t(len(message))) })
}
