# Shapes (smooth, jagged, nested) and jagged host tensors.
#
# Indices, positions and origins are the library's: 0-based, as the slice specs of `slice`.
# Shapes and jagged tensors are reference-counted by the library; each Julia object owns one
# reference, released by its finalizer or `close`.

"""A shape: which indices exist (smooth, jagged or nested), immutable. `Shape([2, 3])` is
smooth; `jagged_shape`, `shape_from_row_lengths` and `nested_shape` make the others. Iterating
gives the indices as 0-based tuples in row-major order (`indices(s; absolute=true)` for indices
in the shape a slice was cut from)."""
mutable struct Shape
    h::Ptr{Cvoid}
    function Shape(h::Ptr{Cvoid})
        s = new(checkptr(h))
        finalizer(s -> (s.h != C_NULL && CAPI.shape_release(s.h); s.h = C_NULL), s)
    end
end
Base.close(s::Shape) = (s.h != C_NULL && CAPI.shape_release(s.h); s.h = C_NULL; nothing)
handle(s::Shape) = s.h == C_NULL ? throw(NanographError(-1, "nanograph: the shape is closed")) : s.h
"""Another owner of the same shape (the library counts references; each is closed on its own)."""
retain(s::Shape) = (CAPI.shape_retain(handle(s)); Shape(s.h))

"""A smooth shape of the given extents (`Shape(Int[])` is rank 0: one element)."""
Shape(extents::AbstractVector{<:Integer}) = Shape(CAPI.shape_smooth(Int64[extents...], Int32(length(extents))))

"""
    jagged_shape(outer, modes...)

A shape whose mode 0 has extent `outer` and whose each later mode is either an `Integer` (a
uniform extent) or a vector of row splits over the positions of the mode before it:
`jagged_shape(3, [0, 2, 2, 5])` is three rows of lengths 2, 0 and 3.
"""
function jagged_shape(outer::Integer, modes...)
    rank = 1 + length(modes)
    splits = [m isa Integer ? Int64[] : Int64[m...] for m in modes]
    ptrs = Ptr{Int64}[m isa Integer ? Ptr{Int64}(C_NULL) : pointer(s) for (m, s) in zip(modes, splits)]
    counts = Int64[length(s) for s in splits]
    extents = Int64[m isa Integer ? m : 0 for m in modes]
    h = GC.@preserve splits CAPI.shape_jagged(Int64(outer), Int32(rank), ptrs, counts, extents)
    Shape(h)
end

"""Rows of the given lengths, each element of which has the uniform extents `inner`:
`shape_from_row_lengths([2, 0, 3])` is `jagged_shape(3, [0, 2, 2, 5])`."""
shape_from_row_lengths(lengths::AbstractVector{<:Integer}, inner::Integer...) =
    jagged_shape(length(lengths), vcat(Int64(0), cumsum(Int64[lengths...])), inner...)

"""A nested shape: `outer` (smooth or jagged) whose elements, in its row-major order, are the
shapes `elements` (all of one rank)."""
function nested_shape(outer::Shape, elements::Vector{Shape})
    e = Ptr{Cvoid}[handle(x) for x in elements]
    GC.@preserve elements Shape(CAPI.shape_nested(handle(outer), e, Int64(length(e))))
end

"""`:smooth`, `:jagged` or `:nested`."""
function kind(s::Shape)
    k = CAPI.shape_kind(handle(s))
    k < 0 && throw(last_error())
    k == CAPI.NG_SHAPE_SMOOTH ? :smooth : k == CAPI.NG_SHAPE_JAGGED ? :jagged : :nested
end
checked(n::Integer) = n < 0 ? throw(last_error()) : Int(n)
Base.ndims(s::Shape) = checked(CAPI.shape_rank(handle(s)))
"""The number of elements (indices); 1 for rank 0."""
Base.length(s::Shape) = checked(CAPI.shape_numel(handle(s)))
"""The extent of mode `length(prefix)` in the slice at the 0-based index `prefix`."""
extent(s::Shape, prefix::AbstractVector{<:Integer}=Int64[]) =
    checked(CAPI.shape_extent(handle(s), Int64[prefix...], Int32(length(prefix))))
