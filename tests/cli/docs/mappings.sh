# Each Caffe layer is declared once (caffe_layers.def) and each TensorFlow op once (its line in
# the converter table): atc --list_caffe_layers and --list_tf_ops list them, the mapping tables
# of docs/caffe.md and docs/tensorflow.md are those rows (scripts/gen_docs.sh), atc --mode=3
# passes a net of each listed Caffe type, and a type not listed fails the pre-check with E11009
# (the importers' unit tests check --mode=0 and the IR ops against the same lists).
# table_is_list OPTION TITLE DOC HEADER EXAMPLE: atc OPTION lists rows under TITLE, one of them
# starting with EXAMPLE, and they are the rows under HEADER in DOC (to its first non-row line).
table_is_list() {
  run atc "$1"
  expect_exit 0
  expect_stdout_line "$2"
  expect_stdout_contains "$5"
  tail -n +2 "$STDOUT" | awk -F' [|] ' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' > listed.md
  awk -v header="$4" '$0 == header { on = 1; getline; next }
       on && /^\|/ { print; next }
       on { exit }' "$ROOT/docs/$3" > documented.md
  CHECKS=$((CHECKS + 1))
  cmp -s listed.md documented.md ||
    fail "docs/$3's table is not atc $1 (run scripts/gen_docs.sh): $(diff listed.md documented.md | head -5)"
}
table_is_list --list_tf_ops "TensorFlow op (--framework=3) | IR ops | notes" tensorflow.md \
  "| TensorFlow op | IR ops | notes |" "Conv2D | Conv | "
table_is_list --list_caffe_layers "Caffe layer (--framework=0) | IR ops | notes" caffe.md \
  "| Caffe layer | IR ops | notes |" "PriorBox | "
types=$(tail -n +2 "$STDOUT" | sed 's/ |.*//')
CHECKS=$((CHECKS + 1))
[ "$(wc -l <<<"$types")" -ge 30 ] || fail "fewer than 30 Caffe layer types listed"
# --mode=3 knows every listed Caffe type (cause 1 would say TYPE_UNSUPPORTED).
net() {  # net TYPE FILE: an Input and one layer of TYPE on it
  printf 'layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }\nlayer { name: "l" type: "%s" bottom: "data" top: "out" }\n' "$1" > "$2"
}
for t in $types; do
  net "$t" "one_$t.prototxt"
  atc --mode=3 --framework=0 --model="one_$t.prototxt" --output="pc_$t" > "pc_$t.log" 2>&1
  grep -q "pre-check: 2 of 2 ops pass" "pc_$t.log" ||
    fail "atc --mode=3 does not pass listed layer type $t: $(cat "pc_$t.log")"
done
CHECKS=$((CHECKS + 1))
net Mish mish.prototxt
run atc --mode=3 --framework=0 --model=mish.prototxt --output=mish
expect_stdout_contains "pre-check: 1 of 2 ops pass"
CHECKS=$((CHECKS + 1))
grep -q "E11009" check_result.json || fail "check_result.json does not name E11009 for Mish"
