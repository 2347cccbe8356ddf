"""
    Nanograph

Tensor computation graphs over named axes: the Julia binding of libnanograph.

Every C function is called with `ccall` through the library's function table (`ng_get_api`);
the declarations in `capi.jl` are generated from the C headers. Handles are freed by finalizers
(or `close`); errors are `NanographError` exceptions carrying the library's status and message;
Julia arrays go in and come out without copying.
"""
module Nanograph

using Libdl

export Graph, Axis, Op, Transformer, Computation, Tensor, NanographError
export axis, placeholder, variable, persistent_tensor, constant, scalar, deriv, vjp, computation,
       sgd, adam, softmax, log_softmax, cross_entropy_multi, relu, sigmoid, dot_op, get_value,
       set_value!, uniform, normal, glorot_uniform, he_normal, one_hot, assign, sequential, argmax_op
export Shape, ShapeIndices, Jagged, Signature, jagged_shape, shape_from_row_lengths, nested_shape,
       jagged_zeros, jagged_from_row_splits, jagged_from_padded, to_padded, row_splits,
       segment_sum, segment_mean, segment_max, segment_min, segment_softmax, segment_log_softmax,
       segment_gather, random_uniform, random_normal, seed!, export_onnx, import_onnx

const LIB = Ref{Ptr{Cvoid}}(C_NULL)
const API = Ref{Ptr{Ptr{Cvoid}}}(C_NULL)

# The i-th pointer of the function table (or the exported symbol when the library has no table).
function fnptr end

module CAPI
    import ..Nanograph: fnptr
    include("capi.jl")
end

const HAS_TABLE = CAPI.HAS_TABLE
const SYMBOLS = Dict{Symbol,Ptr{Cvoid}}()

@inline function fnptr(i::Int, name::Symbol)
    if HAS_TABLE
        return unsafe_load(API[], i)
    end
    return get!(() -> Libdl.dlsym(LIB[], Symbol("ng_", name)), SYMBOLS, name)
end

"""The library is `ENV["NANOGRAPH_LIBRARY"]` when set, else `libnanograph` from the system loader."""
function __init__()
    path = get(ENV, "NANOGRAPH_LIBRARY", "libnanograph")
    LIB[] = Libdl.dlopen(path)
    if HAS_TABLE
        get_api = Libdl.dlsym(LIB[], :ng_get_api)
        api = ccall(get_api, Ptr{Ptr{Cvoid}}, (UInt32,), CAPI.NG_API_VERSION)
        api == C_NULL && error("nanograph: $path does not serve function table version ",
                               CAPI.NG_API_VERSION, ": ", unsafe_string(CAPI.last_error()))
        API[] = api
    end
end

# ---- errors ---------------------------------------------------------------------------------

"""A failed call: the C status code (`status`, with `status_name`) and the library's message."""
struct NanographError <: Exception
    status::Int32
    message::String
end
status_name(e::NanographError) = unsafe_string(CAPI.status_string(e.status))
Base.showerror(io::IO, e::NanographError) = print(io, "NanographError(", status_name(e), "): ", e.message)

# Reads the calling thread's error. No yield point separates a ccall from this read, so the task
# cannot have moved to another OS thread in between.
last_error() = NanographError(CAPI.last_status(), unsafe_string(CAPI.last_error()))
check(status::Integer) = status == CAPI.NG_OK ? nothing : throw(last_error())
checkptr(p::Ptr) = p == C_NULL ? throw(last_error()) : p

# ---- dtypes -----------------------------------------------------------------------------------

const DTYPES = Dict{DataType,Int32}(Bool => CAPI.NG_BOOL, Int32 => CAPI.NG_INT32,
    Int64 => CAPI.NG_INT64, UInt8 => CAPI.NG_UINT8, Float32 => CAPI.NG_FLOAT32,
    Float64 => CAPI.NG_FLOAT64)
const JULIA_TYPES = Dict(v => k for (k, v) in DTYPES)
dtype(::Type{T}) where {T} = DTYPES[T]
"""The library's name of an element type ("float32", "int64", "bool", ...)."""
dtype_name(::Type{T}) where {T} = unsafe_string(CAPI.dtype_name(dtype(T)))
"""The size in bytes of one element, as the library stores it."""
dtype_size(::Type{T}) where {T} = Int(CAPI.dtype_size(dtype(T)))

