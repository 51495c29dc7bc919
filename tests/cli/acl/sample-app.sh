# An AscendCL application in the shape of Ascend's C++ samples (tests/acl/sample_app) builds with
# no edits against the installed prefix (source set_env.sh; DDK_PATH and NPU_HOST_LIB as the
# samples' READMEs set them) and gives msame's outputs bit for bit: on a static OM (loaded from
# the file and from memory, executed synchronously and on a stream), on a dynamic-batch OM at two
# of its batches, and on a static-AIPP OM; four threads executing one model at once each get the
# same bytes.
PY=/usr/bin/python3
build="$BIN/.."
run cmake --install "$build" --prefix "$PWD/prefix"
expect_exit 0
for f in set_env.sh runtime/include/acl/acl.h runtime/include/acl/acl_mdl.h runtime/include/acl/acl_rt.h \
  runtime/include/acl/acl_base.h runtime/lib64/libascendcl.so runtime/lib64/stub/libascendcl.so; do
  expect_file "prefix/$f"
done
cp -r "$ROOT/tests/acl/sample_app" app
rm -rf app/out
# shellcheck disable=SC1091
source prefix/set_env.sh
[ "$ASCEND_HOME_PATH" = "$PWD/prefix" ] || fail "set_env.sh set ASCEND_HOME_PATH=$ASCEND_HOME_PATH"
export DDK_PATH="$ASCEND_HOME_PATH" NPU_HOST_LIB="$ASCEND_HOME_PATH/runtime/lib64/stub"
# A sanitizer build's library needs its runtime first in the program that links it.
san=""
ldd prefix/runtime/lib64/libascendcl.so | grep -q libasan && san="-fsanitize=address,undefined"
run cmake -S app -B app/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$san"
expect_exit 0
expect_stdout_contains "env INC_PATH: $PWD/prefix"
run cmake --build app/build
expect_exit 0
app=app/out/main
expect_file $app


# A static model.
common=(--framework=5 --soc_version=Ascend310P3 --precision_mode=force_fp32)
run atc --model="$ROOT/models/resnet_mini.onnx" "${common[@]}" --output=static --input_shape="input:1,3,224,224"
expect_exit 0
$PY -c "
import numpy as np
rng = np.random.default_rng(5)
for b in (1, 4, 8):
    rng.standard_normal((b, 3, 224, 224)).astype(np.float32).tofile(f'x{b}.bin')
" || fail "numpy inputs"
run msame --model static.om --input x1.bin --output ms
expect_exit 0
for mode in "" "--mem" "--async"; do
  rm -rf o && mkdir o
  run $app static.om o --input x1.bin $mode
  expect_exit 0
  expect_stdout_contains "run mode host"
  expect_stdout_contains "input 0 input dtype 0 format 0 size 602112 dims 1 3 224 224"
  expect_stdout_contains "execute sample success"
  expect_msame_bytes o/output_0.bin ms static_output_0.bin
done

# Four threads on one model, each with its own datasets: all give the same bytes.
rm -rf o && mkdir o
run $app static.om o --input x1.bin --threads 4 --loop 3
expect_exit 0
for t in 1 2 3; do cmp o/output_0.bin "o/output_0_t$t.bin" || fail "thread $t's output differs"; done
expect_msame_bytes o/output_0.bin ms static_output_0.bin

# A dynamic-batch model: the description lists the batches and the profile input; each batch
# gives what msame --dymBatch gives.
run atc --model="$ROOT/models/resnet_mini.onnx" "${common[@]}" --output=dyn --input_shape="input:-1,3,224,224" \
  --dynamic_batch_size="1,4,8"
expect_exit 0
for b in 1 4; do
  rm -rf o && mkdir o
  run $app dyn.om o --input "x$b.bin" --batch $b
  expect_exit 0
  expect_stdout_contains "dynamic batch 1 4 8"
  expect_stdout_contains "input 0 input dtype 0 format 0 size 4816896 dims -1 3 224 224"
  expect_stdout_contains "input 1 ascend_mbatch_shape_data dtype 9"
  run msame --model dyn.om --dymBatch $b --input "x$b.bin" --output "md$b"
  expect_exit 0
  expect_msame_bytes o/output_0.bin "md$b" dyn_output_0.bin
done
# A batch the model was not compiled for is refused, naming the batches.
rm -rf o && mkdir o
run $app dyn.om o --input x1.bin --batch 3
expect_exit 1
expect_stderr_contains "aclmdlSetDynamicBatchSize"
expect_stderr_contains "1 4 8"

# Static AIPP: the raw image goes in as msame takes it.
$PY "$DATA/aipp_case.py" model m.textproto 224 || fail "aipp model"
proto=/usr/include/onnx/onnx.proto
protoc --encode=onnx.ModelProto -I"$(dirname $proto)" "$proto" < m.textproto > m.onnx || fail "protoc"
$PY "$DATA/aipp_case.py" rgb888 . 224 || fail "aipp image"
cat > aipp.cfg <<'CFG'
aipp_op {
  aipp_mode: static
  input_format: RGB888_U8
  src_image_size_w: 232
  src_image_size_h: 228
  crop: true
  load_start_pos_w: 6
  load_start_pos_h: 4
  crop_size_w: 224
  crop_size_h: 224
  mean_chn_0: 124
  var_reci_chn_0: 0.017125
}
CFG
run atc --model=m.onnx --framework=5 --soc_version=Ascend310 --precision_mode=force_fp32 --output=aipp \
  --insert_op_conf=aipp.cfg
expect_exit 0
run msame --model aipp.om --input image.bin --output ma
expect_exit 0
rm -rf o && mkdir o
run $app aipp.om o --input image.bin
expect_exit 0
expect_stdout_contains "input 0 x dtype 4"
expect_msame_bytes o/output_0.bin ma aipp_output_0.bin
