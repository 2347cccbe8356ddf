package nanograph

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// wantError checks an error's status and that its message names the C function.
func wantError(t *testing.T, err error, sentinel *Error, function string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v from %s", sentinel.Status, function)
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("%v (%v), want status %v", err, err.(*Error).Status, sentinel.Status)
	}
	if !strings.Contains(err.Error(), function) {
		t.Fatalf("message %q does not name %s", err.Error(), function)
	}
}

// Three rows of lengths 2, 0, 3: the indices, by a loop over the splits.
func TestJaggedShapeAndIteration(t *testing.T) {
	splits := []int64{0, 2, 2, 5}
	s := must(JaggedShape(3, RowSplits(splits...)))
	defer s.Close()
	if k := must(s.Kind()); k != ShapeJagged {
		t.Fatalf("kind %v", k)
	}
	if must(s.Rank()) != 2 || must(s.Numel()) != 5 || must(s.SmoothRank()) != 1 {
		t.Fatalf("rank %d numel %d smooth rank %d", must(s.Rank()), must(s.Numel()), must(s.SmoothRank()))
	}
	if must(s.Extent()) != 3 {
		t.Fatalf("extent of mode 0: %d", must(s.Extent()))
	}
	for r := int64(0); r < 3; r++ {
		if e := must(s.Extent(r)); e != splits[r+1]-splits[r] {
			t.Fatalf("row %d has %d entries, want %d", r, e, splits[r+1]-splits[r])
		}
	}
	if j0, j1 := must(s.IsJagged(0)), must(s.IsJagged(1)); j0 || !j1 {
		t.Fatalf("jagged modes %v %v", j0, j1)
	}
	if got := must(s.RowSplits(1)); !reflect.DeepEqual(got, splits) {
		t.Fatalf("row splits %v", got)
	}
	if s.String() != "(3, [2 0 3])" {
		t.Fatalf("text %q", s.String())
	}
	var want [][]int64
	for r := int64(0); r < 3; r++ {
		for c := int64(0); c < splits[r+1]-splits[r]; c++ {
			want = append(want, []int64{r, c})
		}
	}
	it := must(s.Iter(IndexRelative))
	defer it.Close()
	if it.IndexLength() != 2 {
		t.Fatalf("index length %d", it.IndexLength())
	}
	if got := must(it.All()); !reflect.DeepEqual(got, want) {
		t.Fatalf("indices %v, want %v", got, want)
	}
	if err := it.Reset(); err != nil {
		t.Fatal(err)
	}
	first := make([]int64, 2)
	if !must(it.Next(first)) || !reflect.DeepEqual(first, want[0]) {
		t.Fatalf("after reset: %v", first)
	}
	_, err := it.Next(make([]int64, 1)) // too small
	wantError(t, err, ErrInvalidArgument, "ng_shape_iter_next")

	// Rows 1..3 keep their origin: absolute indices are the relative ones shifted by 1 row.
	sl := must(s.Slice(1, 3))
	if got := must(sl.Origin()); !reflect.DeepEqual(got, []int64{1, 0}) {
		t.Fatalf("origin %v", got)
	}
	abs := must(must(sl.Iter(IndexAbsolute)).All())
	if !reflect.DeepEqual(abs, want[2:]) {
		t.Fatalf("absolute %v, want %v", abs, want[2:])
	}
	row2 := must(s.At(2))
	if must(row2.Rank()) != 1 || must(row2.Numel()) != 3 || !reflect.DeepEqual(must(row2.Origin()), []int64{2, 0}) {
		t.Fatalf("row 2: %v origin %v", row2, must(row2.Origin()))
	}
	// Equal ignores origins; a second handle is the same shape.
	again := must(s.Retain())
	if !must(again.Equal(s)) || must(sl.Equal(s)) {
		t.Fatal("equality")
	}
	again.Close()
	// Rows of equal length normalise to a smooth shape.
	sm := must(JaggedShape(2, RowSplits(0, 3, 6)))
	if must(sm.Kind()) != ShapeSmooth || !must(sm.Equal(must(SmoothShape(2, 3)))) {
		t.Fatalf("normalised: %v", sm)
	}
	// A smooth (1) broadcasts against the jagged shape; (4) does not.
	if b := must(s.Broadcast(must(SmoothShape(1)))); !must(b.Equal(s)) {
		t.Fatalf("broadcast %v", b)
	}
	_, err = s.Broadcast(must(SmoothShape(4)))
	wantError(t, err, ErrAxes, "ng_shape_broadcast")
}