version() = unsafe_string(CAPI.version_string())
version_number() = Int(CAPI.version_number())

# ---- graphs, axes, ops ------------------------------------------------------------------------

"""A graph: owns its ops and axes. Freed by its finalizer (after every computation compiled from
it) or `close`."""
mutable struct Graph
    h::Ptr{Cvoid}
    closed::Bool
    users::Int
    function Graph(h::Ptr{Cvoid})
        g = new(checkptr(h), false, 0)
        finalizer(g) do g
            g.closed = true
            destroy_if_unused(g)
        end
    end
end
Graph() = Graph(CAPI.graph_create())
function destroy_if_unused(g::Graph)
    if g.closed && g.users == 0 && g.h != C_NULL
        CAPI.graph_destroy(g.h)
        g.h = C_NULL
    end
end
Base.close(g::Graph) = (g.closed = true; destroy_if_unused(g); nothing)
handle(g::Graph) = g.closed ? throw(NanographError(-1, "nanograph: the graph is closed")) : g.h

"""A named axis of a graph (keeps the graph alive)."""
struct Axis
    h::Ptr{Cvoid}
    graph::Graph
end
axis(g::Graph, name::AbstractString, length::Integer) = Axis(checkptr(CAPI.axis(handle(g), name, Int64(length))), g)
Base.length(a::Axis) = Int(CAPI.axis_length(a.h))
name(a::Axis) = unsafe_string(CAPI.axis_name(a.h))
components(a::Axis) = [Axis(CAPI.axis_component(a.h, Int32(i)), a.graph) for i in 0:CAPI.axis_num_components(a.h)-1]
Base.show(io::IO, a::Axis) = print(io, name(a), "(", length(a), ")")

"""An op of a graph (keeps the graph alive)."""
struct Op
    h::Ptr{Cvoid}
    graph::Graph
end
handle(o::Op) = (handle(o.graph); o.h)
newop(g::Graph, p::Ptr{Cvoid}) = Op(checkptr(p), g)
axes_array(axes) = Ptr{Cvoid}[handle(a.graph) == C_NULL ? C_NULL : a.h for a in axes]

name(o::Op) = unsafe_string(CAPI.op_name(handle(o)))
set_name!(o::Op, s::AbstractString) = check(CAPI.op_set_name(handle(o), s))
optype(o::Op) = unsafe_string(CAPI.op_type(handle(o)))
Base.eltype(o::Op) = JULIA_TYPES[CAPI.op_dtype(handle(o))]
Base.axes(o::Op) = [Axis(CAPI.op_axis(handle(o), Int32(i)), o.graph) for i in 0:CAPI.op_rank(handle(o))-1]
Base.size(o::Op) = Tuple(length(a) for a in Base.axes(o))
flags(o::Op) = CAPI.op_flags(handle(o))
args(o::Op) = [Op(CAPI.op_arg(handle(o), Int32(i)), o.graph) for i in 0:CAPI.op_num_args(handle(o))-1]
control_deps(o::Op) = [Op(CAPI.op_control_dep(handle(o), Int32(i)), o.graph) for i in 0:CAPI.op_num_control_deps(handle(o))-1]
add_control_dep!(o::Op, dep::Op) = check(CAPI.op_add_control_dep(handle(o), handle(dep)))
function initial_value(o::Op)
    p = CAPI.op_initial_value(handle(o))
    p == C_NULL ? (CAPI.last_status() == CAPI.NG_OK ? nothing : throw(last_error())) : Op(p, o.graph)
end
set_metadata!(o::Op, k::AbstractString, v::AbstractString) = check(CAPI.op_set_metadata(handle(o), k, v))
function metadata(o::Op, k::AbstractString)
    p = CAPI.op_metadata(handle(o), k)
    p == C_NULL ? nothing : unsafe_string(p)
end
Base.show(io::IO, o::Op) = print(io, "Op(", name(o), ": ", optype(o), ", ", eltype(o), Base.axes(o), ")")

status(g::Graph) = Int(CAPI.graph_status(handle(g)))
graph_error(g::Graph) = unsafe_string(CAPI.graph_error(handle(g)))
ops(g::Graph) = [Op(CAPI.graph_op(handle(g), Int32(i)), g) for i in 0:CAPI.graph_num_ops(handle(g))-1]
find(g::Graph, s::AbstractString) = newop(g, CAPI.graph_find(handle(g), s))
function listing(g::Graph, f)
    n = f(C_NULL, Int32(0))
    n < 0 && throw(last_error())
    out = Vector{Ptr{Cvoid}}(undef, n)
    GC.@preserve out f(pointer(out), n)
    [Op(p, g) for p in out]
