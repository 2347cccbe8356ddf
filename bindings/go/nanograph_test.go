package nanograph

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The first program of the README: cost = sum((x - y)^2) and its derivative.
func TestFirstProgram(t *testing.T) {
	g := must(NewGraph())
	defer g.Close()
	n := must(g.Axis("N", 4))
	x := must(g.Placeholder(Float32, []*Axis{n}, nil))
	y := must(g.Placeholder(Float32, []*Axis{n}, nil))
	diff := must(g.Subtract(x, y))
	cost := must(g.Sum(must(g.Square(diff))))
	dx := must(g.Deriv(cost, x))
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile([]*Op{cost, dx}, x, y))
	defer f.Close()
	xv := must(FromSlice([]float32{1, 2, 3, 4}))
	yv := must(Zeros(Float32, 4))
	out := must(f.Run(xv, yv))
	c := must(out[0].Float32s())
	d := must(out[1].Float32s())
	if len(c) != 1 || c[0] != 30 {
		t.Fatalf("cost %v, want 30", c)
	}
	for i, want := range []float32{2, 4, 6, 8} {
		if d[i] != want {
			t.Fatalf("dx %v, want [2 4 6 8]", d)
		}
	}
}

func TestOpsAgainstHandComputedValues(t *testing.T) {
	g := must(NewGraph())
	a, b := must(g.Axis("A", 2)), must(g.Axis("B", 3))
	x := must(g.Placeholder(Float64, []*Axis{a, b}, nil))
	w := must(g.Constant([]*Axis{b}, []float64{1, 0.5, -1}))
	results := []*Op{
		must(g.Dot(x, w)),              // contracts B
		must(g.Max(x, b)),              // over B
		must(g.Softmax(x, b)),          // over B
		must(g.Tanh(x)),                // elementwise
		must(g.AxesWithOrder(x, b, a)), // transpose
		must(g.Slice(x, SliceSpec{Start: 1, Index: true}, SliceSpec{2, -1, -1, false})),
		must(g.Argmax(x, b)),
	}
	tr := must(NewTransformer(""))
	f := must(tr.Compile(results, x))
	xs := []float64{1, 2, 3, -1, 5, 0}
	out := must(f.Run(must(FromSlice(xs, 2, 3))))
	approx := func(name string, got []float64, want ...float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("%s: %v, want %v", name, got, want)
			}
		}
	}
	approx("dot", must(out[0].Float64s()), 1+1-3, -1+2.5-0)
	approx("max", must(out[1].Float64s()), 3, 5)
	sm := must(out[2].Float64s())
	z := math.Exp(1) + math.Exp(2) + math.Exp(3)
	approx("softmax row 0", sm[:3], math.Exp(1)/z, math.Exp(2)/z, math.Exp(3)/z)
	th := must(out[3].Float64s())
	approx("tanh", th[:2], math.Tanh(1), math.Tanh(2))
	tr2 := must(out[4].Float64s())
	approx("transpose", tr2, 1, -1, 2, 5, 3, 0)
	approx("slice", must(out[5].Float64s()), 0, 5, -1)
	am := must(out[6].Int64s())
	if am[0] != 2 || am[1] != 1 {
		t.Fatalf("argmax %v", am)
	}
}

func TestErrorsCarryStatusAndMessage(t *testing.T) {
	g := must(NewGraph())
	n3, n4 := must(g.Axis("N", 3)), must(g.Axis("N", 4))
	a := must(g.Placeholder(Float32, []*Axis{n3}, nil))
	b := must(g.Placeholder(Float32, []*Axis{n4}, nil))
	_, err := g.Add(a, b)
	var e *Error
	if !errors.As(err, &e) || e.Status != StatusAxes || !errors.Is(err, ErrAxes) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(e.Message, "ng_add") || !strings.Contains(e.Message, "N(3)") {
		t.Fatalf("message %q", e.Message)
	}
	if e.Status.String() != "NG_ERR_AXES" || g.Status() != StatusAxes || !errors.Is(g.Err(), ErrAxes) {
		t.Fatalf("status %v / graph %v", e.Status, g.Err())
	}
	if _, err := g.Axis("", 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("empty axis name: %v", err)
	}
	if _, err := g.Find("nothing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("find: %v", err)
	}
	if _, err := NewTransformer("gpu"); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("backend: %v", err)
	}
	tr := must(NewTransformer(""))
	if _, err := tr.Compile([]*Op{a}); !errors.Is(err, ErrState) {
		t.Fatalf("compile: %v", err)
	}
	f := must(tr.Compile([]*Op{a}, a))
	if _, err := f.Run(must(Zeros(Float32, 5))); !errors.Is(err, ErrAxes) {
		t.Fatalf("run: %v", err)
	}
	if _, err := f.Run(); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("run without inputs: %v", err)
	}
}

