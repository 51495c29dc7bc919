#!/bin/bash
# run.sh: makes the data, builds the application against the toolkit and the installed custom
# operator package (opp/vendors/customize), runs aclnnMatmulCustom and checks the result.
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
export NPU_HOST_LIB=$_ASCEND_INSTALL_PATH/lib64

cd "$CURRENT_DIR" || exit 1
rm -rf build input output
mkdir -p build input output
python3 scripts/gen_data.py || { echo "[ERROR]: Generate input data failed!"; exit 1; }
(cd build && cmake ../src -DCMAKE_SKIP_RPATH=TRUE && make) || { echo "[ERROR]: Build failed!"; exit 1; }
export LD_LIBRARY_PATH=$_ASCEND_INSTALL_PATH/opp/vendors/customize/op_api/lib:$LD_LIBRARY_PATH
./output/execute_matmul_op || { echo "[ERROR]: Acl executable run failed!"; exit 1; }
python3 scripts/verify_result.py output/output_c.bin output/golden.bin
