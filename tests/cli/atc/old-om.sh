# OMs written by asc-tools before the CANN op spellings (2026-11: op attributes under the IR's
# own names, no _asc_op_type; small weights stored only packed, their descriptors naming the
# tensor's own shape) still load, and run to the same bits as the same models converted now.
# tests/data/om-2026-11/ holds them (tiny_conv.onnx and cann_spellings.textproto, fp32, made by
# atc at commit 7a68aa9 on an AVX-512 CPU; on another CPU the packed weights are unpacked).
old=$DATA/om-2026-11
protoc --encode=onnx.ModelProto -I/usr/include/onnx /usr/include/onnx/onnx.proto \
  < "$DATA/cann_spellings.textproto" > cann_spellings.onnx || fail "could not encode the model"
for m in tiny_conv cann_spellings; do
  src="$DATA/$m.onnx"
  [ "$m" = cann_spellings ] && src=cann_spellings.onnx
  run atc --model="$src" --framework=5 --output=new_$m --soc_version=Ascend310 \
    --precision_mode=force_fp32
  expect_exit 0
  run atc --mode=6 --om="$old/$m.om"
  expect_exit 0
  expect_stdout_contains "checksum[verified]"
  run msame --model "$old/$m.om" --output out_old_$m --outfmt BIN --random_input 7
  expect_exit 0
  expect_stdout_contains "Execute sample success"
  # The same seeded random inputs in both runs: the same model gives the same bits.
  run msame --model new_$m.om --output out_new_$m --outfmt BIN --random_input 7
  expect_exit 0
  a=$(find out_old_$m -name '*_output_0.bin' | head -1)
  b=$(find out_new_$m -name '*_output_0.bin' | head -1)
  [ -s "$a" ] && [ -s "$b" ] || fail "$m: no outputs"
  cmp -s "$a" "$b" || fail "$m: the old OM's output differs from the new one's"
done
