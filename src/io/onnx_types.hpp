// What the ONNX exporter and importer share: dtype codes of ONNX's TensorProto, the opset the
// exporter writes, and the generated (lite runtime) message classes.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "onnx.pb.h"

namespace ng::onnx_io {

// The default-domain opset the exporter writes, and the IR version that goes with it.
constexpr int64_t kExportOpset = 13;
constexpr int64_t kExportIrVersion = 7;

// TensorProto.DataType of a nanograph dtype (every dtype has one).
int32_t onnx_type_of(DType dt);
// The nanograph dtype of a TensorProto.DataType, or 0 when nanograph has none.
DType dtype_of_onnx(int32_t onnx_type) noexcept;
// "FLOAT16", "STRING", ...: the name of an ONNX element type, for messages.
const char *onnx_type_name(int32_t onnx_type) noexcept;

}  // namespace ng::onnx_io
