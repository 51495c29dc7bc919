#!/bin/bash
# run.sh: makes the data, builds the application against the toolkit and the installed custom
# operator package (opp/vendors/customize), runs aclnnReduceSumCustom on two lengths (one tile
# per block, and several) and checks the results.
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
if [ -n "$ASCEND_INSTALL_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_INSTALL_PATH
elif [ -n "$ASCEND_HOME_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_HOME_PATH
else
  _ASCEND_INSTALL_PATH=/usr/local/Ascend/ascend-toolkit/latest
fi
source "$_ASCEND_INSTALL_PATH/bin/setenv.bash"
export DDK_PATH=$_ASCEND_INSTALL_PATH
export NPU_HOST_LIB=$_ASCEND_INSTALL_PATH/$(arch)-$(uname -s | tr '[:upper:]' '[:lower:]')/devlib

function main {
  cd "$CURRENT_DIR" || return 1
  rm -rf build input output
  mkdir -p build input output
  cd build || return 1
  cmake ../src -DCMAKE_SKIP_RPATH=TRUE || { echo "[ERROR]: Cmake failed!"; return 1; }
  make || { echo "[ERROR]: Make failed!"; return 1; }
  echo "[INFO]: Make success!"
  export LD_LIBRARY_PATH=$_ASCEND_INSTALL_PATH/opp/vendors/customize/op_api/lib:$LD_LIBRARY_PATH
  cd "$CURRENT_DIR" || return 1
  for n in 1000 100000; do
    python3 scripts/gen_data.py $n || { echo "[ERROR]: Generate input data failed!"; return 1; }
    rm -f output/output_y.bin
    ./output/execute_reduce_sum_op $n || { echo "[ERROR]: Acl executable run failed!"; return 1; }
    python3 scripts/verify_result.py output/output_y.bin output/golden.bin || return 1
  done
}
main
