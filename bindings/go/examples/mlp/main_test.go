package main

import "testing"

func TestLearnsTheDigits(t *testing.T) {
	if acc := run("../../../../examples/data/digits.csv.gz", 5); acc < 0.9 {
		t.Fatalf("test accuracy %.3f", acc)
	}
}
