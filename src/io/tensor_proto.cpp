#include "io/tensor_proto.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/checked_math.hpp"
#include "core/error.hpp"
#include "io/arena_message.hpp"

namespace ng::io {

namespace {

// nanograph's dtypes and TensorFlow's numbers for them: the one table both directions use.
struct DTypePair {
    DType ng;
    tf::DataType tf;
};
constexpr DTypePair kDTypes[] = {
    {NG_BOOL, tf::DT_BOOL},   {NG_INT32, tf::DT_INT32},   {NG_INT64, tf::DT_INT64},
    {NG_UINT8, tf::DT_UINT8}, {NG_FLOAT32, tf::DT_FLOAT}, {NG_FLOAT64, tf::DT_DOUBLE},
};

// A TensorFlow reference type is its value type + 100 (DT_FLOAT_REF = 101); they describe
// variables in graphs, never values.
constexpr int32_t kRefOffset = 100;

// The tensor's dims from the message, checked: known, non-negative, and with a product (of the
// dims that are not 0, times the element size) that fits, so that row-major strides and byte
// sizes can be computed even for an empty tensor.
Dims dims_of(const tf::TensorProto &proto, size_t element_size, const std::string &what) {
    if (!proto.has_tensor_shape()) return {};  // TensorFlow writes scalars without a shape too
    const tf::TensorShapeProto &shape = proto.tensor_shape();
    if (shape.unknown_rank())
        throw format_error(what, " has a shape of unknown rank, which a value cannot have");
    Dims dims;
    dims.reserve(static_cast<size_t>(shape.dim_size()));
    int64_t product = static_cast<int64_t>(element_size);
    for (int i = 0; i < shape.dim_size(); ++i) {
        int64_t d = shape.dim(i).size();
        if (d < 0)
            throw format_error(what, " has dimension ", i, " of size ", d,
                               " (unknown or negative)");
        if (d > 0 && __builtin_mul_overflow(product, d, &product))
            throw format_error(what, " has dimensions whose product overflows (dimension ", i,
                               " is ", d, ")");
        dims.push_back(d);
    }
    if (static_cast<uint64_t>(product) > static_cast<uint64_t>(PTRDIFF_MAX))
        throw format_error(what, " describes more bytes than can be addressed");
    return dims;
}

int64_t numel_of(const Dims &dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;  // dims_of checked that this cannot overflow
    return n;
}

// How many typed values the message carries in fields other than the one of its dtype.
int foreign_values(const tf::TensorProto &p, int own_field) {
    const int counts[] = {p.float_val_size(),  p.double_val_size(),   p.int_val_size(),
                          p.string_val_size(), p.scomplex_val_size(), p.int64_val_size(),
                          p.bool_val_size(),   p.dcomplex_val_size(), p.half_val_size(),
                          p.uint32_val_size(), p.uint64_val_size()};
    const int fields[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17};
    int n = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i)
        if (fields[i] != own_field) n += counts[i];
    return n;
}

// Converts one typed value to the element type, refusing values the type cannot hold (int_val
// carries uint8 values, for instance).
template <class T, class V>
T element_of(V v, const std::string &what, const char *field) {
    if constexpr (std::is_integral_v<T> && std::is_integral_v<V> && !std::is_same_v<T, V> &&
                  !std::is_same_v<V, bool>) {
        if (v < static_cast<V>(std::numeric_limits<T>::min()) ||
            v > static_cast<V>(std::numeric_limits<T>::max()))
            throw format_error(what, ": ", field, " holds ", v, ", outside the range of its dtype");
    }
    return static_cast<T>(v);
}

// Fills the tensor from a typed field as TensorFlow does: no values are zeros, fewer values than
// elements are completed with the last one, more values than elements are refused.
template <class T, class Field>
Tensor from_values(DType dt, const Dims &dims, const Field &values, const std::string &what,
                   const char *field) {
    const int64_t numel = numel_of(dims);
    const int64_t given = values.size();
    if (given > numel)
        throw format_error(what, " has ", given, " values in ", field, " for ", numel, " elements");
    const size_t bytes = static_cast<size_t>(numel) * sizeof(T);
    if (bytes > kMaxExpandedBytes)
        throw format_error(what, " asks for ", numel, " elements (", bytes, " bytes) from ", given,
                           " values in ", field, ": more than the ", kMaxExpandedBytes >> 20,
                           " MiB a message may expand to (write such tensors with tensor_content)");
    if (given == 0) return Tensor::zeros(dt, dims);
    Tensor t = Tensor::uninitialized(dt, dims);
    T *out = static_cast<T *>(t.data());
    for (int64_t i = 0; i < given; ++i) out[i] = element_of<T>(values.Get(i), what, field);
    std::fill(out + given, out + numel, out[given - 1]);
    return t;
}

Tensor from_content(DType dt, const Dims &dims, const std::string &content,
                    const std::string &what) {
    const int64_t numel = numel_of(dims);
    const size_t bytes = static_cast<size_t>(numel) * dtype_size(dt);
    if (content.size() != bytes)
        throw format_error(what, " has ", content.size(), " bytes of tensor_content, but ", numel,
                           " ", dtype_name(dt), " elements take ", bytes);
    Tensor t = Tensor::uninitialized(dt, dims);
    if (bytes > 0) std::memcpy(t.data(), content.data(), bytes);
    if (dt == NG_BOOL) {  // one byte per element, 0 or 1 in nanograph: any non-zero byte is true
        uint8_t *b = static_cast<uint8_t *>(t.data());
        for (int64_t i = 0; i < numel; ++i) b[i] = b[i] != 0;
    }
    return t;
}

}  // namespace

