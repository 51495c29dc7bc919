# A pyACL script in the shape of Ascend's Python samples (tests/acl/pyacl_app.py) runs with no
# edits after `source <prefix>/set_env.sh` and gives msame's outputs bit for bit: a static OM, a
# dynamic-batch OM at two batches, and a static-AIPP OM. The module's own checks
# (tests/acl/pyacl_smoke.py: names, (value, ret) returns, no-copy pointers, errors) pass against
# the installed module.
PY=/usr/bin/python3
build="$BIN/.."
ls "$build"/python/acl.*.so >/dev/null 2>&1 || skip "the pyACL module was not built (no python3-dev)"
# A sanitizer build's module needs the sanitizer runtime loaded before Python starts.
if ldd "$build"/python/acl.*.so | grep -q libasan; then
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
fi
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
ls prefix/python/site-packages/acl.*.so >/dev/null 2>&1 || fail "no acl module under prefix/python/site-packages"
# shellcheck disable=SC1091
source prefix/set_env.sh
run $PY -c "import acl, acl.rt, acl.mdl, acl.util; print(acl.__file__)"
expect_exit 0
expect_stdout_contains "$PWD/prefix/python/site-packages/acl."
run $PY "$ROOT/tests/acl/pyacl_smoke.py"
expect_exit 0
expect_stdout_contains "pyacl smoke: ok"

app="$ROOT/tests/acl/pyacl_app.py"
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
$PY -c "
import numpy as np
rng = np.random.default_rng(9)
for b in (1, 2):
    rng.standard_normal((b, 3, 224, 224)).astype(np.float32).tofile(f'x{b}.bin')
" || fail "numpy inputs"
run atc --model="$ROOT/models/resnet_mini.onnx" "${common[@]}" --output=static --input_shape="input:1,3,224,224"
expect_exit 0
run msame --model static.om --input x1.bin --output ms
expect_exit 0
rm -rf o && mkdir o
run $PY "$app" static.om o --input x1.bin --loop 2
expect_exit 0
expect_stdout_contains "run mode host"
expect_stdout_contains "input 0 input size 602112 dims [1, 3, 224, 224]"
expect_stdout_contains "execute sample success"
expect_msame_bytes o/output_0.bin ms static_output_0.bin

run atc --model="$ROOT/models/resnet_mini.onnx" "${common[@]}" --output=dyn --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="1,2"
expect_exit 0
for b in 1 2; do
  rm -rf o && mkdir o
  run $PY "$app" dyn.om o --input "x$b.bin" --batch $b
  expect_exit 0
  expect_stdout_contains "input 1 ascend_mbatch_shape_data size 8 dims [1]"
  run msame --model dyn.om --dymBatch $b --input "x$b.bin" --output "md$b"
  expect_exit 0
  expect_msame_bytes o/output_0.bin "md$b" dyn_output_0.bin
done
rm -rf o && mkdir o
run $PY "$app" dyn.om o --input x1.bin --batch 3
expect_exit 1
expect_stderr_contains "acl.mdl.set_dynamic_batch_size failed: 145013"

$PY "$DATA/aipp_case.py" model m.textproto 224 || fail "aipp model"
proto=/usr/include/onnx/onnx.proto
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx || fail "protoc"
$PY "$DATA/aipp_case.py" rgb888 . 224 || fail "aipp image"
printf 'aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n src_image_size_w: 232\n src_image_size_h: 228\n crop: true\n crop_size_w: 224\n crop_size_h: 224\n mean_chn_1: 100\n}\n' > aipp.cfg
run atc --model=m.onnx --framework=5 --soc_version=Ascend310 --precision_mode=force_fp32 --output=aipp \
  --insert_op_conf=aipp.cfg
expect_exit 0
run msame --model aipp.om --input image.bin --output ma
expect_exit 0
rm -rf o && mkdir o
run $PY "$app" aipp.om o --input image.bin
expect_exit 0
expect_msame_bytes o/output_0.bin ma aipp_output_0.bin
