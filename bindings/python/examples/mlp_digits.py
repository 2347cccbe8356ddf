"""A multilayer perceptron (64-128-10, ReLU, softmax cross-entropy, Adam) on the 8x8 digits shipped
in examples/data/digits.csv.gz: 64 pixel values (0-16) and the label on each line; every fifth
example is held out for testing.

    python3 mlp_digits.py [--epochs N] [path/to/digits.csv.gz]
"""
import gzip
import pathlib
import sys

import numpy as np

import nanograph as ng

args = sys.argv[1:]
epochs = 20
if args[:1] == ["--epochs"]:
    epochs, args = int(args[1]), args[2:]
default = pathlib.Path(__file__).resolve().parents[3] / "examples" / "data" / "digits.csv.gz"
path = pathlib.Path(args[0]) if args else default
with gzip.open(path, "rt") as f:
    data = np.loadtxt(f, delimiter=",", dtype=np.float32)
pixels, labels = data[:, :-1] / 16.0, data[:, -1].astype(np.int32)
held_out = np.arange(len(data)) % 5 == 0
train_x, train_y = pixels[~held_out], labels[~held_out]
test_x, test_y = pixels[held_out], labels[held_out]

BATCH = 32
g = ng.Graph()
N, P, H, C = g.axis("N", BATCH), g.axis("P", 64), g.axis("H", 128), g.axis("C", 10)
x, label = g.placeholder(ng.float32, [N, P]), g.placeholder(ng.int32, [N])
w1 = g.variable(ng.float32, [P, H], g.he_normal([P, H], [P], seed=1))
b1 = g.variable(ng.float32, [H])
w2 = g.variable(ng.float32, [H, C], g.glorot_uniform([H, C], [H], seed=2))
b2 = g.variable(ng.float32, [C])


def logits(inputs):
    return ng.dot(ng.relu(ng.dot(inputs, w1) + b1), w2) + b2


probs = ng.softmax(logits(x), C)
cost = ng.mean(ng.cross_entropy_multi(probs, ng.one_hot(label, C), C))
lr = g.persistent_tensor(ng.float32, [], g.scalar(0.005))
step = ng.adam(cost, lr)

T = g.axis("T", len(test_x))  # the whole test set at once, through the same weights
xt = g.placeholder(ng.float32, [T, P])
predict = ng.argmax(logits(xt), C)

with ng.Transformer() as t:
    train, evaluate = t.computation(step, [x, label]), t.computation(predict, [xt])
    rng = np.random.default_rng(0)
    for epoch in range(epochs):
        order = rng.permutation(len(train_x))
        costs = [float(train(train_x[i], train_y[i]))
                 for i in (order[k:k + BATCH] for k in range(0, len(order) - BATCH + 1, BATCH))]
        accuracy = float((evaluate(test_x) == test_y).mean())
        print("epoch %2d  cost %.4f  test accuracy %.3f" % (epoch + 1, np.mean(costs), accuracy))
        t.set_value(lr, float(t.get_value(lr)) * 0.85)
