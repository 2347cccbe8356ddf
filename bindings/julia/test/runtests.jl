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

@testset "generated builders, one of each argument pattern" begin
    g = Graph()
    A, B, C, S = axis(g, "A", 2), axis(g, "B", 3), axis(g, "C", 4), axis(g, "S", 2)
    x = placeholder(g, Float32, [A, B])                         # dtype, axes, optional op
    splits = constant(g, Int64[0, 1, 3], [axis(g, "S1", 3)])
    ops = [abs(x),                                              # op (Base.abs)
           x - scalar(g, 10),                                   # op, op; double
           NG.sum_op(x, [B]),                                   # op, axes
           NG.expand_dims(x, C, 0),                             # op, axis, int32
           NG.pad(x, [1, 0], [0, 1]),                           # two lists of one count
           NG.concat([x, x], "B"),                              # ops, string
           NG.stack([x, x], S, 0),                              # ops, axis, int32
           segment_sum(x, B, splits, S)]                        # op, axis, op, axis
    X = Float32[1 -2 3; 4 5 -6]
    r = computation(Transformer(), ops, [x])(X)
    @test r[1] == abs.(X) && r[2] == X .- 10 && r[3] == vec(sum(X; dims=2))
    @test size(r[4]) == (4, 2, 3) && all(r[4][k, :, :] == X for k in 1:4)
    @test r[5] == Float32[0 0 0 0; 1 -2 3 0; 4 5 -6 0]
    @test r[6] == hcat(X, X) && r[7][1, :, :] == X && r[7][2, :, :] == X
    @test r[8] == Float32[1 4; 1 -1]                            # axes (S, A)
    @test_throws NanographError NG.pad(x, [1], [1, 2])
    err = try NG.reshape_op(x, [axis(g, "P", 5)]); nothing catch e; e end
    @test err isa NanographError && NG.status_name(err) == "NG_ERR_AXES"
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

@testset "shapes" begin
    s = Shape([2, 3])
    @test NG.kind(s) == :smooth && ndims(s) == 2 && length(s) == 6
    @test collect(s) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    j = jagged_shape(3, [0, 2, 2, 5])
    @test NG.kind(j) == :jagged && length(j) == 5
    @test j == shape_from_row_lengths([2, 0, 3])
    @test row_splits(j) == [0, 2, 2, 5] && NG.row_lengths(j) == [2, 0, 3]
    @test NG.is_jagged(j, 1) && !NG.is_jagged(j, 0) && NG.smooth_rank(j) == 1
    @test NG.extent(j) == 3 && NG.extent(j, [2]) == 3
    @test jagged_shape(2, [0, 1, 3], 4) == shape_from_row_lengths([1, 2], 4)
    @test sprint(show, j) == "Shape(3, [2 0 3])"
    tail = NG.slice(j, 1, 3)
    @test length(tail) == 3 && NG.origin(tail) == (1, 0)
    @test collect(tail) == [(1, 0), (1, 1), (1, 2)]
    @test collect(NG.indices(tail; absolute=true)) == [(2, 0), (2, 1), (2, 2)]
    row = NG.at(j, [2])
    @test ndims(row) == 1 && length(row) == 3 && NG.origin(row) == (2, 0)
    it = NG.indices(Shape([2]))
    @test collect(it) == collect(it) == [(0,), (1,)]   # each loop starts again
    @test NG.broadcast_shape(Shape([2, 1]), Shape([3])) == Shape([2, 3])
    n = nested_shape(Shape([2]), [Shape([1, 2]), Shape([3, 2])])
    @test NG.kind(n) == :nested && ndims(n) == 3 && length(n) == 8
    @test NG.outer(n) == Shape([2]) && NG.element(n, 1) == Shape([3, 2])
    @test NG.flatten(n) == jagged_shape(2, [0, 1, 4], 2)
    err = try jagged_shape(3, [0, 2, 1, 5]); nothing catch e; e end
    @test err isa NanographError && occursin("ng_shape_jagged", err.message)
    @test_throws NanographError NG.slice(j, 2, 4)
    s2 = NG.retain(s)
    close(s)
    @test_throws NanographError length(s)
    @test length(s2) == 6
    @test NG.dtype_name(Float32) == "float32" && NG.dtype_size(Int64) == 8
