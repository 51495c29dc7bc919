# No tool deletes or overwrites one of its inputs. atc refuses (E10001, exit 255, the input
# unchanged) when a file it would write is an input file: --output=<stem> whose <stem>.om (or
# <stem>_original.om) is the --model, also through a symlink or another spelling of the path;
# --mode=1 --json equal to --om; --mode=3 --check_report equal to --model; an option file
# (--keep_dtype) that is the output. msame and mscompare given their input folder as --output
# write beside the inputs (msame in a new timestamped subfolder) and change none of them.
cp "$DATA/tiny_conv.onnx" orig.onnx
refused() {  # refused INPUT-FILE FRAGMENT ATC-ARGS...
  local input=$1 want=$2
  shift 2
  cp "$input" before
  run atc "$@"
  expect_exit 255
  expect_stdout_contains "E10001"
  expect_stdout_contains "$want"
  expect_stdout_contains "atc never overwrites an input"
  cmp -s before "$input" || fail "atc changed its input $input"
  expect_no_temp_files .
}
cp orig.onnx m.om  # an ONNX model that happens to be named m.om
refused m.om "is the input given to --model" --model=m.om --framework=5 --output=m --soc_version=Ascend310
refused m.om "is the input given to --model" --model=./m.om --framework=5 --output="$PWD/m" --soc_version=Ascend310
ln -s m.om link.om
refused m.om "is the input given to --model" --model=link.om --framework=5 --output=m --soc_version=Ascend310
cp orig.onnx x_original.om
refused x_original.om "is the input given to --model" --model=x_original.om --framework=5 --output=x \
  --soc_version=Ascend310 --save_original_model=true
printf 'conv1\n' > k.om
refused k.om "is the input given to --keep_dtype" --model=orig.onnx --framework=5 --output=k \
  --soc_version=Ascend310 --keep_dtype=k.om

run atc --model=orig.onnx --framework=5 --output=good --soc_version=Ascend310
expect_exit 0
refused good.om "is the input given to --om" --mode=1 --om=good.om --json=good.om
refused orig.onnx "is the input given to --model" --mode=3 --model=orig.onnx --framework=5 \
  --soc_version=Ascend310 --check_report=orig.onnx
# The same commands with distinct outputs still work.
run atc --mode=1 --om=good.om --json=good.json
expect_exit 0
expect_file good.json

# msame: --output is the folder of the inputs (file and folder modes): inputs unchanged, the
# outputs in a new subfolder, and a second folder-mode run reads only the inputs.
mkdir -p data
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", 0, 0, 128 + i % 64, 63 }' > data/a.bin
sums() { find data -maxdepth 1 -type f | sort | xargs md5sum; }
before=$(sums)
run msame --model good.om --input data/a.bin --output data
expect_exit 0
run msame --model good.om --input data --output data
expect_exit 0
expect_stdout_contains "start to process file:data/a.bin"
run msame --model good.om --input data --output data
expect_exit 0
[ "$(sums)" = "$before" ] || fail "msame changed the files of its input folder"
[ "$(find data -mindepth 2 -name '*_output_0.bin' | wc -l)" -eq 3 ] || fail "expected 3 output files"

# mscompare: -out is the folder of the data it compares.
mkdir -p cmp
cp "$(ls data/*/good_output_0.bin | head -1)" cmp/good_output_0.bin
cp cmp/good_output_0.bin cmp/gold.bin
before=$(find cmp -type f | sort | xargs md5sum)
run mscompare -m cmp/good_output_0.bin -g cmp/gold.bin -out cmp
expect_exit 0
after=$(find cmp -type f ! -name 'result_*.csv' | sort | xargs md5sum)
[ "$after" = "$before" ] || fail "mscompare changed the files of its input folder"
expect_file "$(ls cmp/result_*.csv)"
