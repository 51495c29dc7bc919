# asc_add_tool(<name> SOURCES ...): a tool is a small static library (<name>_lib, so tests can
# call its run() directly) plus a thin main.cpp. The library does not link libasccore itself:
# the executable links the shared libasccore, the unit tests link its static twin.
function(asc_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  add_library(${name}_lib STATIC ${ARG_SOURCES})
  target_include_directories(${name}_lib PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
    $<TARGET_PROPERTY:asccore,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${name}_lib PUBLIC fmt::fmt)
  asc_warnings(${name}_lib)
  add_executable(${name} main.cpp)
  target_link_libraries(${name} PRIVATE ${name}_lib asccore)
  asc_warnings(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
