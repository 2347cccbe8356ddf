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

# The formats nanograph defines itself (src/io/*.proto: TensorFlow's TensorProto wire format,
# checkpoints), generated into <build>/proto/io/ and included as "io/tensor.pb.h".
file(GLOB ng_own_protos CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/io/*.proto)
foreach(proto IN LISTS ng_own_protos)
  get_filename_component(stem ${proto} NAME_WE)
  set(out ${NG_PROTO_DIR}/io/${stem}.pb)
  add_custom_command(
    OUTPUT ${out}.cc ${out}.h
    COMMAND ${Protobuf_PROTOC_EXECUTABLE} --proto_path=${PROJECT_SOURCE_DIR}/src
            --cpp_out=${NG_PROTO_DIR} ${proto}
    DEPENDS ${ng_own_protos}
    COMMENT "protoc: src/io/${stem}.proto (lite runtime)"
    VERBATIM)
  set_source_files_properties(${out}.cc PROPERTIES COMPILE_OPTIONS "-w")
  list(APPEND NG_PROTO_SOURCES ${out}.cc)
endforeach()