"""Whether mode `mode` (0-based) is jagged: its extent depends on the indices before it."""
is_jagged(s::Shape, mode::Integer) = checked(CAPI.shape_mode_is_jagged(handle(s), Int32(mode))) == 1
"""The rank of the largest smooth slices (the rank itself for a smooth shape)."""
smooth_rank(s::Shape) = checked(CAPI.shape_smooth_rank(handle(s)))
"""The row splits of mode `mode` (1 <= mode < rank) over the positions of the mode before it."""
function row_splits(s::Shape, mode::Integer=1)
    n = checked(CAPI.shape_row_splits(handle(s), Int32(mode), C_NULL, 0))
    out = Vector{Int64}(undef, n)
    checked(CAPI.shape_row_splits(handle(s), Int32(mode), out, Int64(n)))
    out
end
"""The lengths of the rows of mode `mode` (the differences of its row splits)."""
row_lengths(s::Shape, mode::Integer=1) = diff(row_splits(s, mode))
"""Where the shape's element (0, ..., 0) is in the shape it was cut from (0-based, that
shape's rank entries)."""
function origin(s::Shape)
    n = checked(CAPI.shape_origin(handle(s), C_NULL, Int32(0)))
    out = Vector{Int64}(undef, n)
    checked(CAPI.shape_origin(handle(s), out, Int32(n)))
    Tuple(out)
end
"""Same kind, modes, extents and elements (origins are not compared)."""
Base.:(==)(a::Shape, b::Shape) = checked(CAPI.shape_equal(handle(a), handle(b))) == 1
"""The shape of an elementwise op's result on operands of shapes `a` and `b` (modes aligned at
the end; smooth shapes combine NumPy-style)."""
broadcast_shape(a::Shape, b::Shape) = Shape(CAPI.shape_broadcast(handle(a), handle(b)))
"""A nested shape as one smooth or jagged shape of the same rank and elements."""
flatten(s::Shape) = Shape(CAPI.shape_flatten(handle(s)))
"""The outer shape of a nested shape."""
outer(s::Shape) = Shape(CAPI.shape_outer(handle(s)))
"""Element `i` (0-based, the outer shape's row-major order) of a nested shape."""
element(s::Shape, i::Integer) = Shape(CAPI.shape_element(handle(s), Int64(i)))
elements(s::Shape) = [element(s, i) for i in 0:length(outer(s))-1]
"""Positions `start` to `stop - 1` (0-based) of mode 0; the slice's origin says where it was."""
slice(s::Shape, start::Integer, stop::Integer) = Shape(CAPI.shape_slice(handle(s), Int64(start), Int64(stop)))
"""The slice with the first `length(prefix)` indices fixed to the 0-based `prefix`."""
at(s::Shape, prefix::AbstractVector{<:Integer}) = Shape(CAPI.shape_at(handle(s), Int64[prefix...], Int32(length(prefix))))

function Base.show(io::IO, s::Shape)
    n = checked(CAPI.shape_text(handle(s), Ptr{UInt8}(C_NULL), Csize_t(0)))
    buf = Vector{UInt8}(undef, n + 1)
    GC.@preserve buf checked(CAPI.shape_text(handle(s), pointer(buf), Csize_t(n + 1)))
    print(io, "Shape", String(buf[1:n]))
end

"""An iterator over a shape's indices (0-based tuples, row-major order): relative to the
shape, or with `absolute` in the shape it was cut from. Each `for` loop starts from the first
index. Freed by its finalizer or `close`."""
mutable struct ShapeIndices
    h::Ptr{Cvoid}
    buf::Vector{Int64}
    function ShapeIndices(s::Shape; absolute::Bool=false)
        mode = absolute ? CAPI.NG_INDEX_ABSOLUTE : CAPI.NG_INDEX_RELATIVE
        it = new(checkptr(CAPI.shape_iter_create(handle(s), Int32(mode))), Int64[])
        finalizer(it -> (CAPI.shape_iter_destroy(it.h); it.h = C_NULL), it)
        it.buf = Vector{Int64}(undef, checked(CAPI.shape_iter_index_length(it.h)))
        it
    end
