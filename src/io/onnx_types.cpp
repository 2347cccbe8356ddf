// ONNX element types against nanograph dtypes.
#include "io/onnx_types.hpp"

#include "core/error.hpp"

namespace ng::onnx_io {

int32_t onnx_type_of(DType dt) {
    switch (dt) {
    case NG_BOOL: return onnx::TensorProto::BOOL;
    case NG_INT32: return onnx::TensorProto::INT32;
    case NG_INT64: return onnx::TensorProto::INT64;
    case NG_UINT8: return onnx::TensorProto::UINT8;
    case NG_FLOAT32: return onnx::TensorProto::FLOAT;
    case NG_FLOAT64: return onnx::TensorProto::DOUBLE;
    default: throw dtype_error("dtype ", dt, " has no ONNX element type");
    }
}

DType dtype_of_onnx(int32_t onnx_type) noexcept {
    switch (onnx_type) {
    case onnx::TensorProto::BOOL: return NG_BOOL;
    case onnx::TensorProto::INT32: return NG_INT32;
    case onnx::TensorProto::INT64: return NG_INT64;
    case onnx::TensorProto::UINT8: return NG_UINT8;
    case onnx::TensorProto::FLOAT: return NG_FLOAT32;
    case onnx::TensorProto::DOUBLE: return NG_FLOAT64;
    default: return 0;
    }
}

const char *onnx_type_name(int32_t onnx_type) noexcept {
    if (onnx::TensorProto::DataType_IsValid(onnx_type)) {
        const std::string &name =
            onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(onnx_type));
        return name.c_str();
    }
    return "an unknown element type";
}

}  // namespace ng::onnx_io