end
select_metadata(g::Graph, key, value=nothing) =
    listing(g, (out, n) -> CAPI.graph_select(handle(g), key, value === nothing ? C_NULL : value, out, n))
variables(o::Op) = listing(o.graph, (out, n) -> CAPI.variables(handle(o), out, n))
placeholders(o::Op) = listing(o.graph, (out, n) -> CAPI.placeholders(handle(o), out, n))
function dot_text(g::Graph, roots::Vector{Op}=Op[])
    r = Ptr{Cvoid}[handle(o) for o in roots]
    needed = Ref{Csize_t}(0)
    check(CAPI.graph_dot(handle(g), r, Int32(length(r)), Ptr{UInt8}(C_NULL), 0, needed))
    buf = Vector{UInt8}(undef, needed[])
    # A pointer, not the vector: Julia refuses to pass bytes holding a NUL as a Cstring.
    GC.@preserve buf check(CAPI.graph_dot(handle(g), r, Int32(length(r)), pointer(buf), needed[], C_NULL))
    String(buf[1:end-1])
end
write_dot(g::Graph, path::AbstractString, roots::Vector{Op}=Op[]) =
    check(CAPI.graph_write_dot(handle(g), Ptr{Cvoid}[handle(o) for o in roots], Int32(length(roots)), path))

# ---- builders ---------------------------------------------------------------------------------
# The builders are generated from the C headers (ops_generated.jl); written here by hand are the
# handles' helpers they call, the builders of data and options (constant, sgd, adam) and the
# idioms (numbers lifted to ops, Base.sum, softmax over every axis).

axis_handle(a::Axis) = (handle(a.graph); a.h)
"""One spec per axis: a range `(start, stop, step)` (0-based, stop excluded, as in C) or an index."""
slice_specs(specs::Vector) =
    [s isa Integer ? CAPI.ng_slice_t(s, 0, 1, 1) : CAPI.ng_slice_t(s[1], s[2], s[3], 0) for s in specs]
function same_lengths(f, lists...)
    n = length(first(lists))
    all(l -> length(l) == n, lists) ||
        throw(NanographError(CAPI.NG_ERR_INVALID_ARGUMENT, "nanograph: $f: lists of lengths $(map(length, lists)), not one length"))
    nothing
end

"""A constant: `data` is indexed like its axes (data[i, j] is element (i, j)); a column-major
Julia array is laid out for the library by permuting it to row-major order (one copy)."""
function constant(g::Graph, data::AbstractArray{E}, axes::Vector{Axis}) where {E}
    rowmajor = collect(PermutedDimsArray(data, ndims(data):-1:1))
    newop(g, GC.@preserve rowmajor CAPI.constant(handle(g), dtype(E), axes_array(axes), Int32(length(axes)), pointer(rowmajor)))
end

lift(o::Op, x::Op) = x
lift(o::Op, x::Real) = scalar(o.graph, eltype(o), x)
for op in (:+, :-, :*, :/, :^)
    @eval Base.$op(a::Op, b::Real) = $op(a, lift(a, b))
    @eval Base.$op(a::Real, b::Op) = $op(lift(b, a), b)
end
Base.sum(x::Op, axes::Vector{Axis}=Axis[]) = sum_op(x, axes)

function sgd(cost::Op, lr::Op; momentum=0.0, nesterov=false, weight_decay=0.0)
    o = Ref(CAPI.ng_sgd_options_t(sizeof(CAPI.ng_sgd_options_t), momentum, Int32(nesterov), weight_decay))
    newop(cost.graph, CAPI.sgd(handle(cost.graph), handle(cost), handle(lr), o))
end
function adam(cost::Op, lr::Op; beta1=0.9, beta2=0.999, epsilon=1e-8, weight_decay=0.0)
    o = Ref(CAPI.ng_adam_options_t(sizeof(CAPI.ng_adam_options_t), beta1, beta2, epsilon, weight_decay))
    newop(cost.graph, CAPI.adam(handle(cost.graph), handle(cost), handle(lr), o))
end

include("ops_generated.jl")

include("tensors.jl")
include("shapes.jl")
include("exec.jl")
include("io.jl")

end # module
