# TensorScatter-24 (issue 31): a key/value cache [2, 2, 5, 3] takes an update [2, 2, 2, 3] along
# the sequence axis (-2) at per-batch write_indices, linear and circular (wrapping past the
# end), and a [2, 6, 4] int64 cache along axis 1 with no write_indices (row 0); each output
# matches a numpy loop over the ONNX definition, bit for bit. A linear write that runs past the
# cache fails the run naming the batch; axis 0 (the batch) is refused with no OM.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
proto=/usr/include/onnx
model() {  # model NAME ELEM PAST_DIMS UPDATE_DIMS ATTRS [WITH_INDICES]
  local dims_p dims_u idx_in="" idx_decl=""
  dims_p=$(for d in $3; do printf 'dim { dim_value: %s } ' "$d"; done)
  dims_u=$(for d in $4; do printf 'dim { dim_value: %s } ' "$d"; done)
  if [ -n "${6:-}" ]; then
    idx_in='input: "w"'
    idx_decl='input { name: "w" type { tensor_type { elem_type: 7 shape { dim { dim_value: 2 } } } } }'
  fi
  printf 'ir_version: 10 opset_import { domain: "" version: 24 } graph { name: "%s"
  node { op_type: "TensorScatter" name: "ts" input: "past" input: "upd" %s output: "y" %s }
  input { name: "past" type { tensor_type { elem_type: %s shape { %s } } } }
  input { name: "upd" type { tensor_type { elem_type: %s shape { %s } } } } %s
  output { name: "y" type { tensor_type { elem_type: %s } } } }' "$1" "$idx_in" "$5" "$2" \
    "$dims_p" "$2" "$dims_u" "$idx_decl" "$2" |
    protoc --encode=onnx.ModelProto -I$proto $proto/onnx.proto > "$1.onnx"
}
model lin 1 "2 2 5 3" "2 2 2 3" "" w
model circ 1 "2 2 5 3" "2 2 2 3" 'attribute { name: "mode" type: STRING s: "circular" }' w
model ax1 7 "2 6 4" "2 3 4" 'attribute { name: "axis" type: INT i: 1 }'
model ax0 1 "2 6 4" "2 6 4" 'attribute { name: "axis" type: INT i: 0 }'
$PY - <<'PY' || fail "could not write the data"
import numpy as np
rng = np.random.default_rng(24)

def scatter(past, upd, idx, axis, circular):
    out = past.copy()
    axis %= past.ndim
    for pre in np.ndindex(past.shape[:axis]):
        for s in range(upd.shape[axis]):
            at = idx[pre[0]] + s
            out[pre + ((at % past.shape[axis]) if circular else at,)] = upd[pre + (s,)]
    return out

past = rng.standard_normal((2, 2, 5, 3)).astype(np.float32)
upd = rng.standard_normal((2, 2, 2, 3)).astype(np.float32)
np.save("past.npy", past); np.save("upd.npy", upd)
np.save("w_lin.npy", np.array([3, 0], np.int64)); np.save("w_circ.npy", np.array([4, 2], np.int64))
np.save("w_bad.npy", np.array([0, 4], np.int64))
scatter(past, upd, [3, 0], -2, False).tofile("want_lin.bin")
scatter(past, upd, [4, 2], -2, True).tofile("want_circ.bin")
p64 = rng.integers(-2**62, 2**62, (2, 6, 4), dtype=np.int64)
u64 = rng.integers(-2**62, 2**62, (2, 3, 4), dtype=np.int64)
np.save("p64.npy", p64); np.save("u64.npy", u64)
scatter(p64, u64, [0, 0], 1, False).tofile("want_ax1.bin")
PY
for m in lin circ ax1; do
  run atc --model=$m.onnx --framework=5 --output=$m --soc_version=Ascend310P3
  expect_exit 0
done
run msame --model lin.om --input past.npy,upd.npy,w_lin.npy --output out_lin
expect_exit 0
expect_msame_bytes want_lin.bin out_lin lin_output_0.bin
run msame --model circ.om --input past.npy,upd.npy,w_circ.npy --output out_circ
expect_exit 0
expect_msame_bytes want_circ.bin out_circ circ_output_0.bin
run msame --model ax1.om --input p64.npy,u64.npy --output out_ax1
expect_exit 0
expect_msame_bytes want_ax1.bin out_ax1 ax1_output_0.bin
run msame --model lin.om --input past.npy,upd.npy,w_bad.npy --output out_bad
expect_exit_nonzero
expect_stdout_contains "write_indices[1] = 4 with 2 rows to write does not fit the cache's 5 rows"
run atc --model=ax0.onnx --framework=5 --output=ax0 --soc_version=Ascend310P3
expect_exit 255
expect_stdout_contains "node 'ts'"
expect_stdout_contains "other than the batch dim"
expect_no_file ax0.om
