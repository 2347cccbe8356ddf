# ONNX models and tensors as bytes. Bytes the library allocates are copied into a Julia vector
# and freed at once with ng_free.

# Copies `size` bytes at `p` into a new vector, then frees `p` (even when the copy fails).
function take_bytes(p::Ptr{Cvoid}, size::Integer)
    try
        return copy(unsafe_wrap(Array, Ptr{UInt8}(p), Int(size); own=false))
    finally
        CAPI.free(p)
    end
end

"""
    export_onnx(results, params=Op[]; path=nothing, transformer=nothing)

The computation of `results` from the placeholders `params` as an ONNX model (opset 13): its
bytes, or `nothing` after writing it to `path`. Variables and persistent tensors export their
initial values, or with `transformer` the values it holds (a trained network).
"""
function export_onnx(results::Vector{Op}, params::Vector{Op}=Op[]; path=nothing, transformer=nothing)
    isempty(results) && throw(ArgumentError("export_onnx: at least one result is needed"))
    g = results[1].graph
    r = Ptr{Cvoid}[handle(o) for o in results]
    p = Ptr{Cvoid}[handle(o) for o in params]
    if transformer !== nothing
        if path !== nothing
            check(CAPI.onnx_export_trained_file(handle(transformer), handle(g), r, Int32(length(r)),
                                                p, Int32(length(p)), String(path)))
            return nothing
        end
        return mktempdir() do dir  # the library writes trained models to files only
            f = joinpath(dir, "model.onnx")
            check(CAPI.onnx_export_trained_file(handle(transformer), handle(g), r, Int32(length(r)),
                                                p, Int32(length(p)), f))
            read(f)
        end
    end
    if path !== nothing
        check(CAPI.onnx_export_file(handle(g), r, Int32(length(r)), p, Int32(length(p)), String(path)))
        return nothing
    end
    bytes, size = Ref{Ptr{Cvoid}}(C_NULL), Ref{Csize_t}(0)
    check(CAPI.onnx_export_bytes(handle(g), r, Int32(length(r)), p, Int32(length(p)), bytes, size))
    take_bytes(bytes[], size[])
end

"""
    import_onnx(path_or_bytes; dims=Dict{String,Int}(), trainable=false)

A new `Graph` from an ONNX model (a file's path or the model's bytes). Inputs become
placeholders and outputs ops, found by their names with `find`; every op has positional axes
"d0", "d1", ... `dims` binds the model's symbolic dimensions; with `trainable` float
initializers become variables instead of constants.
"""
function import_onnx(model::Union{AbstractString,AbstractVector{UInt8}}; dims=Dict{String,Int}(),
                     trainable::Bool=false)
    names = String[String(k) for k in keys(dims)]
    lengths = Int64[dims[k] for k in keys(dims)]
    ptrs = Ptr{UInt8}[pointer(n) for n in names]
    options = UInt32(trainable ? CAPI.NG_ONNX_TRAINABLE : 0)
    h = GC.@preserve names begin
        if model isa AbstractString
            CAPI.onnx_import_file_with(String(model), ptrs, lengths, Int32(length(names)), options)
        else
            bytes = Vector{UInt8}(model)
            CAPI.onnx_import_bytes(bytes, Csize_t(length(bytes)), ptrs, lengths, Int32(length(names)), options)
        end
    end
    Graph(h)
end

"""The array (or tensor) as a TensorFlow `TensorProto` message: dtype, shape and elements in
the tensor's order (an m×n array gives shape (m, n), whatever its memory order)."""
serialize(a::AbstractArray) = serialize(Tensor(a))
function serialize(t::Tensor)
    bytes, size = Ref{Ptr{Cvoid}}(C_NULL), Ref{Csize_t}(0)
    check(CAPI.tensor_serialize(handle(t), bytes, size))
    take_bytes(bytes[], size[])
end
"""The tensor of a `TensorProto` message, as an array indexed like it (no copy of the result)."""
deserialize(bytes::AbstractVector{UInt8}) = Array(deserialize_tensor(bytes))
"""The tensor of a `TensorProto` message."""
function deserialize_tensor(bytes::AbstractVector{UInt8})
    b = Vector{UInt8}(bytes)
    Tensor(CAPI.tensor_deserialize(b, Csize_t(length(b))))
end
