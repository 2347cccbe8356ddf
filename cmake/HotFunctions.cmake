# Lays out the functions that programs run (cmake/hot-functions.txt, made by
# bench/hot_functions.py) first and together in the library, with lld's --symbol-ordering-file:
# the kernel maps a library's code 64 KiB at a time, so a process that compiles and runs a graph
# then maps a few such stretches instead of one in each of the many object files the code comes
# from. Without lld the library links with the default linker in source order, and works the same.
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=lld" NG_HAVE_LLD)
set(NG_HOT_FUNCTIONS ${PROJECT_SOURCE_DIR}/cmake/hot-functions.txt)
if(NG_HAVE_LLD)
  target_link_options(nanograph PRIVATE -fuse-ld=lld
                      "-Wl,--symbol-ordering-file=${NG_HOT_FUNCTIONS}"
                      -Wl,--no-warn-symbol-ordering)
  set_property(TARGET nanograph APPEND PROPERTY LINK_DEPENDS ${NG_HOT_FUNCTIONS})
else()
  message(STATUS "lld not found: the library's functions keep their source order")
endif()
