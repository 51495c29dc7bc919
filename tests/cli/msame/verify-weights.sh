# Every byte of an .om is checked before use, weights included: one flipped byte in the middle of
# WEIGHTS_DATA makes msame refuse the model (E10041 naming the partition, exit 1, no output
# folder); --skip_verify=true trusts the file and runs it; atc --mode=6 and --mode=1 refuse it too.
run atc --model="$ROOT/models/resnet_mini.onnx" --framework=5 --output=m --soc_version=Ascend310P3 --precision_mode=force_fp32
expect_exit 0
run msame --model m.om --output good
expect_exit 0
expect_stdout_contains "Execute sample success"
# The middle byte of WEIGHTS_DATA (partition 1: the 32-bit table at byte 256).
/usr/bin/python3 - <<'PY' || fail "could not damage the copy"
import struct
b = bytearray(open("m.om", "rb").read())
num = struct.unpack_from("<I", b, 256)[0]
start = 256 + 4 + 12 * num
for i in range(num):
    t, off, size = struct.unpack_from("<III", b, 256 + 4 + 12 * i)
    if t == 1:
        b[start + off + size // 2] ^= 0x04
open("bad.om", "wb").write(bytes(b))
PY
run msame --model bad.om --output out
expect_exit 1
expect_stdout_contains "E10041"
expect_stdout_contains "checksum mismatch in partition 1 (WEIGHTS_DATA, file bytes ["
expect_stdout_contains "re-convert the model with atc"
expect_stdout_not_contains "Execute sample success"
expect_no_file out
run msame --model bad.om --output skipped --skip_verify=true
expect_exit 0
expect_stdout_contains "Execute sample success"
run msame --model bad.om --output skipped --skip_verify=maybe
expect_exit 1
expect_stdout_contains "E10005: Value maybe for parameter --skip_verify is invalid"
run atc --mode=6 --om=bad.om
expect_exit 255
expect_stdout_contains "partition 1 (WEIGHTS_DATA"
run atc --mode=1 --om=bad.om --json=bad.json
expect_exit 255
expect_no_file bad.json
run atc --mode=6 --om=m.om
expect_exit 0
expect_stdout_contains "checksum[verified]"
