package nanograph

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// y = tanh(x . W + b), computed by a scalar loop.
func denseByHand(x []float32, w []float32, b []float32, in, out int) []float32 {
	y := make([]float32, out)
	for o := 0; o < out; o++ {
		s := float64(b[o])
		for i := 0; i < in; i++ {
			s += float64(x[i]) * float64(w[i*out+o])
		}
		y[o] = float32(math.Tanh(s))
	}
	return y
}

func near(t *testing.T, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-5 {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

func TestONNXExportImport(t *testing.T) {
	g := must(NewGraph())
	defer g.Close()
	in, out := must(g.Axis("I", 3)), must(g.Axis("O", 2))
	w0 := []float32{0.5, -1, 0.25, 2, -0.75, 0.1}
	b0 := []float32{0.2, -0.3}
	x := must(g.Placeholder(Float32, []*Axis{in}, nil))
	noErr(t, x.SetName("x"))
	w := must(g.Variable(Float32, []*Axis{in, out}, must(g.Constant([]*Axis{in, out}, w0))))
	b := must(g.Constant([]*Axis{out}, b0))
	y := must(g.Tanh(must(g.Add(must(g.Dot(x, w)), b))))
	noErr(t, y.SetName("y"))
	xv := []float32{1, -2, 0.5}

	model := must(g.ExportONNX([]*Op{y}, x))
	g2 := must(ImportONNX(model, ONNXOptions{}))
	defer g2.Close()
	x2, y2 := must(g2.Find("x")), must(g2.Find("y"))
	if len(must(y2.Variables())) != 0 {
		t.Fatal("initializers imported as variables without ONNXTrainable")
	}
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile([]*Op{y2}, x2))
	res := must(f.Run(must(FromSlice(xv))))
	near(t, "imported model", must(res[0].Float32s()), denseByHand(xv, w0, b0, 3, 2))

	// The trained export takes W's value from the transformer; imported as trainable, W is a
	// variable holding it.
	w1 := []float32{1, 0, 0, 1, 1, 1}
	noErr(t, tr.SetValue(w, must(FromSlice(w1, 3, 2))))
	dir := t.TempDir()
	trained := filepath.Join(dir, "trained.onnx")
	if err := tr.ExportTrainedONNXFile(trained, g, []*Op{y}, x); err != nil {
		t.Fatal(err)
	}
	g3 := must(ImportONNXFile(trained, ONNXOptions{Flags: ONNXTrainable}))
	defer g3.Close()
	x3, y3 := must(g3.Find("x")), must(g3.Find("y"))
	// W and b, the float initializers, are variables.
	if vars := must(y3.Variables()); len(vars) != 2 || vars[0].Flags()&FlagTrainable == 0 {
		t.Fatalf("trainable import: variables %v", vars)
	}
	f3 := must(tr.Compile([]*Op{y3}, x3))
	near(t, "trained model", must(must(f3.Run(must(FromSlice(xv))))[0].Float32s()), denseByHand(xv, w1, b0, 3, 2))

	// The untrained file export and the plain file import give the initial weights back, and
	// bytes and file hold the same model.
	plain := filepath.Join(dir, "plain.onnx")
	if err := g.ExportONNXFile(plain, []*Op{y}, x); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(plain); !reflect.DeepEqual(b, model) {
		t.Fatal("file and bytes differ")
	}
	g4 := must(ImportONNXFile(plain, ONNXOptions{Dims: map[string]int64{}}))
	defer g4.Close()
	f4 := must(tr.Compile([]*Op{must(g4.Find("y"))}, must(g4.Find("x"))))
	near(t, "file model", must(must(f4.Run(must(FromSlice(xv))))[0].Float32s()), denseByHand(xv, w0, b0, 3, 2))
}

func TestONNXBadInput(t *testing.T) {
	g := must(NewGraph())
	n := must(g.Axis("N", 2))
	v := must(g.Variable(Float32, []*Axis{n}, nil))
	p := must(g.Placeholder(Float32, []*Axis{n}, nil))
	a := must(g.Assign(v, p))
	_, err := g.ExportONNX([]*Op{a}, p)
	wantError(t, err, ErrUnsupported, "ng_onnx_export_bytes")
	_, err = g.ExportONNX([]*Op{must(g.Exp(p))})
	wantError(t, err, ErrInvalidArgument, "ng_onnx_export_bytes")
	dir := t.TempDir()
	wantError(t, g.ExportONNXFile(filepath.Join(dir, "no", "such", "dir.onnx"), []*Op{p}, p), ErrIO, "ng_onnx_export_file")
	tr := must(NewTransformer(""))
	wantError(t, tr.ExportTrainedONNXFile(filepath.Join(dir, "x.onnx"), g, []*Op{a}, p), ErrUnsupported, "ng_onnx_export_trained_file")
	_, err = ImportONNX([]byte{0xff, 0xff, 0xff}, ONNXOptions{})
	wantError(t, err, ErrFormat, "ng_onnx_import_bytes")
	_, err = ImportONNX(nil, ONNXOptions{Flags: 0x80})
	wantError(t, err, ErrInvalidArgument, "ng_onnx_import_bytes")
	_, err = ImportONNXFile(filepath.Join(dir, "missing.onnx"), ONNXOptions{})
	wantError(t, err, ErrIO, "ng_onnx_import_file")
	_, err = ImportONNXFile(filepath.Join(dir, "missing.onnx"), ONNXOptions{Flags: ONNXTrainable})
	wantError(t, err, ErrIO, "ng_onnx_import_file_with")
	good := must(g.ExportONNX([]*Op{must(g.Exp(p))}, p))
	_, err = ImportONNX(good, ONNXOptions{Dims: map[string]int64{"batch": -1}})
	wantError(t, err, ErrInvalidArgument, "ng_onnx_import_bytes")
	g.Close()
	if _, err := g.ExportONNX([]*Op{p}, p); err == nil {
		t.Fatal("export from a closed graph")
	}
}

// TensorProto bytes written by hand from the protobuf wire format, for a transposed view.
func TestSerialize(t *testing.T) {
	base := must(FromSlice([]int32{1, 4, 2, 5, 3, 6}, 3, 2))
	view := must(base.Transpose()) // 2x3: 1 2 3 / 4 5 6
	b := must(view.Serialize())
	want := []byte{0x08, 0x03, 0x12, 0x08, 0x12, 0x02, 0x08, 0x02, 0x12, 0x02, 0x08, 0x03, 0x22, 24}
	for _, v := range []int32{1, 2, 3, 4, 5, 6} {
		want = binary.LittleEndian.AppendUint32(want, uint32(v))
	}
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("serialized % x\nwant       % x", b, want)
	}
	back := must(Deserialize(b))
	if !reflect.DeepEqual(back.Shape(), []int64{2, 3}) || !reflect.DeepEqual(must(back.Int32s()), []int32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("round trip %v %v", back.Shape(), must(back.Int32s()))
	}
	_, err := Deserialize(b[:len(b)-1]) // truncated
	wantError(t, err, ErrFormat, "ng_tensor_deserialize")
	_, err = Deserialize([]byte{0x08, 0x07}) // DT_STRING
	wantError(t, err, ErrUnsupported, "ng_tensor_deserialize")
	view.Close()
	if _, err := view.Serialize(); err == nil {
		t.Fatal("serialized a closed tensor")
	}
}

