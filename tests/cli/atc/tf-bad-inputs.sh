# TensorFlow models that cannot be converted: a truncated .pb and a file that is no GraphDef give
# E13005; an op with no mapping gives E2002 naming the node and its type; none leaves an OM.
proto="$ROOT/libasccore/src/proto/tf_graph.proto"
encode() { protoc --encode=tensorflow.GraphDef -I"$(dirname "$proto")" "$proto"; }
/usr/bin/python3 "$DATA/tf_case.py" mobilenet . || fail "could not write the model"
encode <model.pbtxt >model.pb || fail "protoc could not encode the model"
head -c 4000 model.pb >truncated.pb
run atc --model=truncated.pb --framework=3 --output=t --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "ATC run failed"
expect_stdout_contains "E13005"
expect_stdout_contains "truncated.pb"
expect_no_file t.om
run atc --model="$DATA/tiny_conv.onnx" --framework=3 --output=o --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E13005"
expect_no_file o.om
cat >unknown.pbtxt <<'PB'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 1 } dim { size: 4 } } } } }
node { name: "fft" op: "FFT" input: "x" attr { key: "Tcomplex" value { type: DT_COMPLEX64 } } }
PB
encode <unknown.pbtxt >unknown.pb || fail "protoc could not encode the model"
run atc --model=unknown.pb --framework=3 --output=u --soc_version=Ascend310
expect_exit 255
expect_stdout_contains "E2002"
expect_stdout_contains "'FFT'"
expect_stdout_contains "'fft'"
expect_no_file u.om
