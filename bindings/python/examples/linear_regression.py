"""Linear regression trained with deriv: y = x . w + b fitted by plain gradient descent, where the
gradients come from ng.deriv and the update is built as ops (assign), so one run is one step."""
import numpy as np

import nanograph as ng

rng = np.random.default_rng(0)
X = rng.normal(size=(128, 3)).astype(np.float32)
w_true, b_true = np.array([2.0, -3.0, 0.5], np.float32), 1.0
Y = (X @ w_true + b_true + rng.normal(scale=0.01, size=128)).astype(np.float32)

g = ng.Graph()
B, F = g.axis("B", 128), g.axis("F", 3)
x, y = g.placeholder(ng.float32, [B, F]), g.placeholder(ng.float32, [B])
w = g.variable(ng.float32, [F])
b = g.variable(ng.float32, [])
cost = ng.mean((ng.dot(x, w) + b - y) ** 2)
lr = 0.1
step = ng.sequential([ng.assign(w, w - lr * ng.deriv(cost, w)),
                      ng.assign(b, b - lr * ng.deriv(cost, b)), cost])

with ng.Transformer() as t:
    train = t.computation(step, [x, y])
    for i in range(200):
        c = train(X, Y)
        if i % 50 == 0:
            print("step %3d  cost %.6f" % (i, c))
    print("w =", t.get_value(w), " b = %.4f" % t.get_value(b))
    print("true w =", w_true, " b = %.4f" % b_true)
