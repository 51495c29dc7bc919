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
