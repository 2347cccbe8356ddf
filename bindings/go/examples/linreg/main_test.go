package main

import (
	"math"
	"testing"
)

func TestLearnsTheWeights(t *testing.T) {
	w, b, cost := run(200)
	want := []float64{2, -3, 0.5}
	for i := range want {
		if math.Abs(float64(w[i])-want[i]) > 1e-2 {
			t.Fatalf("w = %v", w)
		}
	}
	if math.Abs(float64(b)-1) > 1e-2 || cost > 1e-4 {
		t.Fatalf("b = %v, cost = %v", b, cost)
	}
}
