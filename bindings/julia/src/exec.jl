# Transformers and computations.

"""Holds persistent values and compiles computations (which keep working after it is freed)."""
mutable struct Transformer
    h::Ptr{Cvoid}
    function Transformer(backend::Union{Nothing,AbstractString}=nothing)
        t = new(checkptr(CAPI.transformer_create(backend === nothing ? C_NULL : backend)))
        finalizer(t -> (t.h != C_NULL && CAPI.transformer_destroy(t.h); t.h = C_NULL), t)
    end
end
Base.close(t::Transformer) = (t.h != C_NULL && CAPI.transformer_destroy(t.h); t.h = C_NULL; nothing)
handle(t::Transformer) = t.h == C_NULL ? throw(NanographError(-1, "nanograph: the transformer is closed")) : t.h
num_threads(t::Transformer) = Int(CAPI.transformer_num_threads(handle(t)))
set_num_threads!(t::Transformer, n::Integer) = check(CAPI.transformer_set_num_threads(handle(t), Int32(n)))

"""A compiled computation; call it with one array per parameter. It keeps its graphs' C objects
until it is freed (a closed graph is destroyed after its last computation)."""
mutable struct Computation
    h::Ptr{Cvoid}
    graphs::Vector{Graph}
    function Computation(h::Ptr{Cvoid}, graphs::Vector{Graph})
        c = new(checkptr(h), graphs)
        foreach(g -> g.users += 1, graphs)
        finalizer(destroy!, c)
    end
end
function destroy!(c::Computation)
    if c.h != C_NULL
        CAPI.computation_destroy(c.h)
        c.h = C_NULL
        for g in c.graphs
            g.users -= 1
            destroy_if_unused(g)
        end
    end
    nothing
end
Base.close(c::Computation) = destroy!(c)
handle(c::Computation) = c.h == C_NULL ? throw(NanographError(-1, "nanograph: the computation is closed")) : c.h

function computation(t::Transformer, results::Vector{Op}, params::Vector{Op}=Op[])
    r = Ptr{Cvoid}[handle(o) for o in results]
    p = Ptr{Cvoid}[handle(o) for o in params]
    h = CAPI.computation_create(handle(t), r, Int32(length(r)), p, Int32(length(p)))
    Computation(h, unique([o.graph for o in vcat(results, params)]))
end
num_params(c::Computation) = Int(CAPI.computation_num_params(handle(c)))
num_results(c::Computation) = Int(CAPI.computation_num_results(handle(c)))
function stats(c::Computation)
    s = Ref(CAPI.ng_computation_stats_t(sizeof(CAPI.ng_computation_stats_t), 0, 0, 0, 0, 0, 0))
    check(CAPI.computation_stats(handle(c), s))
    s[]
end

"""Runs once on tensors; returns one new tensor per result."""
function run(c::Computation, inputs::Vector{Tensor})
    ins = Ptr{Cvoid}[handle(t) for t in inputs]
    outs = fill(C_NULL, num_results(c))
    GC.@preserve inputs check(CAPI.computation_run(handle(c), ins, Int32(length(ins)), outs, Int32(length(outs))))
    [Tensor(p) for p in outs]
end

"""Runs once on Julia arrays (lent without copying); returns Julia arrays viewing the results."""
(c::Computation)(inputs::AbstractArray...) = [Array(t) for t in run(c, Tensor[Tensor(a) for a in inputs])]

function get_value(t::Transformer, op::Op)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(CAPI.transformer_get_value(handle(t), handle(op), out))
    Array(Tensor(out[]))
end
function set_value!(t::Transformer, op::Op, value::AbstractArray)
    v = Tensor(value isa Array ? value : collect(value))
    check(CAPI.transformer_set_value(handle(t), handle(op), handle(v)))
end
set_value!(t::Transformer, op::Op, value::Real) = set_value!(t, op, fill(convert(eltype(op), value)))

"""Seeds the transformer's random generator (what `random_uniform` and `random_normal` draw)."""
seed!(t::Transformer, seed::Integer) = check(CAPI.transformer_set_seed(handle(t), UInt64(seed)))

"""Saves the values of every persistent tensor the transformer knows (variables, optimizer state)
and its random generator's state to a checkpoint file, replacing it atomically."""
save(t::Transformer, path::AbstractString) = check(CAPI.transformer_save(handle(t), path))
"""Replaces the transformer's persistent values and generator state with a checkpoint's (all or
nothing). Create the same computations (same op names) on `t` first."""
load!(t::Transformer, path::AbstractString) = check(CAPI.transformer_load(handle(t), path))

"""A computation's parameter or result: its name, element type and axes (name and length, in
the order of the array's dimensions)."""
struct Signature
    name::String
    eltype::DataType
    axes::Vector{Pair{String,Int}}
end
Base.size(s::Signature) = Tuple(last(a) for a in s.axes)
Base.show(io::IO, s::Signature) = print(io, "Signature(", s.name, ": ", s.eltype, ", ", s.axes, ")")
cstring(p::Ptr{UInt8}) = p == C_NULL ? throw(last_error()) : unsafe_string(p)
function signature(c::Computation, i::Integer, name, dt, rank, axis_name, axis_length)
    h, k = handle(c), Int32(i)
    n = rank(h, k)
    n < 0 && throw(last_error())
    d = dt(h, k)
    haskey(JULIA_TYPES, d) || throw(last_error())
    ax = [cstring(axis_name(h, k, Int32(a))) => Int(checked(axis_length(h, k, Int32(a)))) for a in 0:n-1]
    Signature(cstring(name(h, k)), JULIA_TYPES[d], ax)
end
"""The computation's parameters, in the order its inputs are given."""
params(c::Computation) = [signature(c, i, CAPI.computation_param_name, CAPI.computation_param_dtype,
                                    CAPI.computation_param_rank, CAPI.computation_param_axis_name,
                                    CAPI.computation_param_axis_length) for i in 0:num_params(c)-1]
"""The computation's results, in the order it returns them."""
results(c::Computation) = [signature(c, i, CAPI.computation_result_name, CAPI.computation_result_dtype,
                                     CAPI.computation_result_rank, CAPI.computation_result_axis_name,
                                     CAPI.computation_result_axis_length) for i in 0:num_results(c)-1]
