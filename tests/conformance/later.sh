#!/usr/bin/env bash
# later.sh BIN WORK: the node tests of opsets 18 to 24 that make_later_tests.py writes (Debian's
# ONNX node tests stop at opset 17), through tests/conformance/run.sh like the official ones;
# every one of them must pass. Exit 77 (a skip) without python3-onnx or protoc to write them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$1 work=$2
/usr/bin/python3 -c "import onnx, numpy" 2>/dev/null && command -v protoc >/dev/null ||
  { echo "SKIP: needs python3-onnx, python3-numpy and protoc to write the tests"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
count=$(/usr/bin/python3 "$here/make_later_tests.py" "$work/data")
(cd "$work/data" && ls -d test_*) > "$work/expected.txt"
echo "$count node tests of opsets 18-24 written"
bash "$here/run.sh" --bin "$bin" --work "$work/run" --data "$work/data" --jobs 2 \
  --expected "$work/expected.txt"
