# TensorFlow ops around classification and detection backbones (tests/data/tf_case.py extra):
# LRN (TensorFlow's alpha per element, ONNX's per window), DepthToSpace and SpaceToDepth in NHWC,
# ArgMax with an int32 output, LogSoftmax, GatherV2, Tile, Greater and SelectV2. All seven
# outputs match numpy.
PY=/usr/bin/python3
case_py="$DATA/tf_case.py"
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
$PY "$case_py" extra . || fail "could not write the model"
protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto" <model.pbtxt >model.pb ||
  fail "protoc could not encode the model"
run atc --model=model.pb --framework=3 --soc_version=Ascend310 --precision_mode=force_fp32 --output=e
expect_exit 0
expect_file e.om
run msame --model e.om --input x.npy --output run
expect_exit 0
for i in 0 1 2 3 4 5 6; do
  $PY "$case_py" check run/*/e_output_$i.bin ref$i.npy || fail "output $i differs"
done
