# --check_equivalence=true runs the original and the optimised graph on random inputs and
# reports how close they are; a value other than true/false is E10005.
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=m --soc_version=Ascend310 --check_equivalence=true --log=info
expect_exit 0
expect_stderr_contains "check_equivalence: output 'output': cosine 1.0000"
run atc --model="$DATA/golden/zoo.onnx" --framework=5 --output=m2 --soc_version=Ascend310 --check_equivalence=yes
expect_exit 255
expect_stdout_contains "E10005"