func TestNestedShapes(t *testing.T) {
	outer := must(SmoothShape(2))
	a, b := must(SmoothShape(2, 3)), must(SmoothShape(1, 3))
	n := must(NestedShape(outer, a, b))
	if must(n.Kind()) != ShapeNested || must(n.Rank()) != 3 || must(n.Numel()) != 6+3 {
		t.Fatalf("nested %v: rank %d numel %d", n, must(n.Rank()), must(n.Numel()))
	}
	if !must(must(n.Outer()).Equal(outer)) || !must(must(n.Element(1)).Equal(b)) {
		t.Fatal("outer or element")
	}
	// Flattened: 2 rows (of lengths 2 and 1) of 3.
	flat := must(n.Flatten())
	want := must(JaggedShape(2, RowSplits(0, 2, 3), Uniform(3)))
	if !must(flat.Equal(want)) {
		t.Fatalf("flatten %v, want %v", flat, want)
	}
	_, err := n.Element(2)
	wantError(t, err, ErrInvalidArgument, "ng_shape_element")
	_, err = n.Slice(0, 1)
	wantError(t, err, ErrUnsupported, "ng_shape_slice")
	_, err = NestedShape(outer, a)
	wantError(t, err, ErrAxes, "ng_shape_nested")
	_, err = must(SmoothShape(2)).Outer()
	wantError(t, err, ErrInvalidArgument, "ng_shape_outer")
}

func TestShapeBadInput(t *testing.T) {
	_, err := SmoothShape(2, -1)
	wantError(t, err, ErrInvalidArgument, "ng_shape_smooth")
	_, err = JaggedShape(3, RowSplits(0, 2, 1, 5))
	wantError(t, err, ErrInvalidArgument, "ng_shape_jagged")
	_, err = JaggedShape(3, RowSplits(0, 2))
	wantError(t, err, ErrInvalidArgument, "ng_shape_jagged")
	s := must(SmoothShape(2, 3))
	_, err = s.Extent(5)
	wantError(t, err, ErrInvalidArgument, "ng_shape_extent")
	_, err = s.IsJagged(2)
	wantError(t, err, ErrInvalidArgument, "ng_shape_mode_is_jagged")
	_, err = s.RowSplits(0)
	wantError(t, err, ErrInvalidArgument, "ng_shape_row_splits")
	_, err = s.At(0, 3)
	wantError(t, err, ErrInvalidArgument, "ng_shape_at")
	_, err = s.Iter(IndexMode(7))
	wantError(t, err, ErrInvalidArgument, "ng_shape_iter_create")
	if must(s.RowSplits(1)); !reflect.DeepEqual(must(s.RowSplits(1)), []int64{0, 3, 6}) {
		t.Fatalf("implicit splits %v", must(s.RowSplits(1)))
	}
	s.Close()
	s.Close()
	if _, err := s.Rank(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed shape: %v", err)
	}
}

