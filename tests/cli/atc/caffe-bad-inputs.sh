# Bad Caffe inputs get their error and leave no OM: a prototxt syntax error (E13018 with the
# line), a caffemodel that does not match the prototxt (missing layer weights, a wrong blob size,
# not a caffemodel), an unknown layer type (E2002 with E11009, naming layer and type), and a
# missing --weight (E10008).
PY=/usr/bin/python3
$PY "$DATA/caffe_case.py" model lenet . || fail "could not write the model"
common=(--framework=0 --soc_version=Ascend310)

# A syntax error on line 4.
sed '4s/bottom:/bottom/' lenet.prototxt > syntax.prototxt
run atc "${common[@]}" --model=syntax.prototxt --weight=lenet.caffemodel --output=syntax
expect_exit_nonzero
expect_stdout_contains "ATC run failed"
expect_stdout_contains "E13018"
expect_stdout_contains "line 4"
expect_no_file syntax.om

# Weights of another net: conv1 has no blobs there.
$PY "$DATA/caffe_case.py" model v1net . || fail "could not write the v1 model"
run atc "${common[@]}" --model=lenet.prototxt --weight=v1net.caffemodel --output=other
expect_exit_nonzero
expect_stdout_contains "E16001"
expect_stdout_contains "'conv1'"
expect_no_file other.om

# A layer the caffemodel has no weights for (renamed in the prototxt): named, with the file.
sed 's/name: "conv2"/name: "conv2b"/' lenet.prototxt > renamed.prototxt
run atc "${common[@]}" --model=renamed.prototxt --weight=lenet.caffemodel --output=renamed
expect_exit_nonzero
expect_stdout_contains "'conv2b' (Convolution): has no weights in lenet.caffemodel"
expect_stderr_contains "layer 'conv2' has weights but the prototxt has no such layer"
expect_no_file renamed.om

# A prototxt asking for more outputs than the caffemodel's weights hold.
sed 's/num_output: 64/num_output: 65/' lenet.prototxt > wide.prototxt
run atc "${common[@]}" --model=wide.prototxt --weight=lenet.caffemodel --output=wide
expect_exit_nonzero
expect_stdout_contains "E16001"
expect_stdout_contains "does not match"
expect_no_file wide.om

# Not a caffemodel at all, and a truncated one.
printf 'not a caffemodel' > junk.caffemodel
run atc "${common[@]}" --model=lenet.prototxt --weight=junk.caffemodel --output=junk
expect_exit_nonzero
expect_stdout_contains "E13005"
expect_no_file junk.om
head -c 1000 lenet.caffemodel > cut.caffemodel
run atc "${common[@]}" --model=lenet.prototxt --weight=cut.caffemodel --output=cut
expect_exit_nonzero
expect_no_file cut.om

# An unknown layer type.
sed 's/type: "ReLU"/type: "Swish3"/' lenet.prototxt > unknown.prototxt
run atc "${common[@]}" --model=unknown.prototxt --weight=lenet.caffemodel --output=unknown
expect_exit_nonzero
expect_stdout_contains "E2002"
expect_stdout_contains "E11009"
expect_stdout_contains "'relu1'"
expect_stdout_contains "'Swish3'"
expect_no_file unknown.om

# No --weight.
run atc "${common[@]}" --model=lenet.prototxt --output=noweight
expect_exit_nonzero
expect_stdout_contains "E10008"
expect_no_file noweight.om

# A wrong --input_shape name.
run atc "${common[@]}" --model=lenet.prototxt --weight=lenet.caffemodel --output=shape \
  --input_shape="image:1,1,28,28"
expect_exit_nonzero
expect_stdout_contains "E1001"
expect_no_file shape.om

# Dynamic dims are not supported for Caffe yet: E10055, no OM.
run atc "${common[@]}" --model=lenet.prototxt --weight=lenet.caffemodel --output=dyn \
  --input_shape="data:-1,1,28,28" --dynamic_batch_size="1,2"
expect_exit_nonzero
expect_stdout_contains "E10055"
expect_no_file dyn.om
