#!/bin/bash
# install.sh -v <soc> [-i <install path>]: generates the operator project from
# ReduceSumCustom.json (ReduceSumCustom and ScaleInplaceCustom) with msopgen, puts this folder's
# op_host and op_kernel files in it, builds it
# and installs its package: into the toolkit's opp (ASCEND_OPP_PATH), or under -i.
CURRENT_DIR=$(cd "$(dirname "$0")" && pwd)
SHORT=v:,i:,
LONG=soc-version:,install-path:,
OPTS=$(getopt -a --options $SHORT --longoptions $LONG -- "$@") || exit 1
eval set -- "$OPTS"
while :; do
  case "$1" in
    -v | --soc-version) SOC_VERSION="$2"; shift 2 ;;
    -i | --install-path) INSTALL_PATH="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "[ERROR] Unexpected option: $1"; exit 1 ;;
  esac
done
if [ -z "$SOC_VERSION" ]; then
  echo "[ERROR] give the chip: -v <soc>, e.g. -v Ascend910B1"
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

OP_NAME=ReduceSumCustom
cd "$CURRENT_DIR" || exit 1
rm -rf CustomOp
msopgen gen -i $OP_NAME.json -c ai_core-${SOC_VERSION} -lan cpp -out CustomOp || exit 1
rm -f CustomOp/op_host/*.cpp CustomOp/op_host/*.h CustomOp/op_kernel/*.cpp CustomOp/op_kernel/*.h
for op in $OP_NAME ScaleInplaceCustom; do cp -rf $op/op_host $op/op_kernel CustomOp/; done
sed -i "s:\"/usr/local/Ascend/latest\":\"$_ASCEND_INSTALL_PATH\":g" CustomOp/CMakePresets.json
(cd CustomOp && bash build.sh) || { echo "[ERROR] the operator project did not build"; exit 1; }
if [ -n "$INSTALL_PATH" ]; then
  bash CustomOp/build_out/custom_opp_*.run --install-path="$INSTALL_PATH" || exit 1
else
  bash CustomOp/build_out/custom_opp_*.run || exit 1
fi
