// Host values of an ONNX import: TensorProto decoding (every size checked before it is trusted)
// and the context's value table.
#include <cstring>

#include "core/checked_math.hpp"
#include "graph/builders.hpp"
#include "io/onnx_import_context.hpp"

namespace ng::onnx_io {
namespace {

Error format_error(const std::string &message) {
    return Error(NG_ERR_FORMAT, message);
}

// Copies typed repeated-field elements into `out` as T after checking the count.
template <class T, class Field>
void copy_field(const Field &field, int64_t numel, std::vector<uint8_t> &out,
                const std::string &what) {
    if (static_cast<int64_t>(field.size()) != numel)
        throw format_error(
            concat(what, " has ", field.size(), " elements for ", numel, " by its dims"));
    out.resize(static_cast<size_t>(numel) * sizeof(T));
    T *p = reinterpret_cast<T *>(out.data());
    for (int64_t i = 0; i < numel; ++i) p[i] = static_cast<T>(field.Get(static_cast<int>(i)));
}

}  // namespace

int64_t Known::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::vector<int64_t> Known::ints(const std::string &what) const {
    std::vector<int64_t> out;
    visit_dtype(dtype, [&](auto zero) {
        using T = decltype(zero);
        if constexpr (std::is_floating_point_v<T>) {
            throw dtype_error(what, " holds ", dtype_name(dtype), " values where integers belong");
        } else {
            const T *p = reinterpret_cast<const T *>(data.data());
            for (int64_t i = 0; i < numel(); ++i) out.push_back(static_cast<int64_t>(p[i]));
        }
    });
    return out;
}

std::vector<double> Known::doubles(const std::string &) const {
    std::vector<double> out;
    visit_dtype(dtype, [&](auto zero) {
        using T = decltype(zero);
        const T *p = reinterpret_cast<const T *>(data.data());
        for (int64_t i = 0; i < numel(); ++i) out.push_back(static_cast<double>(p[i]));
    });
    return out;
}

Known decode_tensor(const onnx::TensorProto &t, const std::string &what) {
    Known k;
    k.dtype = dtype_of_onnx(t.data_type());
    if (k.dtype == 0)
        throw dtype_error(what, " has element type ", onnx_type_name(t.data_type()),
                          ", which nanograph lacks");
    if (t.data_location() == onnx::TensorProto::EXTERNAL || t.external_data_size() > 0)
        throw unsupported(what, " keeps its data in an external file");
    if (t.dims_size() > kMaxRank)
        throw format_error(concat(what, " has ", t.dims_size(), " dims (at most ", kMaxRank, ")"));
    int64_t numel = 1;
    for (int64_t d : t.dims()) {
        if (d < 0) throw format_error(concat(what, " has a negative dim ", d));
        numel = checked_mul(numel, d, "element count");
        k.shape.push_back(d);
    }
    if (numel > kMaxKnownElements)
        throw format_error(concat(what, " has ", numel, " elements (at most ", kMaxKnownElements,
                                  " are accepted)"));
    const size_t bytes = static_cast<size_t>(numel) * dtype_size(k.dtype);
    if (t.has_raw_data()) {
        if (t.raw_data().size() != bytes)
            throw format_error(concat(what, " has ", t.raw_data().size(), " bytes of raw data for ",
                                      numel, " elements of ", dtype_name(k.dtype)));
        k.data.assign(t.raw_data().begin(), t.raw_data().end());
        if (k.dtype == NG_BOOL)
            for (uint8_t &b : k.data) b = b != 0;
        return k;
    }
    switch (k.dtype) {
    case NG_FLOAT32: copy_field<float>(t.float_data(), numel, k.data, what); break;
    case NG_FLOAT64: copy_field<double>(t.double_data(), numel, k.data, what); break;
    case NG_INT64: copy_field<int64_t>(t.int64_data(), numel, k.data, what); break;
    case NG_INT32: copy_field<int32_t>(t.int32_data(), numel, k.data, what); break;
    case NG_UINT8: copy_field<uint8_t>(t.int32_data(), numel, k.data, what); break;
    case NG_BOOL:
        copy_field<uint8_t>(t.int32_data(), numel, k.data, what);
        for (uint8_t &b : k.data) b = b != 0;
        break;
    default: throw internal_error("ONNX import: dtype ", k.dtype);
    }
    return k;
}

Axes ImportContext::axes_for(const Dims &shape) {
    Axes axes;
    for (size_t i = 0; i < shape.size(); ++i)
        axes.push_back(graph.axis("d" + std::to_string(i), shape[i]));
    return axes;
}

Op *ImportContext::positional(Op *op) {
    Dims shape;
    for (const Axis *a : op->axes) shape.push_back(a->length);
    Axes want = axes_for(shape);
    return want == op->axes ? op : build::cast_axes(op, want);
}

Op *ImportContext::constant(const Known &k) {
    return build::constant(graph, k.dtype, axes_for(k.shape),
                           k.data.empty() ? nullptr : k.data.data());
}

Op *ImportContext::op(const std::string &name) {
    auto it = values_.find(name);
    if (it != values_.end()) return it->second;
    auto k = known_.find(name);
    if (k == known_.end())
        throw format_error(concat("value '", name, "' is used before it is defined"));
    Op *made = constant(k->second);
    values_[name] = made;
    return made;
}

const Known *ImportContext::known_or_null(const std::string &name) const {
    auto k = known_.find(name);
    return k == known_.end() ? nullptr : &k->second;
}

const Known &ImportContext::known(const std::string &name, const std::string &node,
                                  const char *what) const {
    if (const Known *k = known_or_null(name)) return *k;
    throw unsupported(node, ": its ", what, " '", name,
                      "' is computed at run time; nanograph needs it at import (an initializer or "
                      "a Constant node)");
}

}  // namespace ng::onnx_io
