# Host tensors and Julia arrays, both ways without copying.
#
# A Julia array is column-major: element (i, j) of an m×n array is at (i-1) + (j-1)*m. Given to
# the library as a tensor of the same shape with strides (1, m) — the row-major strides reversed —
# it needs no copy, and the library's kernels follow any strides. The library's results are dense
# row-major: a tensor of shape (m, n) is, in memory, a column-major n×m Julia array; wrapped as
# such (unsafe_wrap) and presented with its dimensions reversed (PermutedDimsArray) it is indexed
# like the tensor, still without a copy.

"""A host tensor (reference-counted by the library; released by its finalizer or `close`)."""
mutable struct Tensor
    h::Ptr{Cvoid}
    function Tensor(h::Ptr{Cvoid})
        t = new(checkptr(h))
        finalizer(t -> (t.h != C_NULL && CAPI.tensor_release(t.h); t.h = C_NULL), t)
    end
end
Base.close(t::Tensor) = (t.h != C_NULL && CAPI.tensor_release(t.h); t.h = C_NULL; nothing)
handle(t::Tensor) = t.h == C_NULL ? throw(NanographError(-1, "nanograph: the tensor is closed")) : t.h

# Arrays lent to the library stay referenced here until its deleter runs (from any thread).
const LENT = Dict{UInt,Any}()
const LENT_LOCK = ReentrantLock()
const LENT_NEXT = Ref{UInt}(1)
function release_lent(::Ptr{Cvoid}, ctx::Ptr{Cvoid})
    lock(LENT_LOCK) do
        delete!(LENT, UInt(ctx))
    end
    nothing
end
const RELEASE_LENT = Ref{Ptr{Cvoid}}(C_NULL)  # set by init_tensors() (a C pointer is per process)
init_tensors() = (RELEASE_LENT[] = @cfunction(release_lent, Cvoid, (Ptr{Cvoid}, Ptr{Cvoid})))

# Keeps `a` referenced until the library calls the deleter with the returned key as its context.
function lend(a)
    lock(LENT_LOCK) do
        k = LENT_NEXT[]; LENT_NEXT[] += 1; LENT[k] = a; k
    end
end
unlend(key::UInt) = lock(() -> delete!(LENT, key), LENT_LOCK)
release_lent_ptr() = (RELEASE_LENT[] == C_NULL && init_tensors(); RELEASE_LENT[])

"""A tensor over a Julia array's memory, without copying: the tensor keeps the array alive."""
function Tensor(a::Union{Array{E},SubArray{E}}) where {E}
    shape = Int64[size(a)...]
    st = Int64[strides(a)...]               # column-major: (1, m, m*n, ...)
    key = lend(a)
    p = CAPI.tensor_wrap(dtype(E), shape, st, Int32(ndims(a)), pointer(a), release_lent_ptr(), Ptr{Cvoid}(key))
    if p == C_NULL
        unlend(key)
        throw(last_error())
    end
    Tensor(p)
end

"""A tensor over the memory of a dimension-permuted array (such as a result), without copying."""
function Tensor(a::PermutedDimsArray{E,N,perm}) where {E,N,perm}
    base = Tensor(parent(a))
    permute_tensor(base, (perm .- 1)...)
end
Tensor(a::AbstractArray) = Tensor(collect(a))  # anything else: one copy into an Array

zeros_tensor(::Type{E}, dims::Integer...) where {E} = Tensor(CAPI.tensor_create(dtype(E), Int64[dims...], Int32(length(dims))))
Base.eltype(t::Tensor) = JULIA_TYPES[CAPI.tensor_dtype(handle(t))]
Base.size(t::Tensor) = Tuple(Int(CAPI.tensor_dim(handle(t), Int32(i))) for i in 0:CAPI.tensor_rank(handle(t))-1)
Base.strides(t::Tensor) = Tuple(Int(CAPI.tensor_stride(handle(t), Int32(i))) for i in 0:CAPI.tensor_rank(handle(t))-1)
Base.length(t::Tensor) = Int(CAPI.tensor_numel(handle(t)))
is_contiguous(t::Tensor) = CAPI.tensor_is_contiguous(handle(t)) == 1
Base.copy(t::Tensor) = Tensor(CAPI.tensor_copy(handle(t)))
retain(t::Tensor) = (CAPI.tensor_retain(handle(t)); Tensor(t.h))
reshape_tensor(t::Tensor, dims::Integer...) = Tensor(CAPI.tensor_reshape(handle(t), Int64[dims...], Int32(length(dims))))
permute_tensor(t::Tensor, order::Integer...) = Tensor(CAPI.tensor_permute(handle(t), Int32[order...], Int32(length(order))))
transpose_tensor(t::Tensor) = Tensor(CAPI.tensor_transpose(handle(t)))
slice_tensor(t::Tensor, dim, start, stop, step=1) = Tensor(CAPI.tensor_slice(handle(t), Int32(dim), Int64(start), Int64(stop), Int64(step)))
broadcast_tensor(t::Tensor, dims::Integer...) = Tensor(CAPI.tensor_broadcast(handle(t), Int64[dims...], Int32(length(dims))))
from_data(data::Array{E}, dims::Integer...) where {E} = Tensor(CAPI.tensor_from_data(dtype(E), Int64[dims...], Int32(length(dims)), data))  # ccall roots data
write!(t::Tensor, rowmajor::Array) = check(CAPI.tensor_write(handle(t), rowmajor, Csize_t(sizeof(rowmajor))))
"""The elements as a new Julia array indexed like the tensor (a copy)."""
function read_array(t::Tensor)
    E, dims = eltype(t), size(t)
    buf = Array{E}(undef, reverse(dims)...)
    check(CAPI.tensor_read(handle(t), buf, Csize_t(sizeof(buf))))
    permutedims(buf, length(dims):-1:1)
end

"""The tensor's memory as a Julia array indexed like the tensor, without copying (a dense
tensor); the array keeps the tensor alive."""
function Base.Array(t::Tensor)
    is_contiguous(t) || return read_array(t)
    E, dims = eltype(t), size(t)
    isempty(dims) && return fill(unsafe_load(Ptr{E}(CAPI.tensor_data(handle(t)))))
    raw = unsafe_wrap(Array, Ptr{E}(CAPI.tensor_data(handle(t))), reverse(dims); own=false)
    keep = retain(t)
    finalizer(_ -> close(keep), raw)
    PermutedDimsArray(raw, length(dims):-1:1)
end

"""Exports the tensor as a DLPack 0.6 DLManagedTensor pointer (no copy)."""
function to_dlpack(t::Tensor)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(CAPI.tensor_to_dlpack(handle(t), out))
    out[]
end
"""Imports a DLPack 0.6 DLManagedTensor pointer (no copy); the tensor owns it on success."""
from_dlpack(m::Ptr{Cvoid}) = Tensor(CAPI.tensor_from_dlpack(m))
