# --fusion_switch_file turns single passes off; names of CANN fusions asc-tools lacks are
# reported and skipped; a malformed line is E10001. --list_passes names them all.
run atc --list_passes
expect_exit 0
expect_stdout_contains "fuse-conv-activation"
expect_stdout_contains "pipeline at O3 (default):"
printf '# keep Relu separate\nfuse-conv-activation:off\nConvBatchnormFusionPass:off\n' > switch.cfg
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --fusion_switch_file=switch.cfg
expect_exit 0
expect_stderr_contains "ConvBatchnormFusionPass"
run atc --mode=1 --om=m.om --json=m.json
grep -q '"type": "Relu"' m.json || fail "Relu was fused although its pass was off"
printf 'fuse-conv-activation=off\n' > bad.cfg
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=b --soc_version=Ascend310 --fusion_switch_file=bad.cfg
expect_exit 255
expect_stdout_contains "E10001"
expect_no_file b.om
# Every transformation is listed, precision and layout included, with its level.
run atc --list_passes
expect_stdout_contains "precision                    precision  all"
expect_stdout_contains "assign-layout                layout     O3+"
# --optimization_switch (the current atc's spelling): the same switches inline.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=s --soc_version=Ascend310 --optimization_switch="fuse-conv-activation:off;NoSuchPass:off"
expect_exit 0
expect_stderr_contains "NoSuchPass"
run atc --mode=1 --om=s.om --json=s.json
grep -q '"type": "Relu"' s.json || fail "Relu was fused although --optimization_switch turned its pass off"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=s2 --soc_version=Ascend310 --optimization_switch="fuse-conv-activation=off"
expect_exit 255
expect_stdout_contains "E10001"
expect_stdout_contains "--optimization_switch"
expect_no_file s2.om
