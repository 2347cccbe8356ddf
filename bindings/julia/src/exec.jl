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
    s = Ref{CAPI.ng_computation_stats_t}()
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