end

@testset "jagged tensors" begin
    j = Jagged([Float32[1, 2], Float32[], Float32[3, 4, 5]])
    @test eltype(j) == Float32 && length(j) == 5 && ndims(j) == 2
    @test NG.shape(j) == shape_from_row_lengths([2, 0, 3])
    @test values(j) == Float32[1, 2, 3, 4, 5]
    @test row_splits(j) == [0, 2, 2, 5]
    @test NG.rows(j) == [Float32[1, 2], Float32[], Float32[3, 4, 5]]
    @test NG.value_position(j, [2, 1]) == 3
    padded, mask = to_padded(j)
    @test size(padded) == (3, 3)
    @test padded[1, :] == Float32[1, 2, 0] && padded[3, :] == Float32[3, 4, 5]
    @test mask == Bool[1 1 0; 0 0 0; 1 1 1]
    @test NG.read_array(jagged_from_padded(padded, mask)) == Float32[1, 2, 3, 4, 5]
    # Lent without copying: writes to the vector are seen by the tensor and its views.
    v = [1.0, 2.0, 3.0]
    k = jagged_from_row_splits(v, [0, 2, 3])
    v[3] = 30
    @test NG.rows(k) == [[1.0, 2.0], [30.0]]
    last_row = NG.slice(k, 1, 2)
    @test NG.origin(NG.shape(last_row)) == (1, 0) && NG.read_array(last_row) == [30.0]
    NG.write!(k, [4.0, 5.0, 6.0])
    @test v == [4.0, 5.0, 6.0]
    z = jagged_zeros(Int32, jagged_shape(2, [0, 1, 3]))
    @test NG.read_array(z) == Int32[0, 0, 0]
    @test_throws ArgumentError Jagged(jagged_shape(2, [0, 1, 3]), [1.0, 2.0])
    @test_throws NanographError NG.write!(z, Int32[1])
    j2 = NG.retain(j)
    close(j)
    @test_throws NanographError length(j)
    @test NG.read_array(j2) == Float32[1, 2, 3, 4, 5]
end

@testset "segment ops" begin
    g = Graph()
    F, S, Sp = axis(g, "F", 5), axis(g, "S", 3), axis(g, "Sp", 4)
    x = placeholder(g, Float64, [F])
    splits = placeholder(g, Int64, [Sp])
    sums = segment_sum(x, F, splits, S)
    f = computation(Transformer(), [sums, segment_max(x, F, splits, S), segment_softmax(x, F, splits, S),
                                    segment_gather(sums, S, splits, F)], [x, splits])
    s, m, sm, back = f([1.0, 2.0, 3.0, 4.0, 5.0], Int64[0, 2, 2, 5])
    @test s == [3.0, 0.0, 12.0]
    @test m == [2.0, -Inf, 5.0]
    @test sm[1:2] ≈ exp.([1.0, 2.0]) ./ sum(exp.([1.0, 2.0]))
    @test back == [3.0, 3.0, 12.0, 12.0, 12.0]
    @test_throws NanographError f([1.0, 2.0, 3.0, 4.0, 5.0], Int64[0, 3, 2, 5])
    @test_throws NanographError segment_sum(x, S, splits, S)
end

@testset "random values, seeds, checkpoints" begin
    g = Graph()
    N = axis(g, "N", 1000)
    u = random_uniform(g, Float64, [N], 2.0, 3.0)
    t = Transformer()
    f = computation(t, [u, random_normal(g, Float64, [N], 0.0, 1.0)])
    seed!(t, 7)
    a, n = f()
    @test all(2 .<= a .< 3) && abs(sum(n) / 1000) < 0.2
    seed!(t, 7)
    @test f()[1] == a

    K = axis(g, "K", 2)
    w = variable(g, Float32, [K], constant(g, Float32[1, 2], [K]))
    NG.set_name!(w, "w")
    step = computation(t, [assign(w, w * 2f0)])
    step()
    path = joinpath(mktempdir(), "model.ckpt")
    NG.save(t, path)
    step()
    @test get_value(t, w) == Float32[4, 8]
    NG.load!(t, path)
    @test get_value(t, w) == Float32[2, 4]
    err = try NG.load!(t, path * ".missing"); nothing catch e; e end
    @test err isa NanographError && NG.status_name(err) == "NG_ERR_IO"
    @test_throws NanographError random_uniform(g, Int32, [N], 0, 1)   # last: it marks the graph
