# asc-config.cmake: find_package(ASC) for the operator projects CANN 9's msopgen writes (a
# CMakeLists.txt with find_package(ASC), npu_op_package, and op_host/op_kernel folders calling
# npu_op_code_gen, npu_op_library, npu_op_kernel_sources, npu_op_kernel_library and
# npu_op_package_add). asc-tools builds such a project into a vendor folder laid out as CANN's,
# which the aclnn runtime loads (build_out/vendors/<vendor>/): op_host as
# op_impl/ai_core/tbe/op_tiling/lib/linux/<arch>/libcust_opmaster_rt2.0.so, each kernel's dtype
# column as a shared object op_impl/ai_core/tbe/kernel/<unit>/<opFile>/<opFile>_<column>.o that
# registers its entry when loaded (kernel and op_host apart, as on the NPU, so a tiling header's
# host functions are defined once in each), the aclnn API in op_api/; the `package` target packs
# the vendor folder into <INSTALL_PATH>/custom_opp_<os>_<arch>.run (makeself.cmake).
# What is not provided says so and stops: packages of TYPE SHARED or STATIC, DYNAMIC parameters
# (op_build refuses them), NZ and other non-ND kernels.
include_guard(GLOBAL)

if(NOT DEFINED ENV{ASCEND_HOME_PATH})
  message(FATAL_ERROR "find_package(ASC): ASCEND_HOME_PATH is not set; source "
                      "<toolkit>/set_env.sh first")
endif()
get_filename_component(_asc_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
find_package(asccore REQUIRED PATHS ${_asc_dir}/../asccore NO_DEFAULT_PATH)
include(${_asc_dir}/func.cmake)  # its ASC_CTYPE_DT_* and ASC_GECODE_DT_* tables
set(ASC_MAKESELF ${_asc_dir}/makeself.cmake)
set(ASC_FOUND TRUE)
# The kernels and op_host go into shared libraries.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

set(ASCEND_AUTOGEN_PATH ${CMAKE_BINARY_DIR}/autogen)
file(MAKE_DIRECTORY ${ASCEND_AUTOGEN_PATH})
if(NOT vendor_name)
  set(vendor_name customize)
endif()

# The chip the aclnn API tiles for, from the preset's compute unit.
set(_asc_soc_ascend910b Ascend910B1)
set(_asc_soc_ascend310b Ascend310B1)
set(_asc_soc_ascend310p Ascend310P3)
set(_asc_soc_ascend910 Ascend910A)
set(ASC_SOC_VERSION "${_asc_soc_${ASCEND_COMPUTE_UNIT}}")
if(ASCEND_COMPUTE_UNIT AND NOT ASC_SOC_VERSION)
  message(STATUS "ASCEND_COMPUTE_UNIT ${ASCEND_COMPUTE_UNIT}: no chip of that unit in asc-tools' "
                 "platform table; the aclnn API tiles for Ascend910B1")
endif()

# ge dtype names of the ops-info file -> DT_ names of func.cmake.
set(_asc_dt_float16 DT_FLOAT16)
set(_asc_dt_float DT_FLOAT)
set(_asc_dt_float32 DT_FLOAT)
set(_asc_dt_bfloat16 DT_BF16)
set(_asc_dt_int8 DT_INT8)
set(_asc_dt_uint8 DT_UINT8)
set(_asc_dt_int16 DT_INT16)
set(_asc_dt_uint16 DT_UINT16)
set(_asc_dt_int32 DT_INT32)
set(_asc_dt_uint32 DT_UINT32)
set(_asc_dt_int64 DT_INT64)
set(_asc_dt_uint64 DT_UINT64)
set(_asc_dt_bool DT_BOOL)
set(_asc_dt_double DT_DOUBLE)

# npu_op_package(<vendor> TYPE RUN [CONFIG <key> <value>...]): the package and its targets
#   `binary` (the kernels) and `package` (the .run).
function(npu_op_package name)
  cmake_parse_arguments(P "" "TYPE" "CONFIG" ${ARGN})
  string(TOUPPER "${P_TYPE}" type)
  if(NOT type STREQUAL "RUN")
    message(FATAL_ERROR "npu_op_package(${name} TYPE ${P_TYPE}): asc-tools makes RUN packages "
                        "(custom_opp_<os>_<arch>.run) only")
  endif()
  set(install ${CMAKE_BINARY_DIR})
  set(vendor ${name})
  list(LENGTH P_CONFIG n)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE 0 ${last} 2)
      math(EXPR j "${i} + 1")
      list(GET P_CONFIG ${i} key)
      list(GET P_CONFIG ${j} value)
      if(key STREQUAL "INSTALL_PATH")
        set(install ${value})
      elseif(key STREQUAL "VENDOR_NAME")
        set(vendor ${value})
      elseif(key MATCHES "^ENABLE_(SOURCE|BINARY)_PACKAGE$")
        set(${key} ${value} PARENT_SCOPE)
      else()
        message(FATAL_ERROR "npu_op_package(${name}): CONFIG ${key} is not provided by asc-tools "
                            "(INSTALL_PATH, VENDOR_NAME, ENABLE_SOURCE_PACKAGE and "
                            "ENABLE_BINARY_PACKAGE are)")
      endif()
    endforeach()
  endif()
  set(vendor_name ${vendor} PARENT_SCOPE)
  set(os linux)
  if(EXISTS /etc/os-release)
    file(STRINGS /etc/os-release id REGEX "^ID=")
    string(REGEX REPLACE "^ID=\"?([^\"]*)\"?$" "\\1" os "${id}")
  endif()
  add_custom_target(binary)
  add_custom_target(package
    COMMAND ${CMAKE_COMMAND} -DVENDOR=${vendor} -DSOURCE=${CMAKE_BINARY_DIR}/vendors
            -DOUTPUT=${install}/custom_opp_${os}_${CMAKE_SYSTEM_PROCESSOR}.run -P ${ASC_MAKESELF}
    VERBATIM)