end
Base.close(it::ShapeIndices) = (CAPI.shape_iter_destroy(it.h); it.h = C_NULL; nothing)
handle(it::ShapeIndices) = it.h == C_NULL ? throw(NanographError(-1, "nanograph: the iterator is closed")) : it.h
indices(s::Shape; absolute::Bool=false) = ShapeIndices(s; absolute=absolute)
Base.IteratorSize(::Type{ShapeIndices}) = Base.SizeUnknown()
Base.eltype(::Type{ShapeIndices}) = Tuple{Vararg{Int64}}
function Base.iterate(it::ShapeIndices, started::Bool=false)
    started || check(CAPI.shape_iter_reset(handle(it)))
    r = CAPI.shape_iter_next(handle(it), it.buf, Int32(length(it.buf)))
    r < 0 && throw(last_error())
    r == 0 ? nothing : (Tuple(it.buf), true)
end
Base.IteratorSize(::Type{Shape}) = Base.SizeUnknown()
Base.eltype(::Type{Shape}) = Tuple{Vararg{Int64}}
Base.iterate(s::Shape) = iterate_shape(indices(s), false)
Base.iterate(s::Shape, it::ShapeIndices) = iterate_shape(it, true)
function iterate_shape(it::ShapeIndices, started::Bool)
    r = iterate(it, started)
    r === nothing ? (close(it); nothing) : (r[1], it)
end

# ---- jagged tensors ---------------------------------------------------------------------------

"""A jagged host tensor: values over a smooth or jagged shape, packed in row-major order and
never padded. `Jagged(rows)` copies a vector of row vectors; `Jagged(shape, values)` and
`jagged_from_row_splits` lend a `Vector` without copying; `jagged_zeros`, `jagged_from_padded`
make the others. Released by its finalizer or `close`."""
mutable struct Jagged
    h::Ptr{Cvoid}
    function Jagged(h::Ptr{Cvoid})
        j = new(checkptr(h))
        finalizer(j -> (j.h != C_NULL && CAPI.jagged_release(j.h); j.h = C_NULL), j)
    end
end
Base.close(j::Jagged) = (j.h != C_NULL && CAPI.jagged_release(j.h); j.h = C_NULL; nothing)
handle(j::Jagged) = j.h == C_NULL ? throw(NanographError(-1, "nanograph: the jagged tensor is closed")) : j.h
"""Another owner of the same jagged tensor (closed on its own; the values are shared)."""
retain(j::Jagged) = (CAPI.jagged_retain(handle(j)); Jagged(j.h))

"""A zero-filled jagged tensor of element type `E` over `shape`."""
jagged_zeros(::Type{E}, shape::Shape) where {E} = Jagged(CAPI.jagged_create(dtype(E), handle(shape)))

"""A jagged tensor over `values` (packed row-major, `length(shape)` elements), without copying:
the tensor keeps the vector alive and writes through it."""
function Jagged(shape::Shape, values::Vector{E}) where {E}
    # The library cannot check the count of memory it is lent: a shorter vector would be overrun.
    length(values) == length(shape) || throw(ArgumentError(
        "Jagged: the shape $(sprint(show, shape)) has $(length(shape)) elements but $(length(values)) values were given"))
    key = lend(values)
    p = CAPI.jagged_wrap(dtype(E), handle(shape), pointer(values), release_lent_ptr(), Ptr{Cvoid}(key))
    p == C_NULL && (unlend(key); throw(last_error()))
    Jagged(p)
end

"""A jagged tensor of rows (vectors of one element type, any lengths); the values are copied."""
function Jagged(rows::AbstractVector{<:AbstractVector{E}}) where {E}
    values = isempty(rows) ? E[] : reduce(vcat, rows)
    shape = shape_from_row_lengths([length(r) for r in rows])
    Jagged(GC.@preserve values CAPI.jagged_from_data(dtype(E), handle(shape), values))
