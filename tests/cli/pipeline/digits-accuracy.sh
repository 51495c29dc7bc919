# The bundled digits CNN over all 1,797 images through the sharded recipe (4 shards, GNU parallel,
# merged): every prediction equals PyTorch's on the same image (it is the same model). The
# accuracy that counts is on the 297 images the model never trained on (1500-1796): above 90 %.
command -v parallel >/dev/null || skip "GNU parallel is not installed (scripts/install-deps.sh)"
/usr/bin/python3 -c "import numpy" 2>/dev/null || skip "numpy (python3-numpy) is needed"
digits="$ROOT/models/digits"
run atc --model="$digits/digits.onnx" --framework=5 --output=digits --soc_version=Ascend310P3 \
  --precision_mode=force_fp32
expect_exit 0
run env MSAME="$BIN/msame" "$ROOT/scripts/batch/infer-sharded.sh" digits.om "$digits/images" out 4 --jobs 2
expect_exit 0
expect_stdout_contains "1797 input set(s): 1797 ok, 0 failed, 0 missing"
cat > check.py <<'PY'
import glob, os, sys
import numpy as np
d = sys.argv[1]
labels = dict(l.split() for l in open(os.path.join(d, "labels.txt")))
torch_pred = dict(l.split() for l in open(os.path.join(d, "torch_predictions.txt")))
ours = {}
for f in glob.glob("out/shard_*_of_4/*_output_0.bin"):
    ours[os.path.basename(f)[:-len("_output_0.bin")]] = int(np.fromfile(f, dtype=np.float32).argmax())
assert len(ours) == len(labels) == 1797, (len(ours), len(labels))
differ = [n for n in labels if ours[n] != int(torch_pred[n])]
unseen = [n for n in labels if int(n.split("_")[1]) >= 1500]  # never trained on
acc = sum(ours[n] == int(labels[n]) for n in unseen) / len(unseen)
torch_acc = sum(int(torch_pred[n]) == int(labels[n]) for n in unseen) / len(unseen)
print(f"accuracy on the {len(unseen)} unseen images {acc:.4f} (PyTorch {torch_acc:.4f}); "
      f"{len(differ)} predictions differ from PyTorch")
sys.exit(0 if len(unseen) == 297 and not differ and acc == torch_acc and acc > 0.90 else 1)
PY
run /usr/bin/python3 check.py "$digits"
expect_exit 0
expect_stdout_contains "accuracy on the 297 unseen images 0.9461"
expect_stdout_contains "0 predictions differ from PyTorch"
