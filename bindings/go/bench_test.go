package nanograph

import "testing"

// The fixed cost of one run of a + b (four floats): prepared input tensors, a new result tensor
// per run, closed at once (bench/bindings.sh reports it next to C's).
func BenchmarkTinyRun(b *testing.B) {
	g := must(NewGraph())
	defer g.Close()
	n := must(g.Axis("N", 4))
	x := must(g.Placeholder(Float32, []*Axis{n}, nil))
	y := must(g.Placeholder(Float32, []*Axis{n}, nil))
	tr := must(NewTransformer(""))
	defer tr.Close()
	f := must(tr.Compile([]*Op{must(g.Add(x, y))}, x, y))
	defer f.Close()
	xv, yv := must(FromSlice([]float32{1, 2, 3, 4})), must(FromSlice([]float32{10, 20, 30, 40}))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := must(f.Run(xv, yv))
		out[0].Close()
	}
}
