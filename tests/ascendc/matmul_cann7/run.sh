#!/bin/bash
# run.sh cpu: builds the CPU program and the tiling program against the toolkit
# (ASCEND_HOME_DIR, else the default install), makes the data and the tiling, runs the kernel
# and checks the result.
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR" || exit 1
RUN_MODE=$1
if [ "$RUN_MODE" != cpu ]; then
  echo "ERROR: RUN_MODE error, this project runs in cpu mode only"
  exit 1
fi
if [ -z "$ASCEND_HOME_DIR" ]; then
  export ASCEND_HOME_DIR=/usr/local/Ascend/ascend-toolkit/latest
fi
source "$ASCEND_HOME_DIR/bin/setenv.bash"
FILE_NAME=matmul_cann7
set -e
rm -rf build input output ${FILE_NAME}_cpu ${FILE_NAME}_tiling
python3 gen_data.py
cmake -B build -Dsmoke_testcase=$FILE_NAME -DASCEND_PRODUCT_TYPE=Ascend910B1 \
  -DASCEND_CORE_TYPE=AiCore -DASCEND_RUN_MODE=$RUN_MODE -DASCEND_CUSTOM_TILING=CUSTOM_TILING \
  -DASCEND_INSTALL_PATH="$ASCEND_HOME_DIR"
cmake --build build --target ${FILE_NAME}_${RUN_MODE} ${FILE_NAME}_tiling
./${FILE_NAME}_tiling
./${FILE_NAME}_${RUN_MODE}
echo "INFO: execute op on ${RUN_MODE} succeed!"
python3 verify_result.py output/output.bin output/golden.bin
