# Determinism (docs/reliability.md): the same atc command run twice writes byte-identical OMs
# (and --mode=1 JSON), for an fp16 and an fp32 build of two models; msame gives byte-identical
# outputs across runs and across --threads 1 and 2, for the .om and for the .onnx.
# (The OM records the atc command line, so only the same command gives the same bytes.)
for model in "$ROOT/models/resnet_mini.onnx" "$DATA/golden/zoo.onnx"; do
  for prec in force_fp16 force_fp32; do
    for d in a b; do
      mkdir -p "$d"
      (cd "$d" && run atc --model="$model" --framework=5 --output=m --soc_version=Ascend310P3 \
        --precision_mode=$prec && expect_exit 0 && expect_file m.om &&
        run atc --mode=1 --om=m.om --json=m.json && expect_exit 0) || fail "atc failed in $d"
    done
    cmp a/m.om b/m.om || fail "$(basename "$model") at $prec: two conversions differ"
    cmp a/m.json b/m.json || fail "$(basename "$model") at $prec: the two JSON renderings differ"
    for run in t1 t2 t2b t1b; do
      threads=${run:1:1}
      run msame --model a/m.om --random_input 3 --threads "$threads" --loop 2 --output "$run"
      expect_exit 0
    done
    ref=$(ls t1/*/m_output_0.bin)
    expect_file "$ref"
    for other in t2 t2b t1b; do
      cmp "$ref" "$(ls $other/*/m_output_0.bin)" ||
        fail "$(basename "$model") at $prec: msame outputs of t1 and $other differ"
    done
    rm -rf a b t1 t2 t2b t1b
  done
  # The .onnx on the runtime directly (fp32, no fusion).
  for threads in 1 2; do
    run msame --model "$model" --random_input 3 --threads $threads --output "onnx$threads"
    expect_exit 0
  done
  stem=$(basename "$model" .onnx)
  cmp "$(ls onnx1/*/${stem}_output_0.bin)" "$(ls onnx2/*/${stem}_output_0.bin)" ||
    fail "$stem.onnx: msame outputs with 1 and 2 threads differ"
  rm -rf onnx1 onnx2
done