func TestClosedHandlesAndAnyOrder(t *testing.T) {
	g := must(NewGraph())
	n := must(g.Axis("N", 2))
	x := must(g.Placeholder(Float32, []*Axis{n}, nil))
	y := must(g.Multiply(x, must(g.Scalar(2))))
	tr := must(NewTransformer(""))
	f := must(tr.Compile([]*Op{y}, x))
	g.Close()
	g.Close()
	tr.Close()
	if _, err := g.Add(x, x); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	out := must(f.Run(must(FromSlice([]float32{1, 2}))))
	v := must(out[0].Float32s())
	if v[0] != 2 || v[1] != 4 {
		t.Fatalf("%v", v)
	}
	f.Close()
	f.Close()
	if _, err := f.Run(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed computation: %v", err)
	}
	// Left to the finalizers, in whatever order the collector picks.
	for i := 0; i < 50; i++ {
		g := must(NewGraph())
		x := must(g.Placeholder(Float32, []*Axis{must(g.Axis("N", 2))}, nil))
		tr := must(NewTransformer(""))
		f := must(tr.Compile([]*Op{must(g.Exp(x))}, x))
		_ = must(f.Run(must(Zeros(Float32, 2))))
	}
	runtime.GC()
	runtime.GC()
}

func TestTrainingLinearRegression(t *testing.T) {
	w, b, cost := trainLinearRegression(t, 200)
	if math.Abs(w[0]-2) > 1e-2 || math.Abs(w[1]+3) > 1e-2 || math.Abs(b-1) > 1e-2 || cost > 1e-4 {
		t.Fatalf("w %v b %v cost %v", w, b, cost)
	}
}

func trainLinearRegression(t *testing.T, steps int) ([]float64, float64, float64) {
	g := must(NewGraph())
	defer g.Close()
	bAx, fAx := must(g.Axis("B", 8)), must(g.Axis("F", 2))
	x := must(g.Placeholder(Float64, []*Axis{bAx, fAx}, nil))
	y := must(g.Placeholder(Float64, []*Axis{bAx}, nil))
	w := must(g.Variable(Float64, []*Axis{fAx}, must(g.Normal(Float64, []*Axis{fAx}, 0, 0.1, 1))))
	b := must(g.Variable(Float64, nil, nil))
	pred := must(g.Add(must(g.Dot(x, w)), b))
	cost := must(g.Mean(must(g.Square(must(g.Subtract(pred, y))))))
	lr := must(g.PersistentTensor(Float64, nil, must(g.ScalarOf(Float64, 0.1))))
	opts := DefaultSGDOptions()
	opts.Momentum = 0.5
	step := must(g.SGD(cost, lr, opts))
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile([]*Op{step}, x, y))
	xs := make([]float64, 16)
	ys := make([]float64, 8)
	for i := 0; i < 8; i++ {
		xs[2*i], xs[2*i+1] = float64(i)/4, math.Sin(float64(i))
		ys[i] = 2*xs[2*i] - 3*xs[2*i+1] + 1
	}
	xt, yt := must(FromSlice(xs, 8, 2)), must(FromSlice(ys))
	var last float64
	for i := 0; i < steps; i++ {
		out := must(f.Run(xt, yt))
		last = must(out[0].Float64s())[0]
		out[0].Close()
	}
	wv := must(must(tr.GetValue(w)).Float64s())
	bv := must(must(tr.GetValue(b)).Float64s())
	return wv, bv[0], last
}

func TestNilHandlesAreReportedNotPanics(t *testing.T) {
	g := must(NewGraph())
	defer g.Close()
	n := must(g.Axis("N", 2))
	x := must(g.Placeholder(Float32, []*Axis{n}, nil))
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile([]*Op{must(g.Sum(x))}, x))
	defer f.Close()
	if _, err := f.Run(nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Run(nil tensor): %v, want ErrClosed", err)
	}
	var s *Shape
	if _, err := s.handle(); !errors.Is(err, ErrClosed) {
		t.Fatalf("nil shape: %v, want ErrClosed", err)
	}
	var j *Jagged
	if _, err := j.handle(); !errors.Is(err, ErrClosed) {
		t.Fatalf("nil jagged: %v, want ErrClosed", err)
	}
}
