// Linear regression trained with Deriv: gradient descent written as ops (w <- w - lr * dcost/dw),
// so one run of the computation is one step.
package main

import (
	"fmt"
	"log"
	"math/rand"

	ng "nanograph"
)

func check[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// run trains for steps steps and returns the learnt weights, bias and last cost.
func run(steps int) ([]float32, float32, float32) {
	const n = 128
	rng := rand.New(rand.NewSource(0))
	xs, ys := make([]float32, n*3), make([]float32, n)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			xs[3*i+j] = float32(rng.NormFloat64())
		}
		ys[i] = 2*xs[3*i] - 3*xs[3*i+1] + 0.5*xs[3*i+2] + 1
	}

	g := check(ng.NewGraph())
	defer g.Close()
	B, F := check(g.Axis("B", n)), check(g.Axis("F", 3))
	x := check(g.Placeholder(ng.Float32, []*ng.Axis{B, F}, nil))
	y := check(g.Placeholder(ng.Float32, []*ng.Axis{B}, nil))
	w := check(g.Variable(ng.Float32, []*ng.Axis{F}, nil))
	b := check(g.Variable(ng.Float32, nil, nil))
	residual := check(g.Subtract(check(g.Add(check(g.Dot(x, w)), b)), y))
	cost := check(g.Mean(check(g.Square(residual))))
	lr := check(g.Scalar(0.1))
	update := func(v *ng.Op) *ng.Op {
		step := check(g.Multiply(lr, check(g.Deriv(cost, v))))
		return check(g.Assign(v, check(g.Subtract(v, step))))
	}
	train := check(g.Sequential(update(w), update(b), cost))

	t := check(ng.NewTransformer(""))
	defer t.Close()
	f := check(t.Compile([]*ng.Op{train}, x, y))
	defer f.Close()
	xt, yt := check(ng.FromSlice(xs, n, 3)), check(ng.FromSlice(ys))
	var last float32
	for i := 0; i < steps; i++ {
		out := check(f.Run(xt, yt))
		last = check(out[0].Float32s())[0]
		if i%50 == 0 {
			fmt.Printf("step %3d  cost %.6f\n", i, last)
		}
		out[0].Close()
	}
	wv := check(check(t.GetValue(w)).Float32s())
	bv := check(check(t.GetValue(b)).Float32s())
	return wv, bv[0], last
}

func main() {
	w, b, _ := run(200)
	fmt.Printf("w = %v  b = %.4f  (true: [2 -3 0.5], 1)\n", w, b)
}
