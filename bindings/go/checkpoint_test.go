package nanograph

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// trainer is w <- w - 0.5 * d(sum((w - target)^2))/dw = w - (w - target) = target after one step,
// plus a random draw: a graph built the same way in two "processes".
type trainer struct {
	g          *Graph
	w          *Op
	step, draw *Computation
}

func newTrainer(t *testing.T, tr *Transformer) *trainer {
	g := must(NewGraph())
	n := must(g.Axis("N", 3))
	w := must(g.Variable(Float32, []*Axis{n}, must(g.Constant([]*Axis{n}, []float32{1, 2, 3}))))
	noErr(t, w.SetName("w"))
	target := must(g.Constant([]*Axis{n}, []float32{4, 4, 4}))
	cost := must(g.Sum(must(g.Square(must(g.Subtract(w, target))))))
	update := must(g.SGD(cost, must(g.Scalar(0.25)), DefaultSGDOptions()))
	r := must(g.RandomUniform(Float64, []*Axis{n}, 0, 1))
	return &trainer{g, w, must(tr.Compile([]*Op{update})), must(tr.Compile([]*Op{r}))}
}

func TestCheckpointSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	tr := must(NewTransformer(""))
	defer tr.Close()
	a := newTrainer(t, tr)
	must(a.step.Run()) // by hand: w - 0.25 * 2 (w - 4)
	want := []float32{1 - 0.5*(1-4), 2 - 0.5*(2-4), 3 - 0.5*(3-4)}
	if got := must(must(tr.GetValue(a.w)).Float32s()); !reflect.DeepEqual(got, want) {
		t.Fatalf("after one step w = %v, want %v", got, want)
	}
	must(a.draw.Run())
	noErr(t, tr.Save(path))
	nextDraw := must(must(a.draw.Run())[0].Float64s())

	// A new transformer with the same graph and computations takes the saved values and the
	// generator's state: its next draw is the one that followed the save.
	tr2 := must(NewTransformer(""))
	defer tr2.Close()
	b := newTrainer(t, tr2)
	noErr(t, tr2.Load(path))
	if got := must(must(tr2.GetValue(b.w)).Float32s()); !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded w = %v, want %v", got, want)
	}
	if got := must(must(b.draw.Run())[0].Float64s()); !reflect.DeepEqual(got, nextDraw) {
		t.Fatalf("draw after load %v, want %v", got, nextDraw)
	}
}

func TestCheckpointBadInput(t *testing.T) {
	dir := t.TempDir()
	tr := must(NewTransformer(""))
	a := newTrainer(t, tr)
	wantError(t, tr.Load(filepath.Join(dir, "missing.ckpt")), ErrIO, "ng_transformer_load")
	wantError(t, tr.Save(filepath.Join(dir, "no", "such", "dir.ckpt")), ErrIO, "ng_transformer_save")
	garbage := filepath.Join(dir, "garbage.ckpt")
	noErr(t, os.WriteFile(garbage, []byte("not a checkpoint"), 0o600))
	wantError(t, tr.Load(garbage), ErrFormat, "ng_transformer_load")
	// A transformer that knows no tensor of the checkpoint.
	saved := filepath.Join(dir, "saved.ckpt")
	noErr(t, tr.Save(saved))
	empty := must(NewTransformer(""))
	wantError(t, empty.Load(saved), ErrNotFound, "ng_transformer_load")
	a.g.Close()
	tr.Close()
	if err := tr.Save(saved); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed transformer: %v", err)
	}
}
