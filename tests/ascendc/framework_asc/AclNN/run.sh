#!/bin/bash
# run.sh: builds the application against the toolkit and the installed package (vendor
# rowsoftmax), and checks aclnnRowSoftmaxCustom on float32 and float16 rows against numpy.
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
_ASCEND_INSTALL_PATH=${ASCEND_HOME_PATH:-/usr/local/Ascend/ascend-toolkit/latest}
export DDK_PATH=$_ASCEND_INSTALL_PATH
export NPU_HOST_LIB=$_ASCEND_INSTALL_PATH/$(arch)-$(uname -s | tr '[:upper:]' '[:lower:]')/devlib
cd "$CURRENT_DIR" || exit 1
rm -rf build input output
mkdir -p build input output
(cd build && cmake ../src -DCMAKE_SKIP_RPATH=TRUE && make) || { echo "[ERROR] build failed"; exit 1; }
export LD_LIBRARY_PATH=$_ASCEND_INSTALL_PATH/opp/vendors/rowsoftmax/op_api/lib:$LD_LIBRARY_PATH
for case in "37 64 fp32" "20 128 fp16"; do
  set -- $case
  python3 scripts/gen_data.py "$@" || { echo "[ERROR] gen_data failed"; exit 1; }
  ./output/execute_row_softmax "$@" || { echo "[ERROR] the application failed"; exit 1; }
  python3 scripts/verify_result.py output/output_y.bin output/golden.bin "$3" || exit 1
done