func TestRandomOpsAndSeed(t *testing.T) {
	g := must(NewGraph())
	n := must(g.Axis("N", 4000))
	u := must(g.RandomUniform(Float64, []*Axis{n}, -1, 3))
	z := must(g.RandomNormal(Float64, []*Axis{n}, 5, 2))
	tr := must(NewTransformer(""))
	f := must(tr.Compile([]*Op{u, z}))
	moments := func(v []float64) (mean, variance float64) {
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		for _, x := range v {
			variance += (x - mean) * (x - mean)
		}
		return mean, variance / float64(len(v)-1)
	}
	first := must(f.Run())
	uv, zv := must(first[0].Float64s()), must(first[1].Float64s())
	for _, x := range uv {
		if x < -1 || x >= 3 {
			t.Fatalf("uniform value %v outside [-1, 3)", x)
		}
	}
	// Uniform on [-1, 3): mean 1, variance 16/12; normal: mean 5, variance 4. Within 6 standard
	// errors of the mean.
	if m, v := moments(uv); math.Abs(m-1) > 6*math.Sqrt(16.0/12/4000) || math.Abs(v-16.0/12) > 0.15 {
		t.Fatalf("uniform mean %v variance %v", m, v)
	}
	if m, v := moments(zv); math.Abs(m-5) > 6*2/math.Sqrt(4000) || math.Abs(v-4) > 0.6 {
		t.Fatalf("normal mean %v variance %v", m, v)
	}
	second := must(f.Run())
	if reflect.DeepEqual(must(second[0].Float64s()), uv) {
		t.Fatal("the same values at two runs")
	}
	// A new transformer has seed 0: seeding 0 again replays the first run.
	noErr(t, tr.SetSeed(0))
	replay := must(f.Run())
	if !reflect.DeepEqual(must(replay[0].Float64s()), uv) || !reflect.DeepEqual(must(replay[1].Float64s()), zv) {
		t.Fatal("seed 0 does not replay the first run")
	}
	_, err := g.RandomUniform(Int32, []*Axis{n}, 0, 1)
	wantError(t, err, ErrDType, "ng_uniform")
	_, err = g.RandomUniform(Float32, []*Axis{n}, 1, 1)
	wantError(t, err, ErrInvalidArgument, "ng_uniform")
	_, err = g.RandomNormal(Float32, []*Axis{n}, 0, -1)
	wantError(t, err, ErrInvalidArgument, "ng_normal")
	tr.Close()
	if err := tr.SetSeed(1); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed transformer: %v", err)
	}
}

