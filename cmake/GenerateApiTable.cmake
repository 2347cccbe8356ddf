# cmake -DHEADER=<include/nanograph/api.h> -DOUTPUT=<api_table.c> -P GenerateApiTable.cmake
#
# Writes the function table behind ng_get_api() from struct ng_api: one entry ".name = ng_name"
# per field, in the struct's order, so a public function is appended to the struct alone. The
# file is written only when its text changes, so an unchanged header rebuilds nothing.
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/checks/ApiFields.cmake")
ng_api_fields("${HEADER}" fields)
set(text "/* Generated from include/nanograph/api.h by cmake/GenerateApiTable.cmake: do not edit.\n")
string(APPEND text " * The function table behind ng_get_api(), in C for its designated initializers: each entry\n")
string(APPEND text " * names its field, so the compiler checks every name and type. */\n")
string(APPEND text "#include \"capi/api_table.h\"\n\nconst ng_api_t nanograph_api_table = {\n")
foreach(field IN LISTS fields)
  string(APPEND text "    .${field} = ng_${field},\n")
endforeach()
string(APPEND text "};\n")
file(CONFIGURE OUTPUT "${OUTPUT}" CONTENT "${text}" @ONLY)
