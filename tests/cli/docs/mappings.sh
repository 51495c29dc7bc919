# Each Caffe layer is declared once (caffe_layers.def) and each TensorFlow op once (its line in
# the converter table): atc --list_caffe_layers and --list_tf_ops list them, the mapping tables
# of docs/caffe.md and docs/tensorflow.md are those rows (scripts/gen_docs.sh), atc --mode=3
# passes a net of each listed Caffe type, and a type not listed fails the pre-check with E11009
# (the importers' unit tests check --mode=0 and the IR ops against the same lists).
run atc --list_caffe_layers
expect_exit 0
expect_stdout_line "Caffe layer (--framework=0) | IR ops | notes"
expect_stdout_contains "PriorBox | "
tail -n +2 "$STDOUT" | awk -F' [|] ' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' > listed.md
# The rows under docs/caffe.md's layer table header, to the first line that is not a row.
awk '$0 == "| Caffe layer | IR ops | notes |" { on = 1; getline; next }
     on && /^\|/ { print; next }
     on { exit }' "$ROOT/docs/caffe.md" > documented.md
cmp -s listed.md documented.md ||
  fail "docs/caffe.md's layer table is not atc --list_caffe_layers (run scripts/gen_docs.sh): $(diff listed.md documented.md | head -5)"
CHECKS=$((CHECKS + 1))
types=$(tail -n +2 "$STDOUT" | sed 's/ |.*//')
[ "$(wc -l <<<"$types")" -ge 30 ] || fail "fewer than 30 Caffe layer types listed"
# --mode=3 knows every listed type (cause 1 would say TYPE_UNSUPPORTED).
for t in $types; do
  printf 'layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }\nlayer { name: "l" type: "%s" bottom: "data" top: "out" }\n' "$t" > "one_$t.prototxt"
  atc --mode=3 --framework=0 --model="one_$t.prototxt" --output="pc_$t" > "pc_$t.log" 2>&1
  grep -q "pre-check: 2 of 2 ops pass" "pc_$t.log" ||
    fail "atc --mode=3 does not pass listed layer type $t: $(cat "pc_$t.log")"
done
CHECKS=$((CHECKS + 1))
printf 'layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }\nlayer { name: "m" type: "Mish" bottom: "data" top: "out" }\n' > mish.prototxt
run atc --mode=3 --framework=0 --model=mish.prototxt --output=mish
expect_stdout_contains "pre-check: 1 of 2 ops pass"
CHECKS=$((CHECKS + 1))
grep -q "E11009" check_result.json || fail "check_result.json does not name E11009 for Mish"
# TensorFlow: the docs table is atc --list_tf_ops.
run atc --list_tf_ops
expect_exit 0
expect_stdout_line "TensorFlow op (--framework=3) | IR ops | notes"
expect_stdout_contains "Conv2D | Conv | "
tail -n +2 "$STDOUT" | awk -F' [|] ' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' > tf_listed.md
awk '$0 == "| TensorFlow op | IR ops | notes |" { on = 1; getline; next }
     on && /^\|/ { print; next }
     on { exit }' "$ROOT/docs/tensorflow.md" > tf_documented.md
CHECKS=$((CHECKS + 1))
cmp -s tf_listed.md tf_documented.md ||
  fail "docs/tensorflow.md's table is not atc --list_tf_ops (run scripts/gen_docs.sh): $(diff tf_listed.md tf_documented.md | head -5)"
