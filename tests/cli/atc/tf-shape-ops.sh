# TensorFlow shape and data-movement ops (tests/data/tf_case.py shapes): a Shape -> StridedSlice
# -> Pack -> Reshape chain that folds at conversion, StridedSlice masks (ellipsis, new axis,
# shrink, negative stride), Conv2DBackpropInput, MaxPool, ResizeBilinear (half-pixel),
# ResizeNearestNeighbor, MirrorPad (REFLECT and SYMMETRIC), Slice, Split, ConcatV2, Transpose,
# BatchMatMulV2, reductions, ExpandDims, Squeeze, PadV2. The placeholder's batch is unknown (-1):
# --input_shape gives it; without it atc fails with E1001 and writes no OM, and -1 in it (a
# dynamic batch) is E10055. All seven outputs match numpy.
PY=/usr/bin/python3
case_py="$DATA/tf_case.py"
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
$PY "$case_py" shapes . || fail "could not write the model"
protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto" <model.pbtxt >model.pb ||
  fail "protoc could not encode the model"
common=(--model=model.pb --framework=3 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=nobatch
expect_exit 255
expect_stdout_contains "E1001"
expect_stdout_contains "--input_shape"
expect_no_file nobatch.om
run atc "${common[@]}" --output=dyn --input_shape="x:-1,6,8,4" --dynamic_batch_size="1,2"
expect_exit 255
expect_stdout_contains "E10055"
expect_no_file dyn.om
run atc "${common[@]}" --output=s --input_shape="x:2,6,8,4"
expect_exit 0
expect_file s.om
run atc --mode=6 --om=s.om
expect_stdout_contains "outputs[out_flat:0:float32:[2,192]; out_slice1:0:float32:[2,2,8,4]; "
run msame --model s.om --input x.npy --output run
expect_exit 0
for i in 0 1 2 3 4 5 6; do
  $PY "$case_py" check run/*/s_output_$i.bin ref$i.npy || fail "output $i differs"
done
