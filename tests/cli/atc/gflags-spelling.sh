# gflags also accepts "--name value"; --h is help.
run atc --model "$DATA/tiny_conv.onnx" --framework 5 --output m --soc_version Ascend910B1
expect_exit 0
expect_file m.om
run atc --h
expect_exit 0
expect_stdout_contains "usage: atc"
expect_stdout_contains "--soc_version"
