# Linear regression trained with deriv: gradient descent written as ops, one run = one step.
using Nanograph, Random
const NG = Nanograph

Random.seed!(0)
X = randn(Float32, 128, 3)                       # 128 examples × 3 features, column-major
Y = X * Float32[2, -3, 0.5] .+ 1f0

g = Graph()
B, F = axis(g, "B", 128), axis(g, "F", 3)
x = placeholder(g, Float32, [B, F])               # x[b, f] is X[b, f]: no copy, strides (1, 128)
y = placeholder(g, Float32, [B])
w = variable(g, Float32, [F])
b = variable(g, Float32, Axis[])
cost = NG.mean_op(NG.square(dot_op(x, w) + b - y))
lr = scalar(g, 0.3)
step = sequential([assign(w, w - lr * deriv(cost, w)), assign(b, b - lr * deriv(cost, b)), cost])

t = Transformer()
train = computation(t, [step], [x, y])
for i in 0:299
    c, = train(X, Y)
    i % 50 == 0 && println("step $i  cost $(c[])")
end
println("w = ", get_value(t, w), "  b = ", get_value(t, b)[])
