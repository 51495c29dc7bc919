# atc --external_weight: 1 writes each weight to its own file under weight/ beside the OM, 2 all
# of them to one file; the OM holds FileConstant ops and stays small, msame maps the files and
# gives exactly the outputs of the OM with the weights inside. A missing or short weight file is
# an error naming it; an unknown value is refused.
MODEL="$ROOT/models/resnet_mini.onnx"
common=(--model="$MODEL" --framework=5 --soc_version=Ascend310 --precision_mode=force_fp32)
run atc "${common[@]}" --output=inside
expect_exit 0
run atc "${common[@]}" --output=each --external_weight=1
expect_exit 0
run atc "${common[@]}" --output=one --external_weight=2
expect_exit 0
[ "$(stat -c %s each.om)" -lt 100000 ] || fail "each.om holds its weights ($(stat -c %s each.om) bytes)"
[ "$(stat -c %s one.om)" -lt 100000 ] || fail "one.om holds its weights"
[ "$(find weight -name 'each.*.bin' | wc -l)" -gt 10 ] || fail "no per-weight files"
expect_file weight/one.bin
expect_no_temp_files weight
run atc --mode=1 --om=each.om --json=each.json
expect_exit 0
grep -q '"type": "FileConstant"' each.json || fail "no FileConstant op in the JSON"
grep -q '"s": "weight/each.0.bin"' each.json || fail "no location attribute in the JSON"
for m in inside each one; do
  run msame --model "$m.om" --random_input 5 --output "o_$m"
  expect_exit 0
done
cmp o_inside/*/inside_output_0.bin o_each/*/each_output_0.bin || fail "--external_weight=1 differs"
cmp o_inside/*/inside_output_0.bin o_one/*/one_output_0.bin || fail "--external_weight=2 differs"
# A weight file gone or cut short: the load fails naming it.
mv weight/each.3.bin moved.bin
run msame --model each.om --random_input 5
expect_exit 1
expect_stdout_contains "E10041"
expect_stdout_contains "weight/each.3.bin"
head -c $(($(stat -c %s moved.bin) / 2)) moved.bin > weight/each.3.bin
run msame --model each.om --random_input 5
expect_exit 1
expect_stdout_contains "lies outside weight/each.3.bin"
run atc "${common[@]}" --output=bad --external_weight=3
expect_exit_nonzero
expect_stdout_contains "--external_weight"
expect_no_file bad.om
# The option and the dynamic-shape ones are in atc's help.
run atc --help
expect_stdout_contains "--external_weight"
expect_stdout_contains "--dynamic_batch_size"
expect_stdout_contains "--input_shape_range"
