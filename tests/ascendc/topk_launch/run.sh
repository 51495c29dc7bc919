#!/bin/bash
# run.sh -r cpu -v <soc>: builds the project against the CANN package (ASCEND_INSTALL_PATH, else
# ASCEND_HOME_PATH, else the default install), makes the data, runs, and checks the result.
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
cd "$CURRENT_DIR" || exit 1
BUILD_TYPE="Debug"
SHORT=r:,v:,
LONG=run-mode:,soc-version:,
OPTS=$(getopt -a --options $SHORT --longoptions $LONG -- "$@") || exit 1
eval set -- "$OPTS"
while :; do
  case "$1" in
    -r | --run-mode) RUN_MODE="$2"; shift 2 ;;
    -v | --soc-version) SOC_VERSION="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "[ERROR] Unexpected option: $1"; exit 1 ;;
  esac
done
if [ "$RUN_MODE" != cpu ]; then
  echo "[ERROR] RUN_MODE must be cpu for this project"
  exit 1
fi
if [ -n "$ASCEND_INSTALL_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_INSTALL_PATH
elif [ -n "$ASCEND_HOME_PATH" ]; then
  _ASCEND_INSTALL_PATH=$ASCEND_HOME_PATH
else
  _ASCEND_INSTALL_PATH=/usr/local/Ascend/ascend-toolkit/latest
fi
source "$_ASCEND_INSTALL_PATH/bin/setenv.bash"
set -e
rm -rf build out input output
mkdir -p build
cmake -B build -DRUN_MODE="$RUN_MODE" -DSOC_VERSION="$SOC_VERSION" -DCMAKE_BUILD_TYPE=$BUILD_TYPE \
  -DCMAKE_INSTALL_PREFIX="$CURRENT_DIR/out" -DASCEND_CANN_PACKAGE_PATH="$_ASCEND_INSTALL_PATH"
cmake --build build -j
cmake --install build
rm -f ascendc_kernels_bbit
cp ./out/bin/ascendc_kernels_bbit ./
python3 scripts/gen_data.py
export LD_LIBRARY_PATH=$(pwd)/out/lib:$(pwd)/out/lib64:$LD_LIBRARY_PATH
./ascendc_kernels_bbit "$@"
python3 scripts/verify_result.py
