# Tests of the Julia binding: run with NANOGRAPH_LIBRARY set,
#     julia --project=bindings/julia -e 'using Pkg; Pkg.test()'
using Nanograph, Test
const NG = Nanograph

@testset "first program" begin
    g = Graph()
    N = axis(g, "N", 4)
    x, y = placeholder(g, Float32, [N]), placeholder(g, Float32, [N])
    cost = sum((x - y)^2)
    f = computation(Transformer(), [cost, deriv(cost, x)], [x, y])
    c, dx = f(Float32[1, 2, 3, 4], zeros(Float32, 4))
    @test c[] == 30
    @test dx == Float32[2, 4, 6, 8]
end

@testset "column-major arrays in, row-major results out, no copies" begin
    g = Graph()
    I, J = axis(g, "I", 2), axis(g, "J", 3)
    a = placeholder(g, Float64, [I, J])
    f = computation(Transformer(), [a * 2.0, NG.axes_with_order_op(a, [J, I])], [a])
    A = [1.0 2 3; 4 5 6]
    d, tr = f(A)
    @test d == 2A
    @test tr == permutedims(A)
    t = Tensor(A)
    @test strides(t) == (1, 2) && size(t) == (2, 3)
    A[1, 1] = 9
    @test NG.read_array(t)[1, 1] == 9
end

@testset "errors" begin
    g = Graph()
    a = placeholder(g, Float32, [axis(g, "N", 3)])
    b = placeholder(g, Float32, [axis(g, "N", 4)])
    err = try a + b; nothing catch e; e end
    @test err isa NanographError
    @test NG.status_name(err) == "NG_ERR_AXES" && occursin("ng_add", err.message)
    close(g)
    @test_throws NanographError a * 2f0
end

@testset "training" begin
    g = Graph()
    B, F = axis(g, "B", 8), axis(g, "F", 2)
    x, y = placeholder(g, Float64, [B, F]), placeholder(g, Float64, [B])
    w = variable(g, Float64, [F])
    cost = NG.mean_op(NG.square(dot_op(x, w) - y))
    t = Transformer()
    train = computation(t, [sgd(cost, scalar(g, Float64, 0.2))], [x, y])
    X = [i / 4 for i in 0:7, _ in 1:1] .* [1.0 0.0] .+ [0.0 1.0] .* sin.(0:7)
    for _ in 1:1000
        train(X, X * [2.0, -3.0])
    end
    @test isapprox(get_value(t, w), [2.0, -3.0]; atol=1e-2)
end
