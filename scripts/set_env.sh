# set_env.sh: `source <prefix>/set_env.sh` sets up a shell the way CANN's toolkit set_env.sh does,
# for an asc-tools install prefix (docs/acl.md, "Layout"): ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME
# and ASCEND_OPP_PATH name the prefix, and PATH, LD_LIBRARY_PATH and PYTHONPATH reach its tools,
# libraries (libascendcl.so in runtime/lib64), ccec (compiler/ccec_compiler/bin) and the pyACL
# module (python/site-packages).
# The same file is installed as <prefix>/bin/setenv.bash, which Ascend C samples' run.sh source.
# Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set already, it bounds libgomp's idle spin
# (GOMP_SPINCOUNT=1000) for the AscendCL applications and pyACL scripts run from this shell, as
# msame does for itself (msame times the CPU's pause and spins about 200 us; a script cannot): with
# the default spin, processes that share the cores slow each other several times over
# (docs/runtime.md, "Threads on a busy machine").
_asc_prefix=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
[ "$(basename "$_asc_prefix")" = bin ] && _asc_prefix=$(dirname "$_asc_prefix")
export ASCEND_HOME_PATH="$_asc_prefix"
export ASCEND_TOOLKIT_HOME="$_asc_prefix"
export ASCEND_OPP_PATH="$_asc_prefix/opp"
export ASCEND_AICPU_PATH="$_asc_prefix"
export PATH="$_asc_prefix/bin:$_asc_prefix/compiler/ccec_compiler/bin${PATH:+:$PATH}"
_asc_libs="$_asc_prefix/runtime/lib64:$_asc_prefix/lib64:$_asc_prefix/lib"
export LD_LIBRARY_PATH="$_asc_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$_asc_prefix/python/site-packages${PYTHONPATH:+:$PYTHONPATH}"
[ -n "${OMP_WAIT_POLICY:-}${GOMP_SPINCOUNT:-}" ] || export GOMP_SPINCOUNT=1000
unset _asc_prefix _asc_libs
