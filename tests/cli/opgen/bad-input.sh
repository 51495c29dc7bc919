# opgen refuses bad options and op JSON with msopgen's exit codes (11 framework, 12 output path,
# 13 op info file, 14 compute unit, 15 mode, 16 op definition, 17 parameter, 101 project path),
# a message naming the op and the field, and nothing written. Paths never leave -out: a symbolic
# link inside the project is not followed. -m 1 adds operators to a project and refuses one it
# has; an existing project is never overwritten unless --force is given.
good='[{"op": "AddCustom",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
                 {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}],
  "output_desc": [{"name": "z", "param_type": "required", "format": ["ND"], "type": ["float"]}]}]'
echo "$good" > good.json
gen=(opgen gen -c ai_core-ascend310p -lan cpp -f onnx)

run opgen
expect_exit 17
expect_stdout_contains "usage: opgen {gen,compile}"
run opgen frobnicate
expect_exit 17
expect_stdout_contains "invalid choice: 'frobnicate'"
run opgen gen -i good.json -lan cpp -out p
expect_exit 17
expect_stdout_contains "required: --compute_unit"
run opgen gen -i good.json -c ai_core-ascend310p -lan cpp -out p --bogus
expect_exit 17
expect_stdout_contains "unrecognized argument: --bogus"
run opgen gen -i good.json -c ai_core-ascend310p -out p
expect_exit 17
expect_stdout_contains "-lan py"
run "${gen[@]}" -i good.json -out p -f mindspore
expect_exit 11
run "${gen[@]}" -i good.json -out p -f keras
expect_exit 11
expect_stdout_contains "-f 'keras'"
run opgen gen -i good.json -c aicpu -lan cpp -out p
expect_exit 14
expect_stdout_contains "AI CPU"
run opgen gen -i good.json -c ai_core-foo -lan cpp -out p
expect_exit 14
run opgen gen -i good.json -c ai_core-ascend999x -lan cpp -out p
expect_exit 14
expect_stdout_contains "Ascend310P3"
run "${gen[@]}" -i good.json -out p -m 2
expect_exit 15
run "${gen[@]}" -i missing.json -out p
expect_exit 13
run "${gen[@]}" -i good.xlsx -out p
expect_exit 13
echo '[{"op": ' > broken.json
run "${gen[@]}" -i broken.json -out p
expect_exit 13
expect_stdout_contains "broken.json"
echo '{"op": "AddCustom"}' > object.json
run "${gen[@]}" -i object.json -out p
expect_exit 13

# Op definitions: each error names the op and the field.
bad() {  # bad NAME JSON EXPECTED_TEXT
  echo "$2" > "$1.json"
  run "${gen[@]}" -i "$1.json" -out p
  expect_exit 16
  expect_stdout_contains "$3"
}
bad lower '[{"op": "addCustom", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "UpperCamelCase"
bad columns '[{"op": "AddCustom", "input_desc": [{"name": "x", "type": ["float", "fp16"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "op 'AddCustom': 'z' lists 1 types, 'x' lists 2"
bad dtype '[{"op": "AddCustom", "input_desc": [{"name": "x", "type": ["complex64"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "input_desc[0] ('x').type: 'complex64'"
bad escape '[{"op": "AddCustom", "input_desc": [{"name": "../x", "type": ["float"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "input_desc[0].name must be an identifier"
bad slash '[{"op": "../../Evil", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "UpperCamelCase"
bad dynamic '[{"op": "AddCustom", "input_desc": [{"name": "x", "param_type": "dynamic", "type": ["float"]}], "output_desc": [{"name": "z", "param_type": "dynamic", "type": ["float"]}]}]' "output_desc[0] ('z').param_type 'dynamic' (a list of outputs) is not supported"
bad optional '[{"op": "AddCustom", "input_desc": [{"name": "x", "param_type": "optional", "type": ["float"]}], "output_desc": [{"name": "z", "type": ["float"]}]}]' "op 'AddCustom': every input is optional"
bad attr '[{"op": "AddCustom", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "z", "type": ["float"]}], "attr": [{"name": "alpha", "param_type": "optional", "type": "float", "default_value": "abc"}]}]' "attr[0] ('alpha').default_value does not fit type float"
bad twice '[{"op": "AddCustom", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "X", "type": ["float"]}]}]' "the name 'X' is used twice"
bad noinput '[{"op": "AddCustom", "output_desc": [{"name": "z", "type": ["float"]}]}]' "input_desc must be a non-empty list"
expect_no_file p

# A good project; then an existing project is not overwritten.
run "${gen[@]}" -i good.json -out p
expect_exit 0
expect_file p/op_kernel/add_custom.cpp
echo "// my kernel" > p/op_kernel/add_custom.cpp
run "${gen[@]}" -i good.json -out p
expect_exit 12
expect_stdout_contains "is not empty"
grep -q "my kernel" p/op_kernel/add_custom.cpp || fail "an existing project was overwritten"

# -m 1: refuses an op the project has, adds a new one to the lists.
run "${gen[@]}" -i good.json -out p -m 1
expect_exit 16
expect_stdout_contains "has operator AddCustom already"
sed 's/AddCustom/MulCustom/' good.json > mul.json
run "${gen[@]}" -i mul.json -out p -m 1
expect_exit 0
expect_stdout_contains "added 1 operator(s)"
expect_file p/op_kernel/mul_custom.cpp
grep -q "asc_add_op_kernel(add_custom " p/op_kernel/CMakeLists.txt || fail "-m 1 lost an operator"
grep -q "asc_add_op_kernel(mul_custom " p/op_kernel/CMakeLists.txt || fail "-m 1 did not add the operator"
grep -q "my kernel" p/op_kernel/add_custom.cpp || fail "-m 1 overwrote an operator's kernel"
run "${gen[@]}" -i mul.json -out notaproject -m 1
expect_exit 12
expect_no_file notaproject

# A symbolic link inside the project is not followed, even with --force.
mkdir -p outside q
ln -s "$PWD/outside" q/op_host
run "${gen[@]}" -i good.json -out q --force
expect_exit 12
expect_stdout_contains "symbolic link"
[ -z "$(ls outside)" ] || fail "opgen wrote through a symbolic link: $(ls outside)"

# -op picks one op of the JSON; an op the JSON lacks is E16.
jq_two='[{"op": "OneCustom", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]},
         {"op": "TwoCustom", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]}]'
echo "$jq_two" > two.json
run "${gen[@]}" -i two.json -out picked -op TwoCustom
expect_exit 0
expect_stdout_contains "generated 1 operator(s) for Ascend310P1 in picked: TwoCustom"
expect_file picked/op_kernel/two_custom.cpp
expect_no_file picked/op_kernel/one_custom.cpp
run "${gen[@]}" -i two.json -out none -op ThreeCustom
expect_exit 16
expect_stdout_contains "-op ThreeCustom"
expect_no_file none

# compile: a folder that is no project.
run opgen compile -i nowhere
expect_exit 101
expect_stdout_contains "no executable build.sh"
run opgen --version
expect_exit 0
expect_stdout_contains "opgen (asc-tools)"
