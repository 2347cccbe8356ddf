# A 64-128-10 MLP (ReLU, softmax cross-entropy, Adam) on examples/data/digits.csv.gz: 64 pixel
# values (0-16) and the label per line; every fifth example is held out.
#     julia --project=bindings/julia bindings/julia/examples/mlp_digits.jl [EPOCHS]
using Nanograph, Random
const NG = Nanograph

path = joinpath(@__DIR__, "..", "..", "..", "examples", "data", "digits.csv.gz")
rows = [parse.(Float32, split(l, ',')) for l in eachline(pipeline(`gzip -dc $path`))]
test = [i % 5 == 1 for i in eachindex(rows)]    # 0-based index multiple of 5
pixels(rs) = Float32[r[p] / 16 for r in rs, p in 1:64]   # examples × pixels
labels(rs) = Int32[r[65] for r in rs]
train_x, train_y = pixels(rows[.!test]), labels(rows[.!test])
test_x, test_y = pixels(rows[test]), labels(rows[test])

const BATCH = 32
g = Graph()
N, P, H, C = axis(g, "N", BATCH), axis(g, "P", 64), axis(g, "H", 128), axis(g, "C", 10)
T = axis(g, "T", length(test_y))
w1 = variable(g, Float32, [P, H], he_normal(g, Float32, [P, H], [P], 1))
b1 = variable(g, Float32, [H])
w2 = variable(g, Float32, [H, C], glorot_uniform(g, Float32, [H, C], [H], 2))
b2 = variable(g, Float32, [C])
logits(in) = dot_op(relu(dot_op(in, w1) + b1), w2) + b2
x, label = placeholder(g, Float32, [N, P]), placeholder(g, Int32, [N])
cost = NG.mean_op(cross_entropy_multi(softmax(logits(x), [C]), one_hot(label, C), [C]))
lr = persistent_tensor(g, Float32, Axis[], scalar(g, 0.005))
step = adam(cost, lr)
xt = placeholder(g, Float32, [T, P])
predict = argmax_op(logits(xt), C)

t = Transformer()
train, evaluate = computation(t, [step], [x, label]), computation(t, [predict], [xt])
rate = 0.005f0
for epoch in 1:parse(Int, get(ARGS, 1, "10"))
    order = randperm(length(train_y))
    costs = Float32[]
    for k in 1:BATCH:length(order)-BATCH+1
        idx = order[k:k+BATCH-1]
        push!(costs, train(train_x[idx, :], train_y[idx])[1][])
    end
    pred, = evaluate(test_x)
    accuracy = sum(pred .== test_y) / length(test_y)
    println("epoch $epoch  cost $(sum(costs) / length(costs))  test accuracy $accuracy")
    global rate *= 0.85f0
    set_value!(t, lr, rate)
end
