# Exporter-shaped transformer encoder layers at opsets 18, 20 and 23 (issue 31;
# tests/testkit/make_exporter_models.py): decomposed LayerNorm with ReduceMean axes as an input,
# the erf GELU and Split num_outputs at 18; LayerNormalization and Gelu ops at 20; Attention,
# RMSNormalization and Gelu tanh at 23. Each converts at fp32, the fusion passes fire on the
# new forms (LayerNorm, GELU, the attention scores' MatMul with its Transpose and scale), and
# msame matches a numpy formula of the layer.
PY=/usr/bin/python3
$PY -c "import onnx" 2>/dev/null || skip "needs python3-onnx (scripts/install-deps.sh --test installs it)"
$PY "$ROOT/tests/testkit/make_exporter_models.py" m || fail "could not write the models"
for o in 18 20 23; do
  run atc --model=m/t$o.onnx --framework=5 --output=t$o --soc_version=Ascend310P3 \
    --precision_mode=force_fp32 --log=info
  expect_exit 0
  cp "$STDERR" atc$o.log
  run grep -c "fuse-matmul-transpose-scale" atc$o.log
  [ $o -eq 23 ] || expect_stdout_line "1"
  run msame --model t$o.om --input m/x.npy --output out$o --outfmt BIN
  expect_exit 0
  want=m/want.npy
  [ $o -eq 23 ] && want=m/want23.npy
  expect_close_npy "$(ls out$o/*/t${o}_output_0.bin)" $want
done
run grep -c "fuse-layernorm" atc18.log
expect_stdout_line "2"
run grep -c "fuse-gelu" atc18.log
expect_stdout_line "1"
