# msame --shard i/N (asc-tools extra): N processes over one input folder cover every file exactly
# once (file k, sorted by name, in shard k mod N), each into <output>/shard_<i>_of_<N>/ with a
# manifest.jsonl; a failed input is recorded and the shard goes on; --resume skips what is done
# and redoes an input whose outputs are gone; scripts/batch/merge.sh merges the manifests.
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
mkdir inputs
for i in $(seq 10 19); do
  awk -v s=$i 'BEGIN { srand(s); for (k = 0; k < 192; k++) printf "%c%c%c%c", 0, 0, int(rand() * 64), 63 }' > inputs/in$i.bin
done
head -c 10 /dev/zero > inputs/in20_short.bin   # the wrong size: this input fails
for i in 0 1 2; do
  run msame --model m.om --input inputs --output out --shard $i/3
  if [ $i = 1 ]; then  # files 1, 4, 7, 10: in20_short.bin is file 10
    expect_exit 1
    expect_stdout_contains "shard 1/3: 4 of 11 input sets, 3 run, 0 skipped (--resume), 1 failed"
  else
    expect_exit 0
  fi
  expect_file out/shard_${i}_of_3/manifest.jsonl
done
expect_file out/shard_0_of_3/in10_output_0.bin
expect_file out/shard_1_of_3/in11_output_0.bin
# Every input exactly once over the shards.
cat out/shard_*_of_3/manifest.jsonl | grep -o '"input": \["[^"]*"' | sort > seen.txt
[ "$(wc -l < seen.txt)" = 11 ] || fail "the shards recorded $(wc -l < seen.txt) inputs, not 11"
[ "$(uniq -d seen.txt)" = "" ] || fail "an input ran in two shards: $(uniq -d seen.txt)"
grep -q '"input": \["inputs/in20_short.bin"\], "outputs": \[\], "ms": [0-9.]*, "status": "error", "error": "E' \
  out/shard_1_of_3/manifest.jsonl || fail "the failed input's record lacks its error"

run "$ROOT/scripts/batch/merge.sh" out inputs
expect_exit 1
expect_stdout_contains "merge.sh: 3 shard(s), 11 input set(s): 10 ok, 1 failed, 0 missing"
expect_stderr_contains "failed: inputs/in20_short.bin"
expect_file out/merged.csv
head -1 out/merged.csv | grep -qx 'input,shard,status,ms,outputs,error' || fail "merged.csv header"

# --resume: shard 0 has nothing left to do; in shard 2 a lost output is redone, alone.
run msame --model m.om --input inputs --output out --shard 0/3 --resume
expect_exit 0
expect_stdout_contains "shard 0/3: 4 of 11 input sets, 0 run, 4 skipped (--resume), 0 failed"
rm out/shard_2_of_3/in15_output_0.bin
run msame --model m.om --input inputs --output out --shard 2/3 --resume
expect_exit 0
expect_stdout_contains "shard 2/3: 3 of 11 input sets, 1 run, 2 skipped (--resume), 0 failed"
expect_stdout_contains "start to process file:inputs/in15.bin"
expect_file out/shard_2_of_3/in15_output_0.bin
# A failed input stays failed in the merge until a run records it done, even when the file is gone.
rm inputs/in20_short.bin
run "$ROOT/scripts/batch/merge.sh" out inputs
expect_exit 1
expect_stdout_contains "10 ok, 1 failed, 0 missing"
rm -r out/shard_1_of_3
run "$ROOT/scripts/batch/merge.sh" out inputs
expect_exit 1
expect_stdout_contains "missing: inputs/in11.bin"
expect_stdout_contains "7 input set(s): 7 ok, 0 failed, 3 missing"

# Bad values.
run msame --model m.om --input inputs --output out --shard 3/3
expect_exit 1
expect_stdout_contains "E10001"
run msame --model m.om --input inputs --output out --shard two
expect_exit 1
expect_stdout_contains "--shard takes i/N"
run msame --model m.om --input inputs --output out --resume
expect_exit 1
expect_stdout_contains "--resume needs --shard"
run msame --model m.om --input inputs --shard 0/2
expect_exit 1
expect_stdout_contains "--shard needs --output"
run msame --model m.om --input inputs/in10.bin --output out2 --shard 0/2
expect_exit 1
expect_stdout_contains "--shard splits the files of --input folders"