int32_t tf_dtype_of(DType dt) {
    for (const DTypePair &p : kDTypes)
        if (p.ng == dt) return p.tf;
    throw unsupported("dtype ", dtype_name(dt), " (", dt, ") has no TensorFlow DataType");
}

DType dtype_of_tf(int32_t tf_dtype) {
    for (const DTypePair &p : kDTypes)
        if (p.tf == tf_dtype) return p.ng;
    if (tf_dtype > kRefOffset && tf::DataType_IsValid(tf_dtype - kRefOffset))
        throw unsupported("the reference DataType ", tf_dtype, " (",
                          tf_dtype_name(tf_dtype - kRefOffset),
                          "_REF) describes a variable, not a value");
    if (tf_dtype != tf::DT_INVALID && tf::DataType_IsValid(tf_dtype))
        throw unsupported("TensorFlow's DataType ", tf_dtype_name(tf_dtype), " (", tf_dtype,
                          ") has no nanograph dtype");
    throw format_error("DataType ", tf_dtype, " is ",
                       tf_dtype == tf::DT_INVALID ? "DT_INVALID" : "not a DataType");
}

const char *tf_dtype_name(int32_t tf_dtype) {
    if (!tf::DataType_IsValid(tf_dtype)) return "an unknown DataType";
    return tf::DataType_Name(static_cast<tf::DataType>(tf_dtype)).c_str();
}

void to_tensor_proto(const Tensor &t, tf::TensorProto &out) {
    out.Clear();
    out.set_dtype(static_cast<tf::DataType>(tf_dtype_of(t.dtype())));
    tf::TensorShapeProto *shape = out.mutable_tensor_shape();  // present even for a scalar
    for (int64_t d : t.shape()) shape->add_dim()->set_size(d);
    const size_t bytes = checked_bytes(t.numel(), t.element_size(), "the tensor");
    if (bytes == 0) return;
    std::string *content = out.mutable_tensor_content();
    content->resize(bytes);
    t.read(content->data(), bytes);
}

Tensor from_tensor_proto(const tf::TensorProto &proto, const std::string &what) {
    DType dt;
    try {
        dt = dtype_of_tf(proto.dtype());
    } catch (const Error &e) {
        throw Error(e.status(), concat(what, ": ", e.what()));
    }
    Dims dims = dims_of(proto, dtype_size(dt), what);
    const int own_field = dt == NG_FLOAT32   ? 5
                          : dt == NG_FLOAT64 ? 6
                          : dt == NG_INT64   ? 10
                          : dt == NG_BOOL    ? 11
                                             : 7;  // int32, uint8
    if (int n = foreign_values(proto, own_field))
        throw format_error(what, " has dtype ", tf_dtype_name(proto.dtype()), " but ", n,
                           " values in fields of other dtypes");
    // tensor_content wins over the typed field, as in TensorFlow.
    if (!proto.tensor_content().empty())
        return from_content(dt, dims, proto.tensor_content(), what);
    switch (dt) {
    case NG_FLOAT32: return from_values<float>(dt, dims, proto.float_val(), what, "float_val");
    case NG_FLOAT64: return from_values<double>(dt, dims, proto.double_val(), what, "double_val");
    case NG_INT32: return from_values<int32_t>(dt, dims, proto.int_val(), what, "int_val");
    case NG_UINT8: return from_values<uint8_t>(dt, dims, proto.int_val(), what, "int_val");
    case NG_INT64: return from_values<int64_t>(dt, dims, proto.int64_val(), what, "int64_val");
    case NG_BOOL: return from_values<uint8_t>(dt, dims, proto.bool_val(), what, "bool_val");
    default: throw internal_error(what, ": dtype ", dt, " has no typed field");
    }
}

std::string serialize_tensor(const Tensor &t) {
    ArenaMessage<tf::TensorProto> arena_message;
    tf::TensorProto &proto = *arena_message;
    to_tensor_proto(t, proto);
    if (proto.ByteSizeLong() > static_cast<size_t>(INT_MAX))
        throw unsupported("the tensor takes ", proto.tensor_content().size(),
                          " bytes: a TensorProto is at most 2 GiB");
    std::string bytes;
    if (!proto.SerializeToString(&bytes)) throw internal_error("protobuf could not serialize");
    return bytes;
}

Tensor deserialize_tensor(const void *bytes, size_t size) {
    if (bytes == nullptr && size > 0) throw invalid_argument("bytes is NULL but size is ", size);
    if (size > static_cast<size_t>(INT_MAX))
        throw format_error("size is ", size, ": a TensorProto is at most 2 GiB");
    ArenaMessage<tf::TensorProto> arena_message;
    tf::TensorProto &proto = *arena_message;
    if (!proto.ParseFromArray(bytes, static_cast<int>(size)))
        throw format_error("the ", size, " bytes are not a TensorProto (damaged or truncated)");
    return from_tensor_proto(proto, "the TensorProto");
}

}  // namespace ng::io
