# scripts/batch/infer-sharded.sh: a 200-file folder as 4 shards under GNU parallel (2 at a time),
# merged: every input exactly once, each output the same as an unsharded msame run gives; a
# --resume rerun after a lost output runs that input alone.
command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps.sh)"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
mkdir inputs
for i in $(seq 100 299); do
  awk -v s=$i 'BEGIN { srand(s); for (k = 0; k < 192; k++) printf "%c%c%c%c", 0, 0, int(rand() * 64), 63 }' > inputs/in$i.bin
done
run env MSAME="$BIN/msame" "$ROOT/scripts/batch/infer-sharded.sh" m.om inputs out 4 --jobs 2
expect_exit 0
expect_stdout_contains "merge.sh: 4 shard(s), 200 input set(s): 200 ok, 0 failed, 0 missing"
expect_file out/joblog.txt
[ "$(tail -n +2 out/joblog.txt | wc -l)" = 4 ] || fail "parallel ran $(tail -n +2 out/joblog.txt | wc -l) jobs, not 4"
cat out/shard_*_of_4/manifest.jsonl | grep -o '"input": \["[^"]*"' | sort | uniq -c | awk '$1 != 1' > twice.txt
[ ! -s twice.txt ] || fail "inputs not run exactly once: $(head -3 twice.txt)"
# The same outputs as one unsharded run.
run msame --model m.om --input inputs --output whole
expect_exit 0
for f in in100 in157 in299; do
  cmp -s out/shard_*_of_4/${f}_output_0.bin whole/*/${f}_output_0.bin || fail "$f differs from the unsharded run"
done
rm out/shard_3_of_4/in103_output_0.bin
run env MSAME="$BIN/msame" "$ROOT/scripts/batch/infer-sharded.sh" m.om inputs out 4 --resume --jobs 2
expect_exit 0
grep -q "shard 3/4: 50 of 200 input sets, 1 run, 49 skipped (--resume), 0 failed" out/shard_3_of_4.log ||
  fail "the resumed shard did not rerun exactly the lost input: $(grep 'shard 3/4' out/shard_3_of_4.log)"
expect_file out/shard_3_of_4/in103_output_0.bin
