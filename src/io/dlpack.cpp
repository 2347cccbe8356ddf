#include "io/dlpack.hpp"

#include <memory>
#include <utility>

#include "core/checked_math.hpp"

namespace ng::io {

namespace {

// DLPack 0.8 added kDLBool = 6; the 0.6 header does not name it, but producers built against
// newer headers send it, and it is the only faithful encoding of NG_BOOL.
constexpr uint8_t kDLBoolCode = 6;

struct TypeMapping {
    DType dtype;
    uint8_t code;
    uint8_t bits;
};

constexpr TypeMapping kTypes[] = {
    {NG_INT32, kDLInt, 32},     {NG_INT64, kDLInt, 64},     {NG_UINT8, kDLUInt, 8},
    {NG_FLOAT32, kDLFloat, 32}, {NG_FLOAT64, kDLFloat, 64},
};

DLDataType dlpack_type_of(DType dt) {
    for (const TypeMapping &m : kTypes)
        if (m.dtype == dt) return DLDataType{m.code, m.bits, 1};
    if (dt == NG_BOOL)
        throw dtype_error("DLPack 0.6 has no bool type; bool tensors cannot be exported");
    throw dtype_error("dtype ", dt, " has no DLPack type");
}

DType dtype_of(DLDataType type) {
    if (type.lanes != 1)
        throw unsupported("DLPack vector types (lanes = ", type.lanes, ") are not supported");
    for (const TypeMapping &m : kTypes)
        if (m.code == type.code && m.bits == type.bits) return m.dtype;
    if (type.code == kDLBoolCode && type.bits == 8) return NG_BOOL;
    throw dtype_error("DLPack type code ", int(type.code), " with ", int(type.bits),
                      " bits has no nanograph dtype (int32, int64, uint8, float32, float64, bool)");
}

// What an export owns: the DLManagedTensor handed out, the arrays it points to, and a view
// holding the storage.
struct Export {
    DLManagedTensor managed{};
    Tensor tensor;
    Dims shape, strides;
};

void delete_export(DLManagedTensor *m) {
    delete static_cast<Export *>(m->manager_ctx);
}

// Runs an imported tensor's deleter when its storage dies.
void release_import(void *, void *ctx) {
    auto *m = static_cast<DLManagedTensor *>(ctx);
    if (m->deleter != nullptr) m->deleter(m);
}

}  // namespace

DLManagedTensor *export_dlpack(const Tensor &t) {
    DLDataType type = dlpack_type_of(t.dtype());
    auto holder = std::make_unique<Export>();
    holder->tensor = t;
    holder->shape = t.shape();
    holder->strides = t.strides();
    DLTensor &dl = holder->managed.dl_tensor;
    // data is element (0, ..., 0) itself and byte_offset 0, as NumPy exports: PyTorch 1.13
    // ignores byte_offset on import and would see the wrong elements of an offset view.
    dl.data = t.data();
    dl.device = DLDevice{kDLCPU, 0};
    dl.ndim = t.rank();
    dl.dtype = type;
    dl.shape = holder->shape.data();
    dl.strides = holder->strides.data();
    dl.byte_offset = 0;
    holder->managed.manager_ctx = holder.get();
    holder->managed.deleter = delete_export;
    return &holder.release()->managed;
}

Tensor import_dlpack(DLManagedTensor *m) {
    if (m == nullptr) throw invalid_argument("m is NULL");
    const DLTensor &dl = m->dl_tensor;
    if (dl.device.device_type != kDLCPU)
        throw unsupported("only CPU tensors can be imported; this one is on DLPack device type ",
                          int(dl.device.device_type), " (", dl.device.device_id, ")");
    DType dt = dtype_of(dl.dtype);
    if (dl.ndim < 0) throw invalid_argument("ndim is negative (", dl.ndim, ")");
    if (dl.ndim > 0 && dl.shape == nullptr)
        throw invalid_argument("shape is NULL but ndim is ", dl.ndim);
    Dims shape(dl.shape, dl.shape + dl.ndim);
    Dims strides =
        dl.strides == nullptr ? row_major_strides(shape) : Dims(dl.strides, dl.strides + dl.ndim);
    int64_t numel = checked_numel(shape, "shape");
    if (numel > 0 && dl.data == nullptr)
        throw invalid_argument("data is NULL but the tensor has ", numel, " elements");
    if (dl.byte_offset > static_cast<uint64_t>(PTRDIFF_MAX))
        throw invalid_argument("byte_offset ", dl.byte_offset, " is too large");
    void *first = numel == 0 ? dl.data : static_cast<char *>(dl.data) + dl.byte_offset;
    return Tensor::wrap(dt, shape, strides, first, release_import, m);
}

}  // namespace ng::io
