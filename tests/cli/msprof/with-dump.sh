# Profiling and layer dumps together: msame --dump installs its own step observer, msprof's
# trace observer chains it, so both the dump files and the profile are complete.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --output plain --dump true --loop 2
expect_exit 0
run msprof --output=prof msame --model m.om --output out --dump true --loop 2
expect_exit 0
expect_stdout_contains "[INFO] layer dumps:"
expect_stdout_contains "1 process(es), 1 model session(s), 2 run(s)"
[ "$(find out/dump -type f | wc -l)" = "$(find plain/dump -type f | wc -l)" ] || fail "dump files differ in number under msprof"
[ "$(find out/dump -type f | wc -l)" -gt 0 ] || fail "no dump files"
