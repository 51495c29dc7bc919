# atc --mode=1 writes each compute op in CANN's spelling (docs/om-format.md, "Op spellings"):
# CANN's op types and attribute names, ranks and encodings, compared with a golden file
# (tests/data/golden/cann_spellings.ops.json: each op's name, type and attributes, without
# asc-tools' own `_asc_*` ones and tensor descriptors). The IR's spelling beside them
# (`_asc_op_type`, `_asc_ir_*`) is what our reader uses: the OM runs.
PY=/usr/bin/python3
[ -x "$PY" ] || skip "needs /usr/bin/python3"
protoc --encode=onnx.ModelProto -I/usr/include/onnx /usr/include/onnx/onnx.proto \
  < "$DATA/cann_spellings.textproto" > m.onnx || fail "could not encode the model"
run atc --model=m.onnx --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run atc --mode=1 --om=m.om --json=m.json
expect_exit 0
cat > ops.py <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["graph"][0]
out = []
for op in g["op"]:
    if op["type"] in ("Data", "Const", "NetOutput"):
        continue
    attrs = {a["key"]: a["value"] for a in op.get("attr", []) if not a["key"].startswith("_")}
    ir = {a["key"]: a["value"] for a in op.get("attr", []) if a["key"] == "_asc_op_type"}
    out.append({"name": op["name"], "type": op["type"], "attr": attrs,
                "ir_type": ir.get("_asc_op_type", {}).get("s")})
print(json.dumps(out, indent=1, sort_keys=True))
PY
run $PY ops.py m.json
expect_exit 0
diff -u "$DATA/golden/cann_spellings.ops.json" "$STDOUT" > diff.txt ||
  fail "the ops differ from the golden file: $(head -40 diff.txt)"
run msame --model m.om --output out --random_input 1
expect_exit 0
expect_stdout_contains "Execute sample success"

# CANN's input-form parameters: ClipByValue's bounds and TopKV2's k are Const inputs of their own
# (marked _asc_cann_only; the op's _asc_op_inputs says how many inputs are the IR's), and the OM
# still runs, in fp32 and fp16.
cat <<'TXT' | protoc --encode=onnx.ModelProto -I/usr/include/onnx /usr/include/onnx/onnx.proto > ct.onnx
ir_version: 8 opset_import { domain: "" version: 13 } graph { name: "ct"
  node { op_type: "Clip" name: "clip" input: "x" input: "lo" input: "hi" output: "c" }
  node { op_type: "TopK" name: "topk" input: "c" input: "k" output: "y" output: "i" }
  initializer { name: "lo" data_type: 1 float_data: -0.5 }
  initializer { name: "hi" data_type: 1 float_data: 0.5 }
  initializer { name: "k" data_type: 7 dims: 1 int64_data: 3 }
  input { name: "x" type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } dim { dim_value: 6 } } } } }
  output { name: "y" type { tensor_type { elem_type: 1 } } }
  output { name: "i" type { tensor_type { elem_type: 7 } } } }
TXT
cat > inputs.py <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["graph"][0]
for op in g["op"]:
    if op["type"] in ("ClipByValue", "TopKV2"):
        print(op["type"], " ".join(op["input"]))
PY
for p in force_fp32 force_fp16; do
  run atc --model=ct.onnx --framework=5 --output=ct --soc_version=Ascend310 --precision_mode=$p
  expect_exit 0
  run atc --mode=1 --om=ct.om --json=ct.json
  expect_exit 0
  run $PY inputs.py ct.json
  expect_stdout_contains "ClipByValue "
  expect_stdout_contains " clip/clip_value_min:0 clip/clip_value_max:0"
  expect_stdout_line "TopKV2 clip:0 topk/k:0"
  run msame --model ct.om --output out_$p --random_input 3
  expect_exit 0
  expect_stdout_contains "Execute sample success"
done
