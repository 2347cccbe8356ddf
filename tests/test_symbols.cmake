# The library's public surface, checked on the built tree (scripts in cmake/checks/):
# - exported_symbols: only ng_* functions (and the version node) leave libnanograph.so, soname .so.<major>;
# - declared_functions_exported: every NG_API function a header declares is really there;
# - headers_standalone: every public header compiles alone as C99 and as C++17.
add_test(NAME exported_symbols
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:nanograph> -DNM=${CMAKE_NM}
                 -DOBJDUMP=${CMAKE_OBJDUMP} -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckExports.cmake)
add_test(NAME declared_functions_exported
         COMMAND ${CMAKE_COMMAND} -DLIBRARY=$<TARGET_FILE:nanograph> -DNM=${CMAKE_NM}
                 -DHEADER_DIR=${PROJECT_SOURCE_DIR}/include/nanograph
                 -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckDeclared.cmake)
add_test(NAME headers_standalone
         COMMAND ${CMAKE_COMMAND} -DC_COMPILER=${CMAKE_C_COMPILER} -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
                 -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include
                 -P ${PROJECT_SOURCE_DIR}/cmake/checks/CheckHeaders.cmake)
