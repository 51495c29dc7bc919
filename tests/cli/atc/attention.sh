# Attention-23 (issue 31): multi-head, grouped-query with 3-D inputs and a causal mask, a bool mask
# with softcap, a key/value cache with a short float mask and the present outputs, the
# qk_matmul_output output in each of its four modes, and Attention-24's nonpad_kv_seqlen; and
# RotaryEmbedding-23, 4-D and 3-D (partial, interleaved, by position ids). Each is converted by
# atc and run by msame against a numpy formula of the ONNX definition
# (tests/testkit/make_attention.py). Attention before opset 23 is refused naming the node, with
# no OM.
PY=/usr/bin/python3
command -v protoc >/dev/null || skip "needs protoc"
$PY "$ROOT/tests/testkit/make_attention.py" /usr/include/onnx m || fail "could not write the models"
for case in mha4d gqa3d boolmask cache qk0 qk1 qk2 qk3 nonpad rot4d rot3d; do
  read -r -a files < m/$case.txt
  ins=() wants=()
  for f in "${files[@]}"; do
    case $f in *_in*) ins+=("m/$f") ;; *) wants+=("m/$f") ;; esac
  done
  run atc --model=m/$case.onnx --framework=5 --output=$case --soc_version=Ascend310P3 --precision_mode=force_fp32
  expect_exit 0
  run msame --model $case.om --input "$(IFS=,; echo "${ins[*]}")" --output out_$case
  expect_exit 0
  for i in "${!wants[@]}"; do
    expect_close_npy "$(ls out_$case/*/${case}_output_$i.bin)" "${wants[$i]}"
  done
done
run atc --model=m/old22.onnx --framework=5 --output=old22 --soc_version=Ascend310P3
expect_exit 255
expect_stdout_contains "operator 'Attention' (node 'attn'): asc-tools reads it from opset 23 on"
expect_no_file old22.om
# A nonpad_kv_seqlen beyond the keys fails the run, naming the batch and the count.
$PY -c "import numpy as np; np.save('bad_nonpad.npy', np.array([6, 5], np.int64))"
run msame --model nonpad.om --input m/nonpad_in0.npy,m/nonpad_in1.npy,m/nonpad_in2.npy,bad_nonpad.npy --output out_bad
expect_exit_nonzero
expect_stdout_contains "nonpad_kv_seqlen[0] = 6 lies outside the 5 keys"