end

"""The jagged tensor of `values` split by `row_splits` (one vector per jagged mode, mode 1
first), without copying `values`: `jagged_from_row_splits([1, 2, 3], [0, 2, 2, 3])`."""
jagged_from_row_splits(values::Vector, splits::AbstractVector{<:Integer}...) =
    Jagged(jagged_shape(length(splits[1]) - 1, splits...), values)

"""A jagged tensor over the values of a rank-1 tensor (no copy)."""
jagged_from_values(shape::Shape, values::Tensor) = Jagged(CAPI.jagged_from_values(handle(shape), handle(values)))

"""The jagged tensor of the elements of `padded` where `mask` is true (the values are copied;
both arrays are indexed like the padded tensor)."""
function jagged_from_padded(padded::AbstractArray, mask::AbstractArray{Bool})
    p, m = Tensor(padded), Tensor(Array{Bool}(mask))
    Jagged(CAPI.jagged_from_padded(handle(p), handle(m)))
end

Base.eltype(j::Jagged) = JULIA_TYPES[CAPI.jagged_dtype(handle(j))]
"""The shape (a slice's shape carries its origin)."""
shape(j::Jagged) = Shape(CAPI.jagged_shape(handle(j)))
Base.ndims(j::Jagged) = ndims(shape(j))
Base.length(j::Jagged) = length(shape(j))
"""The values as a rank-1 tensor sharing their memory."""
values_tensor(j::Jagged) = Tensor(CAPI.jagged_values(handle(j)))
"""The values, packed in row-major order, as a Julia vector viewing their memory (no copy)."""
Base.values(j::Jagged) = Array(values_tensor(j))
"""The row splits of mode `mode` (1 <= mode < rank)."""
row_splits(j::Jagged, mode::Integer=1) = read_array(Tensor(CAPI.jagged_row_splits(handle(j), Int32(mode))))
"""The 0-based position among the values of the 0-based `index` (relative to the tensor)."""
value_position(j::Jagged, index::AbstractVector{<:Integer}) =
    checked(CAPI.jagged_position(handle(j), Int64[index...], Int32(length(index))))
"""A view of positions `start` to `stop - 1` (0-based) of mode 0."""
slice(j::Jagged, start::Integer, stop::Integer) = Jagged(CAPI.jagged_slice(handle(j), Int64(start), Int64(stop)))
"""A view of the slice with the first `length(prefix)` indices fixed to the 0-based `prefix`."""
at(j::Jagged, prefix::AbstractVector{<:Integer}) = Jagged(CAPI.jagged_at(handle(j), Int64[prefix...], Int32(length(prefix))))
"""A copy of the values, packed in row-major order."""
function read_array(j::Jagged)
    out = Vector{eltype(j)}(undef, length(j))
    check(CAPI.jagged_read(handle(j), out, Csize_t(sizeof(out))))
    out
end
"""Copies `values` (packed in row-major order) in; every view of them sees it."""
function write!(j::Jagged, values::AbstractVector)
    v = Vector{eltype(j)}(values)
    check(CAPI.jagged_write(handle(j), v, Csize_t(sizeof(v))))
end
"""The values of each position of mode 0 (a copy, each packed in row-major order)."""
rows(j::Jagged) = [read_array(at(j, [i])) for i in 0:extent(shape(j))-1]
"""The padded dense array and its mask (true where an element exists), indexed like the
padded tensor."""
function to_padded(j::Jagged)
    p, m = Ref{Ptr{Cvoid}}(C_NULL), Ref{Ptr{Cvoid}}(C_NULL)
    check(CAPI.jagged_to_padded(handle(j), p, m))
    Array(Tensor(p[])), Array(Tensor(m[]))
end
Base.show(io::IO, j::Jagged) = print(io, "Jagged{", eltype(j), "}(", shape(j), ")")