endfunction()

# npu_op_code_gen(SRC <op_host sources> PACKAGE <vendor> OUT_DIR <dir>): builds op_host into a
#   library now, at configure time, and runs op_build on it: OUT_DIR gets aclnn_<op>.h/.cpp,
#   aic-<unit>-ops-info.ini and op_proto.h/.cc, which the project's CMakeLists glob next. The
#   operators, their kernel files and dtype columns are read from the ops-info file.
function(npu_op_code_gen)
  cmake_parse_arguments(G "" "PACKAGE;OUT_DIR" "SRC" ${ARGN})
  get_target_property(incs asccore::asccore INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(kincs asccore::ascendc INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(lib asccore::asccore LOCATION)
  set(flags "")
  foreach(d ${incs} ${kincs})
    list(APPEND flags -I${d})
  endforeach()
  set(ops_lib ${G_OUT_DIR}/libascend_all_ops.so)
  separate_arguments(user_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} ${user_flags} -std=c++17 -fPIC -shared -o ${ops_lib} ${G_SRC}
            ${flags} ${lib}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu_op_code_gen: op_host does not build:\n${err}")
  endif()
  get_filename_component(sdk "${asccore_DIR}/../../.." ABSOLUTE)
  execute_process(COMMAND ${sdk}/tools/opbuild/op_build ${ops_lib} ${G_OUT_DIR}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npu_op_code_gen: op_build failed:\n${out}${err}")
  endif()
  file(GLOB infos ${G_OUT_DIR}/aic-*-ops-info.ini)
  list(SORT infos)
  list(GET infos 0 info)
  if(ASCEND_COMPUTE_UNIT AND EXISTS ${G_OUT_DIR}/aic-${ASCEND_COMPUTE_UNIT}-ops-info.ini)
    set(info ${G_OUT_DIR}/aic-${ASCEND_COMPUTE_UNIT}-ops-info.ini)
  endif()
  # Each operator: its type, kernel file (opFile), parameter names and dtype columns.
  file(STRINGS ${info} lines)
  set(ops "")
  foreach(line ${lines})
    if(line MATCHES "^\\[(.+)\\]$")
      set(op ${CMAKE_MATCH_1})
      list(APPEND ops ${op})
    elseif(line MATCHES "^(input|output)[0-9]+\\.name=(.*)$")
      list(APPEND params_${op} ${CMAKE_MATCH_2})
    elseif(line MATCHES "^(input|output)[0-9]+\\.dtype=(.*)$")
      list(APPEND dtypes_${op} "${CMAKE_MATCH_2}")
    elseif(line MATCHES "^opFile\\.value=(.*)$")
      set(file_${op} ${CMAKE_MATCH_1})
    endif()
  endforeach()
  foreach(op ${ops})
    set_property(GLOBAL PROPERTY ASC_OP_${op}_PARAMS "${params_${op}}")
    set_property(GLOBAL PROPERTY ASC_OP_${op}_DTYPES "${dtypes_${op}}")
    set_property(GLOBAL PROPERTY ASC_OP_${op}_FILE ${file_${op}})
  endforeach()
  set_property(GLOBAL PROPERTY ASC_NPU_OPS ${ops})
  set_property(GLOBAL PROPERTY ASC_NPU_OUT_DIR ${G_OUT_DIR})
endfunction()

# npu_op_library(<name> ACLNN|TILING|GRAPH <sources...>): ACLNN is the aclnn API
#   (vendors/<vendor>/op_api); TILING op_host's prototypes and tiling (op_impl/.../op_tiling);
#   GRAPH, GE's graph prototypes, is not needed by asc-tools and is left out of the build.
function(npu_op_library name type)
  get_filename_component(sdk "${asccore_DIR}/../../.." ABSOLUTE)
  if(type STREQUAL "ACLNN")
    get_property(out GLOBAL PROPERTY ASC_NPU_OUT_DIR)
    set(api ${CMAKE_BINARY_DIR}/vendors/${vendor_name}/op_api)
    file(GLOB headers ${out}/aclnn_*.h)
    file(COPY ${headers} DESTINATION ${api}/include)
    find_library(ASC_ASCENDCL ascendcl PATHS ${sdk}/runtime/lib64 NO_DEFAULT_PATH REQUIRED)
    add_library(${name} SHARED ${ARGN})
    target_include_directories(${name} PRIVATE ${out} ${sdk}/runtime/include)
    target_compile_definitions(${name} PRIVATE ASC_OPAPI_SOC="${ASC_SOC_VERSION}")
    target_link_libraries(${name} PRIVATE ${ASC_ASCENDCL})
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${api}/lib)
  elseif(type STREQUAL "TILING")
    add_library(${name} SHARED ${ARGN})
    target_link_libraries(${name} PRIVATE asccore::asccore asccore::ascendc)
    set_target_properties(${name} PROPERTIES OUTPUT_NAME cust_opmaster_rt2.0
      LIBRARY_OUTPUT_DIRECTORY
      ${CMAKE_BINARY_DIR}/vendors/${vendor_name}/op_impl/ai_core/tbe/op_tiling/lib/linux/${CMAKE_SYSTEM_PROCESSOR})
  elseif(type STREQUAL "GRAPH")
    add_library(${name} STATIC EXCLUDE_FROM_ALL ${ARGN})
    target_link_libraries(${name} PRIVATE asccore::asccore asccore::ascendc)
  else()
    message(FATAL_ERROR "npu_op_library(${name} ${type}): asc-tools builds ACLNN, TILING and "
                        "GRAPH libraries")
  endif()
endfunction()

# npu_op_kernel_sources(<target> [KERNEL_DIR <dir>] [OP_TYPE <op> KERNEL_FILE <file>]): where
#   the kernels are (by default <dir>/<opFile>.cpp of each operator).
function(npu_op_kernel_sources target)
  cmake_parse_arguments(K "" "KERNEL_DIR;KERNEL_FILE;OP_TYPE" "COMPUTE_UNIT" ${ARGN})
  if(K_OP_TYPE AND K_KERNEL_FILE)
    get_filename_component(f ${K_KERNEL_FILE} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    set_property(GLOBAL PROPERTY ASC_OP_${K_OP_TYPE}_KERNEL ${f})
  endif()
  if(K_KERNEL_DIR)
    get_filename_component(d ${K_KERNEL_DIR} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    set_property(GLOBAL PROPERTY ASC_NPU_KERNEL_DIR ${d})
  endif()
endfunction()

# npu_op_kernel_library(<target> SRC_BASE <dir> TILING_LIBRARY <tiling>): compiles each
#   operator's kernel once per dtype column of its prototype into a shared object of its own,
#   with the tiling header op_host registers for the operator and the DTYPE_<NAME> macros of the
#   column; a kernel that includes the Matmul API registers as mixed. `binary` builds them.
function(npu_op_kernel_library target)
  cmake_parse_arguments(K "" "SRC_BASE;TILING_LIBRARY" "" ${ARGN})
  get_property(ops GLOBAL PROPERTY ASC_NPU_OPS)
  get_property(dir GLOBAL PROPERTY ASC_NPU_KERNEL_DIR)
  if(NOT dir)
    set(dir ${K_SRC_BASE})
  endif()
  set(unit ${ASCEND_COMPUTE_UNIT})
  if(NOT unit)
    set(unit ascend910b)
  endif()
  set(kernels_dir ${CMAKE_BINARY_DIR}/vendors/${vendor_name}/op_impl/ai_core/tbe/kernel/${unit})
  file(GLOB host_headers ${PROJECT_SOURCE_DIR}/op_host/*.h)
  add_custom_target(${target})
  foreach(op ${ops})
    get_property(snake GLOBAL PROPERTY ASC_OP_${op}_FILE)
    get_property(params GLOBAL PROPERTY ASC_OP_${op}_PARAMS)
    get_property(dtypes GLOBAL PROPERTY ASC_OP_${op}_DTYPES)
    get_property(kernel GLOBAL PROPERTY ASC_OP_${op}_KERNEL)
    if(NOT kernel)
      set(kernel ${dir}/${snake}.cpp)
    endif()
    if(NOT EXISTS ${kernel})
      message(FATAL_ERROR "npu_op_kernel_library: operator ${op} has no kernel ${kernel}")
    endif()
    set(tiling "")
    foreach(h ${host_headers})
      file(STRINGS ${h} reg REGEX "REGISTER_TILING_DATA_CLASS\\( *${op} *,")
      if(reg)
        set(tiling ${h})
      endif()
    endforeach()
    if(NOT tiling)
      message(FATAL_ERROR "npu_op_kernel_library: no op_host/*.h registers a tiling structure "
                          "for ${op} (REGISTER_TILING_DATA_CLASS(${op}, ...))")
    endif()
    set(pre "")
    file(STRINGS ${kernel} uses_matmul REGEX "lib/matmul_intf.h" LIMIT_COUNT 1)
    if(uses_matmul)
      set(pre "#include \"lib/matmul_intf.h\"\n")
    endif()
    list(LENGTH params nparams)
    math(EXPR lastparam "${nparams} - 1")
    list(GET dtypes 0 first)
    string(REPLACE "," ";" first "${first}")
    list(LENGTH first ncols)
    math(EXPR lastcol "${ncols} - 1")
    foreach(c RANGE ${lastcol})
      set(defs ASCENDC_CPU_DEBUG=1)
      set(codes "")
      set(args "")
      foreach(i RANGE ${lastparam})
        list(GET params ${i} name)
        list(GET dtypes ${i} d)
        string(REPLACE "," ";" d "${d}")
        list(GET d ${c} t)
        set(dt ${_asc_dt_${t}})
        if(NOT dt)
          message(FATAL_ERROR "npu_op_kernel_library: ${op} has dtype ${t}, which asc-tools' "
                              "kernels do not take")
        endif()
        string(TOUPPER ${name} NAME)
        list(APPEND defs "DTYPE_${NAME}=${ASC_CTYPE_${dt}}")
        list(APPEND codes ${ASC_GECODE_${dt}})
        list(APPEND args "a[${i}]")
      endforeach()
      math(EXPR ws "${nparams}")
      math(EXPR tl "${nparams} + 1")
      list(APPEND args "a[${ws}]" "a[${tl}]")
      list(JOIN codes ", " codes)
      list(JOIN args ", " args)
      set(ns asc_kernel_${snake}_${c})
      set(wrapper ${CMAKE_BINARY_DIR}/gen/${snake}/${snake}_${c}.cpp)
      file(WRITE ${wrapper}.in
        "// Generated by asc-config.cmake: ${op}'s kernel for dtype column ${c}.\n"
        "#include \"kernel_operator.h\"\n${pre}#include \"${tiling}\"\n"
        "#include \"asc/ophost/ophost.h\"\n\n"
        "namespace ${ns} {\n#include \"${kernel}\"\n}\n\n"
        "#ifdef ASC_KERNEL_USES_CUBE\n#define ASC_ADD_ENTRY asc::ophost::addMixedKernelEntry\n"
        "#else\n#define ASC_ADD_ENTRY asc::ophost::addKernelEntry\n#endif\n"
        "namespace {\nconst int registered = [] {\n"
        "  ASC_ADD_ENTRY(\"${op}\", \"${snake}\", {${codes}},\n"
        "                [](uint8_t** a) { ${ns}::${snake}(${args}); });\n"
        "  return 0;\n}();\n}  // namespace\n")
      configure_file(${wrapper}.in ${wrapper} COPYONLY)
      set(lib ${snake}_kernel_${c})
      add_library(${lib} MODULE ${wrapper})
      target_compile_definitions(${lib} PRIVATE ${defs})
      get_filename_component(kdir ${kernel} DIRECTORY)
      target_include_directories(${lib} PRIVATE ${kdir} ${PROJECT_SOURCE_DIR}/op_host)
      target_link_libraries(${lib} PRIVATE asccore::asccore asccore::ascendc)
      set_target_properties(${lib} PROPERTIES PREFIX "" SUFFIX ".o" OUTPUT_NAME ${snake}_${c}
                            LIBRARY_OUTPUT_DIRECTORY ${kernels_dir}/${snake})
      add_dependencies(${target} ${lib})
    endforeach()
  endforeach()
  add_dependencies(${target} ${K_TILING_LIBRARY})
  add_dependencies(binary ${target})
endfunction()

# npu_op_package_add(<vendor> LIBRARY <targets...>): what `package` waits for.
function(npu_op_package_add pkg)
  cmake_parse_arguments(A "" "" "LIBRARY" ${ARGN})
  foreach(l ${A_LIBRARY})
    get_target_property(excluded ${l} EXCLUDE_FROM_ALL)
    if(NOT excluded)
      add_dependencies(package ${l})
    endif()
  endforeach()
endfunction()
