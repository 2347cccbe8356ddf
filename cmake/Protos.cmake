# Generates C++ for the .proto schemas the library reads and writes (lite runtime) and compiles it
# into the library's objects: NG_PROTO_SOURCES lists the generated sources, NG_PROTO_DIR the folder
# to include them from ("onnx.pb.h").
set(NG_PROTO_DIR ${PROJECT_BINARY_DIR}/proto)
file(MAKE_DIRECTORY ${NG_PROTO_DIR})
get_filename_component(ng_onnx_proto_dir ${NG_ONNX_PROTO} DIRECTORY)
add_custom_command(
  OUTPUT ${NG_PROTO_DIR}/onnx.pb.cc ${NG_PROTO_DIR}/onnx.pb.h
  COMMAND ${Protobuf_PROTOC_EXECUTABLE} --cpp_out=${NG_PROTO_DIR} -I${ng_onnx_proto_dir}
          ${NG_ONNX_PROTO}
  DEPENDS ${NG_ONNX_PROTO}
  COMMENT "protoc: ONNX's onnx.proto (lite runtime)")
set(NG_PROTO_SOURCES ${NG_PROTO_DIR}/onnx.pb.cc)
# Generated code is not ours to warn about.
set_source_files_properties(${NG_PROTO_SOURCES} PROPERTIES COMPILE_OPTIONS "-w")
