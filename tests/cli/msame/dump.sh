# msame --dump true: one Ascend dump file per executed op in the real layout
# <output>/dump/<YYYYMMDDhhmmss>/<device>/<model>/<model id>/<run>/<type>.<name>.<task>.<stream>.<16-digit us>;
# --dump_format npy writes {dump file}.output.{i}.npy; an .onnx model writes golden
# {node}.{output}.{timestamp}.npy files. Bad dump options are refused before anything runs.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --output out --dump true --loop 2
expect_exit 0
expect_stdout_contains "[INFO] dump data to out/dump/"
expect_stdout_contains "[INFO] layer dumps:"
runs=$(find out/dump -mindepth 5 -maxdepth 5 -type d | sort)
[ "$(echo "$runs" | wc -l)" -eq 2 ] || fail "expected run folders 0 and 1, got: $runs"
echo "$runs" | grep -qE '^out/dump/[0-9]{14}/0/m/1/0$' || fail "layout differs: $runs"
files=$(find out/dump -type f -path '*/1/0/*' -printf '%f\n' | sort)
[ -n "$files" ] || fail "no dump files"
bad=$(echo "$files" | grep -vE '^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[0-9]+\.0\.[0-9]{16}$' || true)
[ -z "$bad" ] || fail "badly named dump files: $bad"
echo "$files" | grep -q '^Conv2D\.' || fail "no Conv2D dump among: $files"
# Header length + header + tensors add up to the file size (checked in the unit tests in
# depth); here: every file is longer than its 8-byte length field.
for f in $(find out/dump -type f); do [ "$(stat -c %s "$f")" -gt 8 ] || fail "$f too small"; done

run msame --model m.om --output npy --dump true --dump_format npy --dump_mode all
expect_exit 0
find npy/dump -name '*.output.0.npy' | grep -q . || fail "no .output.0.npy files"
find npy/dump -name '*.input.0.npy' | grep -q . || fail "no .input.0.npy files (dump_mode all)"

run msame --model "$DATA/tiny_conv.onnx" --output golden --dump true
expect_exit 0
g=$(find golden/dump -type f -name '*.npy' -printf '%f\n')
[ -n "$g" ] || fail "no golden files"
bad=$(echo "$g" | grep -vE '^[A-Za-z0-9_-]+\.[0-9]+\.[0-9]{16}\.npy$' || true)
[ -z "$bad" ] || fail "badly named golden files: $bad"

run msame --model m.om --output out2
expect_exit 0
[ ! -e out2/dump ] || fail "a dump folder without --dump"
run msame --model m.om --output bad --dump true --dump_mode weights
expect_exit 1
expect_stdout_contains "E10001: Value weights for parameter --dump_mode is invalid. Reason: use output, input or all"
run msame --model "$DATA/tiny_conv.onnx" --output bad --dump true --dump_mode input
expect_exit 1
expect_stdout_contains "applies to .om models"
run msame --model m.om --output bad --dump_format npy
expect_exit 1
expect_stdout_contains "need --dump true"
expect_no_file bad
# --random_input SEED: the same numbers for the .om and the .onnx (so their dumps compare), and
# different numbers for another seed; refused together with --input.
run msame --model m.om --output r1 --random_input 7 --outfmt TXT
expect_exit 0
expect_stdout_contains "[INFO] random inputs, seed 7"
run msame --model "$DATA/tiny_conv.onnx" --output r2 --random_input 7 --outfmt TXT
expect_exit 0
run msame --model m.om --output r3 --random_input 8 --outfmt TXT
expect_exit 0
a=$(cat r1/*/*_output_0.txt); b=$(cat r2/*/*_output_0.txt); c=$(cat r3/*/*_output_0.txt)
[ "${a:0:40}" = "${b:0:40}" ] || fail "seed 7 gave different outputs for the .om and the .onnx"
[ "$a" != "$c" ] || fail "seeds 7 and 8 gave the same outputs"
run msame --model m.om --output r4 --random_input 7 --input x.bin
expect_exit 1
expect_stdout_contains "use one"