// A jagged tensor's values are packed row after row: positions, padding and views by hand.
func TestJaggedTensors(t *testing.T) {
	splits := []int64{0, 2, 2, 5}
	s := must(JaggedShape(3, RowSplits(splits...)))
	vals := []float32{1, 2, 3, 4, 5}
	j := must(JaggedFromSlice(s, vals))
	defer j.Close()
	if must(j.DType()) != Float32 || !must(must(j.Shape()).Equal(s)) {
		t.Fatal("dtype or shape")
	}
	for r := int64(0); r < 3; r++ {
		for c := int64(0); c < splits[r+1]-splits[r]; c++ {
			if p := must(j.Position(r, c)); p != splits[r]+c {
				t.Fatalf("position (%d, %d) = %d, want %d", r, c, p, splits[r]+c)
			}
		}
	}
	got := make([]float32, 5)
	if err := j.Read(got); err != nil || !reflect.DeepEqual(got, vals) {
		t.Fatalf("read %v %v", got, err)
	}
	// Padded to 3x3: row r holds its values then zeros; the mask says which.
	padded, mask := must2(j.ToPadded())
	if !reflect.DeepEqual(padded.Shape(), []int64{3, 3}) {
		t.Fatalf("padded shape %v", padded.Shape())
	}
	wantP, wantM := make([]float32, 9), make([]bool, 9)
	for r := int64(0); r < 3; r++ {
		for c := int64(0); c < splits[r+1]-splits[r]; c++ {
			wantP[r*3+c], wantM[r*3+c] = vals[splits[r]+c], true
		}
	}
	gotM := make([]bool, 9)
	if err := mask.Read(gotM); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(must(padded.Float32s()), wantP) || !reflect.DeepEqual(gotM, wantM) {
		t.Fatalf("padded %v mask %v", must(padded.Float32s()), gotM)
	}
	back := must(JaggedFromPadded(padded, mask))
	if err := back.Read(got); err != nil || !reflect.DeepEqual(got, vals) || !must(must(back.Shape()).Equal(s)) {
		t.Fatalf("from padded %v %v", got, err)
	}
	// Views share the values: a write through Values is seen by a slice.
	v := must(j.Values())
	must(v.Float32s())[4] = 50
	last := must(j.Slice(2, 3))
	row := make([]float32, 3)
	if err := last.Read(row); err != nil || !reflect.DeepEqual(row, []float32{3, 4, 50}) {
		t.Fatalf("slice %v %v", row, err)
	}
	at := must(j.At(0))
	two := make([]float32, 2)
	if err := at.Read(two); err != nil || !reflect.DeepEqual(two, []float32{1, 2}) {
		t.Fatalf("at %v %v", two, err)
	}
	if err := at.Write([]float32{-1, -2}); err != nil || must(v.Float32s())[1] != -2 {
		t.Fatalf("write through a view: %v", err)
	}
	if rs := must(must(j.RowSplits(1)).Int64s()); !reflect.DeepEqual(rs, splits) {
		t.Fatalf("row splits %v", rs)
	}
	// Over an ordinary tensor, without copying; zeros; a second handle.
	vt := must(FromSlice([]int64{7, 8, 9, 10, 11}))
	fv := must(JaggedFromValues(s, vt))
	must(vt.Int64s())[0] = 70
	if p := must(must(fv.Values()).Int64s()); p[0] != 70 {
		t.Fatalf("from values does not share: %v", p)
	}
	z := must(NewJagged(Float64, s))
	zs := make([]float64, 5)
	if err := z.Read(zs); err != nil || !reflect.DeepEqual(zs, make([]float64, 5)) {
		t.Fatalf("zeros %v", zs)
	}
	// Wrapping memory that is not Go's (here a tensor's), without copying.
	mem := must(FromSlice([]int32{5, 6, 7, 8, 9}))
	w := must(WrapCJagged(Int32, s, mem.Data()))
	must(mem.Int32s())[3] = 80
	if p := must(w.Position(2, 1)); must(must(w.Values()).Int32s())[p] != 80 {
		t.Fatal("wrap does not share the memory")
	}
	w.Close()
	mem.Close()
	r := must(z.Retain())
	r.Close()
	if must(z.DType()) != Float64 {
		t.Fatal("retained handle closed the tensor")
	}
}

func TestJaggedBadInput(t *testing.T) {
	s := must(JaggedShape(3, RowSplits(0, 2, 2, 5)))
	j := must(JaggedFromSlice(s, []float32{1, 2, 3, 4, 5}))
	_, err := j.Position(1, 0) // row 1 is empty
	wantError(t, err, ErrInvalidArgument, "ng_jagged_position")
	wantError(t, j.Read(make([]float32, 4)), ErrInvalidArgument, "ng_jagged_read")
	wantError(t, j.Write(make([]float32, 6)), ErrInvalidArgument, "ng_jagged_write")
	_, err = j.Slice(2, 4)
	wantError(t, err, ErrInvalidArgument, "ng_jagged_slice")
	_, err = j.At(0, 2)
	wantError(t, err, ErrInvalidArgument, "ng_jagged_at")
	_, err = j.RowSplits(2)
	wantError(t, err, ErrInvalidArgument, "ng_jagged_row_splits")
	_, err = NewJagged(DType(99), s)
	wantError(t, err, ErrDType, "ng_jagged_create")
	_, err = JaggedFromValues(s, must(Zeros(Float32, 4)))
	wantError(t, err, ErrAxes, "ng_jagged_from_values")
	_, err = JaggedFromPadded(must(Zeros(Float32, 2, 2)), must(Zeros(Float32, 2, 2)))
	wantError(t, err, ErrDType, "ng_jagged_from_padded")
	_, err = NewJagged(Float32, must(NestedShape(must(SmoothShape(1)), must(SmoothShape(2)))))
	wantError(t, err, ErrUnsupported, "ng_jagged_create")
	_, err = WrapCJagged(Float32, s, nil)
	wantError(t, err, ErrInvalidArgument, "ng_jagged_wrap")
	j.Close()
	if _, err := j.Values(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}
