# Helpers shared by mlc's CMake files.

# Link with LLVM's own lld (lld-22): an order of magnitude faster than GNU ld
# on MLIR-sized binaries. g++ finds `ld.lld` through -B, so point it at a
# directory holding only that one link, not whatever ld.lld is on PATH.
function(mlc_use_lld)
  find_program(MLC_LLD ld.lld PATHS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
  if(NOT MLC_LLD)
    message(STATUS "ld.lld not found in ${LLVM_TOOLS_BINARY_DIR}; using the default linker")
    return()
  endif()
  set(dir "${CMAKE_BINARY_DIR}/linker")
  file(MAKE_DIRECTORY "${dir}")
  file(CREATE_LINK "${MLC_LLD}" "${dir}/ld.lld" SYMBOLIC)
  add_link_options("-B${dir}" -fuse-ld=lld)
  message(STATUS "Linking with ${MLC_LLD}")
endfunction()

# mlc_add_library(name SOURCES... [DEPENDS tblgen-targets...]
#                 [MLIR_LIBS upstream-libs...] [LINK_LIBS mlc-libs...])
# Declares one mlc library. Upstream MLIR libraries go through
# mlir_target_link_libraries() so that MLC_LINK_MLIR_DYLIB=ON links libMLIR.so
# instead of the static archives.
function(mlc_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;MLIR_LIBS;LINK_LIBS;LINK_COMPONENTS" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    EXCLUDE_FROM_LIBMLIR
    DISABLE_INSTALL
    DEPENDS ${ARG_DEPENDS}
    LINK_COMPONENTS ${ARG_LINK_COMPONENTS}
    LINK_LIBS PUBLIC ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  mlc_install_library(${name})
endfunction()

# Installs library `name` into the MLCTargets export set (the imported
# targets of find_package(MLC CONFIG)); its headers are installed as a whole.
function(mlc_install_library name)
  target_include_directories(${name} INTERFACE $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name} EXPORT MLCTargets
          ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
endfunction()

# Installs tool `name` into bin/, finding its shared libraries (libMLIR.so,
# mlc's CUDA runtime) from there without LD_LIBRARY_PATH.
function(mlc_install_tool name)
  set_target_properties(${name} PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
