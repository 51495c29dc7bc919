# The recommended spelling: msprof [options] <app> [args]; the seed's option spellings work too.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3
run msprof --output=prof --model_execution_on=on --aicpu_trace_on=on --data_sampling_on=on \
  --soc_version=Ascend910B1 --task-time --ai-core --aicpu=on msame --model m.om --loop 3
expect_exit 0
expect_stdout_contains "3 run(s)"
expect_file "$(ls prof/PROF_*/mindstudio_profiler_output/op_summary_*.csv)"
grep -q 'Ascend910B1' prof/PROF_*/mindstudio_profiler_output/README.txt || fail "estimate chip"
