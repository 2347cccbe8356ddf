package nanograph

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// One generated builder (ops_generated.go) of each argument pattern, run and compared with
// values computed by hand.
func TestGeneratedBuildersOfEachPattern(t *testing.T) {
	g := must(NewGraph())
	defer g.Close()
	a, b, c := must(g.Axis("A", 2)), must(g.Axis("B", 3)), must(g.Axis("C", 4))
	s := must(g.Axis("S", 2))
	x := must(g.Placeholder(Float32, []*Axis{a, b}, nil)) // dtype, axes, optional op (nil)
	xs := []float32{1, -2, 3, 4, 5, -6}
	splits := must(g.Constant([]*Axis{must(g.Axis("S1", 3))}, []int64{0, 1, 3}))
	results := []*Op{
		must(g.Absolute(x)),                                // op
		must(g.Subtract(x, must(g.Scalar(10)))),            // op, op; double
		must(g.Sum(x, b)),                                  // op, variadic axes
		must(g.Argmax(x, b)),                               // op, axis
		must(g.ExpandDims(x, c, 0)),                        // op, axis, int
		must(g.Cast(x, Int32)),                             // op, dtype
		must(g.Pad(x, []int64{1, 0}, []int64{0, 1})),       // op, two lists of one count
		must(g.Flatten(x, "AB", a, b)),                     // op, string, variadic axes
		must(g.Concat("B", x, x)),                          // string, variadic ops
		must(g.Stack(s, 0, x, x)),                          // axis, int, variadic ops
		must(g.SegmentSum(x, b, splits, s)),                // op, axis, op, axis
		must(g.Uniform(Float32, []*Axis{a}, 0.25, 0.5, 3)), // dtype, axes, doubles, uint64
		must(g.AssignableTensor(Float64, nil, FlagPersistent, // dtype, axes, uint32, optional op
			must(g.ScalarOf(Float64, 2.5)))),
		must(g.Slice(x, SliceSpec{Start: 1, Index: true}, SliceSpec{0, 3, 2, false})), // variadic slices
	}
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile(results, x))
	defer f.Close()
	out := must(f.Run(must(FromSlice(xs, 2, 3))))
	f32 := func(i int, want ...float32) {
		t.Helper()
		if got := must(out[i].Float32s()); !reflect.DeepEqual(got, want) {
			t.Errorf("result %d: %v, want %v", i, got, want)
		}
	}
	f32(0, 1, 2, 3, 4, 5, 6)
	f32(1, -9, -12, -7, -6, -5, -16)
	f32(2, 2, 3)
	if got := must(out[3].Int64s()); !reflect.DeepEqual(got, []int64{2, 1}) {
		t.Errorf("argmax: %v", got)
	}
	rep := append([]float32{}, xs...)
	for i := 0; i < 3; i++ {
		rep = append(rep, xs...)
	}
	f32(4, rep...)
	if got := must(out[5].Int32s()); !reflect.DeepEqual(got, []int32{1, -2, 3, 4, 5, -6}) {
		t.Errorf("cast: %v", got)
	}
	f32(6, 0, 0, 0, 0, 1, -2, 3, 0, 4, 5, -6, 0)
	f32(7, xs...)
	f32(8, 1, -2, 3, 1, -2, 3, 4, 5, -6, 4, 5, -6)
	f32(9, append(append([]float32{}, xs...), xs...)...)
	f32(10, 1, 4, 1, -1) // B's segments {0} and {1, 2}, per row of A: axes (S, A)
	for _, v := range must(out[11].Float32s()) {
		if v < 0.25 || v >= 0.5 {
			t.Errorf("uniform: %v outside [0.25, 0.5)", v)
		}
	}
	if got := must(out[12].Float64s()); !reflect.DeepEqual(got, []float64{2.5}) {
		t.Errorf("assignable tensor: %v", got)
	}
	f32(13, 4, -6)
}

// Bad input to generated builders comes back as an *Error with the library's status.
func TestGeneratedBuildersReportErrors(t *testing.T) {
	g := must(NewGraph())
	defer g.Close()
	a := must(g.Axis("A", 2))
	x := must(g.Placeholder(Float32, []*Axis{a}, nil))
	_, err := g.Reshape(x, must(g.Axis("P", 3)))
	var e *Error
	if !errors.As(err, &e) || e.Status != StatusAxes || !strings.Contains(e.Message, "reshape") {
		t.Fatalf("reshape onto 3 elements: %v, want an axes error naming reshape", err)
	}
	if _, err := g.Pad(x, []int64{1}, []int64{1, 2}); !errors.As(err, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("pad with lists of two lengths: %v, want an invalid-argument error", err)
	}
	if _, err := g.Negative(nil); !errors.As(err, &e) || e.Status != StatusInvalidArgument {
		t.Fatalf("negative of nil: %v, want an invalid-argument error", err)
	}
	other := must(NewGraph())
	other.Close()
	if _, err := other.Exp(x); !errors.Is(err, ErrClosed) {
		t.Fatalf("a builder of a closed graph: %v, want ErrClosed", err)
	}
}
