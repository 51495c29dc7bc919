# AscLayers.cmake: the layers of libasccore. Each module (a folder under libasccore/src and
# libasccore/include/asc) may include the modules listed after it and nothing else, so lower
# layers never include higher ones:
#
#   support ─► ir, cpu, trace, cli ─► soc, tensorio ─► compare, ops ─► frontend, passes, om ─► runtime
#           (runtime: not passes; dynamic models are compiled per shape through the compiler)
#           ─► compiler (asc::compile(): the whole order of work)
#           ─► debug (precision debugging: compile-and-run searches over the compiler)
#   support, cpu, soc, trace ─► ascendc (the Ascend C CPU layer; ir only because soc.h includes it;
#           cpu for the ISA its copies and vector loops choose; trace for msprof op's launches)
#   support, soc ─► opgen (the project generator behind `opgen gen`; the aclnn sources)
#   ops, ascendc, opgen ─► ophost (Ascend C operator projects as plugins: CANN's host API on
#           OpDefs; the direct calls behind the aclnn API)
#
# Two guards use this table:
# - asc_check_layers(ROOT), run at configure time (and by `cmake -DASC_ROOT=DIR -P` this file),
#   scans every source and header and stops with the file, the line and the rule it breaks;
# - asc_layer_view(MODULE DIR) makes an include folder holding only what MODULE may include; each
#   module's target compiles against its view, so a backward include also fails to compile.
set(ASC_LAYERS
  "support:"
  "ir:support"
  "cli:support"
  "cpu:support"
  "trace:support"
  "soc:support,ir"
  "tensorio:support,ir"
  "compare:support,ir,cpu,tensorio"
  "ops:support,ir,cpu,soc"
  "frontend:support,ir,ops"
  "passes:support,ir,cpu,ops,soc"
  "om:support,ir,cpu,ops"
  "runtime:support,ir,cpu,ops,om,tensorio,trace"
  "compiler:support,ir,cli,cpu,soc,tensorio,trace,compare,ops,frontend,passes,om,runtime"
  "debug:support,ir,cli,cpu,soc,tensorio,trace,compare,ops,frontend,passes,om,runtime,compiler"
  "ascendc:support,ir,cpu,soc,trace"
  "opgen:support,ir,soc"
  "ophost:support,ir,soc,ops,ascendc,opgen")

# ASC_MODULES: every module, in layer order; ASC_DEPS_<module>: what it may include.
set(ASC_MODULES)
foreach(entry ${ASC_LAYERS})
  string(FIND "${entry}" ":" colon)
  string(SUBSTRING "${entry}" 0 ${colon} module)
  math(EXPR start "${colon} + 1")
  string(SUBSTRING "${entry}" ${start} -1 deps)
  string(REPLACE "," ";" deps "${deps}")
  list(APPEND ASC_MODULES ${module})
  set(ASC_DEPS_${module} ${deps})
endforeach()

function(asc_check_layers root)
  set(errors "")
  foreach(module ${ASC_MODULES})
    file(GLOB_RECURSE files
      ${root}/libasccore/src/${module}/*.cpp ${root}/libasccore/src/${module}/*.h
      ${root}/libasccore/include/asc/${module}/*.h)
    foreach(f ${files})
      file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
      foreach(line ${lines})
        # A relative include hides which module it reaches: write it from the module root
        # ("ops/op_util.h"). Template text with @NAME@ markers (opgen's generated files) is
        # not this project's code.
        if(line MATCHES "#[ \t]*include[ \t]*\"\\.\\./" AND NOT line MATCHES "@")
          file(RELATIVE_PATH rel ${root} ${f})
          string(STRIP "${line}" line)
          string(APPEND errors
            "  ${rel}: '${line}': a relative include; name the header from its module (\"ops/op_util.h\")\n")
          continue()
        endif()
        if(NOT line MATCHES "#[ \t]*include[ \t]*\"(asc/)?([a-z_]+)/")
          continue()
        endif()
        set(target ${CMAKE_MATCH_2})
        list(FIND ASC_MODULES ${target} known)
        if(known EQUAL -1 OR target STREQUAL module)
          continue()  # not a module (generated code such as onnx/onnx.pb.h), or itself
        endif()
        list(FIND ASC_DEPS_${module} ${target} allowed)
        if(allowed EQUAL -1)
          file(RELATIVE_PATH rel ${root} ${f})
          string(STRIP "${line}" line)
          string(REPLACE ";" ", " may "${ASC_DEPS_${module}}")
          string(APPEND errors
            "  ${rel}: '${line}': ${module} may not include ${target} (${module} may include: ${may})\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "libasccore layering broken (cmake/AscLayers.cmake):\n${errors}"
                        "Move the code to the right layer, or pass what it needs from above.")
  endif()
endfunction()

# asc_layer_view(MODULE DIR): DIR/asc/<m> and DIR/<m> link to the public and private headers of
# MODULE and of the modules it may include; DIR/asc/asc.h to the library's common header.
function(asc_layer_view module dir)
  set(src_root ${PROJECT_SOURCE_DIR}/libasccore)
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir}/asc)
  file(CREATE_LINK ${src_root}/include/asc/asc.h ${dir}/asc/asc.h SYMBOLIC)
  foreach(m ${module} ${ASC_DEPS_${module}})
    if(EXISTS ${src_root}/include/asc/${m})
      file(CREATE_LINK ${src_root}/include/asc/${m} ${dir}/asc/${m} SYMBOLIC)
    endif()
    if(EXISTS ${src_root}/src/${m})
      file(CREATE_LINK ${src_root}/src/${m} ${dir}/${m} SYMBOLIC)
    endif()
  endforeach()
endfunction()

# Script mode: cmake -DASC_ROOT=<source tree> -P cmake/AscLayers.cmake
if(CMAKE_SCRIPT_MODE_FILE AND ASC_ROOT)
  asc_check_layers(${ASC_ROOT})
  message(STATUS "libasccore layering: OK")
endif()