func TestComputationDescribesItsValues(t *testing.T) {
	g := must(NewGraph())
	a, b := must(g.Axis("A", 2)), must(g.Axis("B", 3))
	x := must(g.Placeholder(Float64, []*Axis{a, b}, nil))
	noErr(t, x.SetName("x"))
	k := must(g.Placeholder(Int32, nil, nil))
	noErr(t, k.SetName("k"))
	s := must(g.Sum(x, a))
	noErr(t, s.SetName("s"))
	tr := must(NewTransformer(""))
	f := must(tr.Compile([]*Op{s, must(g.AxesWithOrder(x, b, a))}, x, k))
	g.Close()
	tr.Close() // the description stays answerable
	params := must(f.Params())
	want := []ValueInfo{{"x", Float64, []AxisInfo{{"A", 2}, {"B", 3}}}, {"k", Int32, nil}}
	if !reflect.DeepEqual(params, want) {
		t.Fatalf("params %+v, want %+v", params, want)
	}
	results := must(f.Results())
	if results[0].Name != "s" || results[0].DType != Float64 || !reflect.DeepEqual(results[0].Axes, []AxisInfo{{"B", 3}}) {
		t.Fatalf("result 0 %+v", results[0])
	}
	if !reflect.DeepEqual(results[1].Shape(), []int64{3, 2}) || results[1].Axes[0].Name != "B" {
		t.Fatalf("result 1 %+v", results[1])
	}
	_, err := f.Param(2)
	wantError(t, err, ErrInvalidArgument, "ng_computation_param_name")
	_, err = f.Result(-1)
	wantError(t, err, ErrInvalidArgument, "ng_computation_result_name")
	f.Close()
	if _, err := f.Params(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed computation: %v", err)
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Protobuf's wire format, enough to write a small ONNX model by hand.
func pbVarint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func pbInt(field int, v uint64) []byte { return append(pbVarint(uint64(field<<3)), pbVarint(v)...) }

func pbBytes(field int, parts ...[]byte) []byte {
	var payload []byte
	for _, p := range parts {
		payload = append(payload, p...)
	}
	out := append(pbVarint(uint64(field<<3|2)), pbVarint(uint64(len(payload)))...)
	return append(out, payload...)
}

// y = Relu(x), x of shape (batch, feat): two symbolic dimensions (dim_param), float32.
func symbolicReluModel() []byte {
	dim := func(param string) []byte { return pbBytes(1, pbBytes(2, []byte(param))) }
	typ := pbBytes(2, pbBytes(1, pbInt(1, 1), pbBytes(2, dim("batch"), dim("feat"))))
	value := func(name string) []byte { return append(pbBytes(1, []byte(name)), typ...) }
	node := pbBytes(1, pbBytes(1, []byte("x")), pbBytes(2, []byte("y")), pbBytes(4, []byte("Relu")))
	graph := pbBytes(7, node, pbBytes(2, []byte("g")), pbBytes(11, value("x")), pbBytes(12, value("y")))
	return append(append(pbInt(1, 7), graph...), pbBytes(8, pbInt(2, 13))...)
}

func TestONNXSymbolicDimensions(t *testing.T) {
	model := symbolicReluModel()
	g := must(ImportONNX(model, ONNXOptions{Dims: map[string]int64{"feat": 3, "batch": 2}}))
	defer g.Close()
	tr := must(NewTransformer(""))
	f := must(tr.Compile([]*Op{must(g.Find("y"))}, must(g.Find("x"))))
	p := must(f.Param(0))
	if p.Name != "x" || !reflect.DeepEqual(p.Shape(), []int64{2, 3}) || p.DType != Float32 {
		t.Fatalf("parameter %+v, want x of (2, 3)", p)
	}
	xs := []float32{-1, 2, -3, 4, 0, -0.5}
	want := make([]float32, len(xs))
	for i, x := range xs {
		want[i] = float32(math.Max(float64(x), 0))
	}
	near(t, "relu", must(must(f.Run(must(FromSlice(xs, 2, 3))))[0].Float32s()), want)
	_, err := ImportONNX(model, ONNXOptions{Dims: map[string]int64{"batch": 2}})
	wantError(t, err, ErrInvalidArgument, "feat")
	path := filepath.Join(t.TempDir(), "relu.onnx")
	noErr(t, os.WriteFile(path, model, 0o600))
	g2 := must(ImportONNXFile(path, ONNXOptions{Dims: map[string]int64{"batch": 5, "feat": 1}}))
	defer g2.Close()
	if s := must(g2.Find("x")).Shape(); !reflect.DeepEqual(s, []int64{5, 1}) {
		t.Fatalf("x of the file's model: %v", s)
	}
}