end

@testset "computation parameters and results" begin
    g = Graph()
    I, J = axis(g, "I", 2), axis(g, "J", 3)
    a = placeholder(g, Float32, [I, J])
    NG.set_name!(a, "a")
    total = sum(a, [J])
    NG.set_name!(total, "total")
    f = computation(Transformer(), [total], [a])
    p, r = NG.params(f), NG.results(f)
    @test length(p) == 1 && p[1].name == "a" && p[1].eltype == Float32
    @test p[1].axes == ["I" => 2, "J" => 3] && size(p[1]) == (2, 3)
    @test r[1].name == "total" && r[1].axes == ["I" => 2]
end

@testset "ONNX and TensorProto bytes" begin
    g = Graph()
    N = axis(g, "N", 3)
    x = placeholder(g, Float32, [N])
    NG.set_name!(x, "x")
    y = relu(x) * 2f0
    NG.set_name!(y, "y")
    model = export_onnx([y], [x])
    @test model isa Vector{UInt8} && !isempty(model)
    h = import_onnx(model)
    f = computation(Transformer(), [NG.find(h, "y")], [NG.find(h, "x")])
    @test f(Float32[-1, 2, 3])[1] == Float32[0, 4, 6]
    path = joinpath(mktempdir(), "m.onnx")
    @test export_onnx([y], [x]; path=path) === nothing
    @test read(path) == model
    @test NG.eltype(NG.find(import_onnx(path), "y")) == Float32
    err = try import_onnx(UInt8[1, 2, 3]); nothing catch e; e end
    @test err isa NanographError && NG.status_name(err) == "NG_ERR_FORMAT"
    @test_throws NanographError export_onnx([y], Op[])

    A = [1.0 2 3; 4 5 6]
    bytes = NG.serialize(A)
    @test NG.deserialize(bytes) == A
    @test NG.deserialize(NG.serialize(Int32[7])) == Int32[7]
    @test_throws NanographError NG.deserialize(UInt8[0xff, 0xff])
end

# The binding against the C headers of the source tree: the generated declarations match them,
# and every function of the library's table is used by the binding or listed under "Left out" in
# README.md (with its reason).
@testset "coverage" begin
    gen = joinpath(@__DIR__, "..", "generate.py")
    include_dir = joinpath(@__DIR__, "..", "..", "..", "include", "nanograph")
    if !isdir(include_dir) || Sys.which("python3") === nothing
        @info "coverage not checked: the C headers or python3 are not at hand"
    else
        @test success(`python3 $gen --check`)
        names = String[string(f) for f in NG.CAPI.API_FIELDS]
        srcdir = joinpath(@__DIR__, "..", "src")
        source = join([read(joinpath(srcdir, f), String) for f in readdir(srcdir) if f != "capi.jl"])
        # Direct calls (CAPI.name) and the symbols of the @eval loops (CAPI.$f over (:name, ...)).
        used = Set(String(m.captures[1]) for m in eachmatch(r"CAPI\.(\w+)", source))
        union!(used, Set(String(m.captures[1]) for m in eachmatch(r":(\w+)", source)))
        readme = read(joinpath(@__DIR__, "..", "README.md"), String)
        section = split(split(readme, "## Left out")[2], "\n## ")[1]
        left_out = Set{String}()
        for line in split(section, '\n')
            startswith(line, "| `") || continue
            first_cell = split(line, '|')[2]
            union!(left_out, Set(String(m.captures[1]) for m in eachmatch(r"`ng_(\w+)`", first_cell)))
        end
        @test isempty(sort([n for n in names if !(n in used) && !(n in left_out)]))
        @test isempty(sort([n for n in left_out if n in used]))
        @test isempty(sort([n for n in left_out if !(n in names)]))
    end
end
