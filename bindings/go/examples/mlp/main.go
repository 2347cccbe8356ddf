// A multilayer perceptron (64-128-10, ReLU, softmax cross-entropy, Adam) on the 8x8 digits of
// examples/data/digits.csv.gz: 64 pixel values (0-16) and the label per line; every fifth
// example is held out for testing.
//
//	go run ./examples/mlp [-epochs N] [-data path/to/digits.csv.gz]
package main

import (
	"compress/gzip"
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math/rand"
	"os"
	"strconv"

	ng "nanograph"
)

func check[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

type dataset struct {
	pixels []float32
	labels []int32
}

func load(path string) (train, test dataset) {
	f := check(os.Open(path))
	defer f.Close()
	rows := check(csv.NewReader(check(gzip.NewReader(f))).ReadAll())
	for i, row := range rows {
		d := &train
		if i%5 == 0 {
			d = &test
		}
		for _, v := range row[:64] {
			d.pixels = append(d.pixels, float32(check(strconv.ParseFloat(v, 32)))/16)
		}
		d.labels = append(d.labels, int32(check(strconv.Atoi(row[64]))))
	}
	return
}

const batch = 32

// run trains for epochs epochs and returns the test accuracy after the last one.
func run(path string, epochs int) float64 {
	train, test := load(path)
	nTest := len(test.labels)
	g := check(ng.NewGraph())
	defer g.Close()
	N, P, H, C := check(g.Axis("N", batch)), check(g.Axis("P", 64)), check(g.Axis("H", 128)), check(g.Axis("C", 10))
	T := check(g.Axis("T", int64(nTest)))
	w1 := check(g.Variable(ng.Float32, []*ng.Axis{P, H}, check(g.HeNormal(ng.Float32, []*ng.Axis{P, H}, []*ng.Axis{P}, 1))))
	b1 := check(g.Variable(ng.Float32, []*ng.Axis{H}, nil))
	w2 := check(g.Variable(ng.Float32, []*ng.Axis{H, C}, check(g.GlorotUniform(ng.Float32, []*ng.Axis{H, C}, []*ng.Axis{H}, 2))))
	b2 := check(g.Variable(ng.Float32, []*ng.Axis{C}, nil))
	logits := func(in *ng.Op) *ng.Op {
		h := check(g.Relu(check(g.Add(check(g.Dot(in, w1)), b1))))
		return check(g.Add(check(g.Dot(h, w2)), b2))
	}
	x := check(g.Placeholder(ng.Float32, []*ng.Axis{N, P}, nil))
	label := check(g.Placeholder(ng.Int32, []*ng.Axis{N}, nil))
	probs := check(g.Softmax(logits(x), C))
	target := check(g.OneHot(label, C, ng.Float32))
	cost := check(g.Mean(check(g.CrossEntropyMulti(probs, target, C))))
	lr := check(g.PersistentTensor(ng.Float32, nil, check(g.Scalar(0.005))))
	step := check(g.Adam(cost, lr, ng.DefaultAdamOptions()))
	xt := check(g.Placeholder(ng.Float32, []*ng.Axis{T, P}, nil))
	predict := check(g.Argmax(logits(xt), C))

	t := check(ng.NewTransformer(""))
	defer t.Close()
	trainStep := check(t.Compile([]*ng.Op{step}, x, label))
	evaluate := check(t.Compile([]*ng.Op{predict}, xt))
	// Batches are written into tensors allocated once; Float32s views their memory.
	xb, yb := check(ng.Zeros(ng.Float32, batch, 64)), check(ng.Zeros(ng.Int32, batch))
	xv, yv := check(xb.Float32s()), check(yb.Int32s())
	testX := check(ng.FromSlice(test.pixels, int64(nTest), 64))
	rng := rand.New(rand.NewSource(0))
	rate := float32(0.005)
	var accuracy float64
	for epoch := 1; epoch <= epochs; epoch++ {
		order := rng.Perm(len(train.labels))
		total, steps := 0.0, 0
		for k := 0; k+batch <= len(order); k += batch {
			for i := 0; i < batch; i++ {
				e := order[k+i]
				copy(xv[64*i:64*i+64], train.pixels[64*e:64*e+64])
				yv[i] = train.labels[e]
			}
			out := check(trainStep.Run(xb, yb))
			total += float64(check(out[0].Float32s())[0])
			steps++
			out[0].Close()
		}
		pred := check(evaluate.Run(testX))
		right := 0
		for i, p := range check(pred[0].Int64s()) {
			if int32(p) == test.labels[i] {
				right++
			}
		}
		pred[0].Close()
		accuracy = float64(right) / float64(nTest)
		fmt.Printf("epoch %2d  cost %.4f  test accuracy %.3f\n", epoch, total/float64(steps), accuracy)
		rate *= 0.85
		scalar := check(ng.Zeros(ng.Float32)) // no dimensions: rank 0
		check(0, scalar.Write([]float32{rate}))
		check(0, t.SetValue(lr, scalar))
	}
	return accuracy
}

func main() {
	epochs := flag.Int("epochs", 20, "passes over the training set")
	data := flag.String("data", "../../examples/data/digits.csv.gz", "the digits data")
	flag.Parse()
	run(*data, *epochs)
}
