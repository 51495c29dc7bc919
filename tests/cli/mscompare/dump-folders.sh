# Two dump folders (written by tensorio::writeDumpFile through asc_make_dump) compare end to
# end against golden .npy files named {op}.{output}.{timestamp}.npy. A planted difference is
# reported as the first failing layer in execution order (dump timestamps, or the fusion rule
# file's op order), with exit 1.
mkdir -p golden my/20261130000000/0/model/1/0 npy
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(1)
# execution order by timestamp: zeta, alpha, mid, omega (not alphabetical on purpose)
ops = [("zeta", 10), ("alpha", 20), ("mid", 30), ("omega", 40)]
for op, ts in ops:
    g = rng.standard_normal((2, 3, 4)).astype(np.float32)
    np.save("golden/%s.0.%d.npy" % (op, ts), g)
    np.save("npy/%s_ok.npy" % op, g + np.float32(1e-7))
    bad = g.copy(); bad[1, 2, 3] += 0.5
    np.save("npy/%s_bad.npy" % op, bad)
# a two-output op: output 1 compared with golden multi.1.*.npy
a = rng.standard_normal(8).astype(np.float32); b = rng.standard_normal(5).astype(np.float32)
np.save("golden/multi.0.50.npy", a); np.save("golden/multi.1.50.npy", b)
np.save("npy/multi0.npy", a); np.save("npy/multi1.npy", b)
PY
d=my/20261130000000/0/model/1/0
asc_make_dump $d/Conv2D.zeta.1.0.0000000000000010 zeta npy/zeta_ok.npy || fail "make_dump"
asc_make_dump $d/Relu.alpha.2.0.0000000000000020 alpha npy/alpha_ok.npy
asc_make_dump $d/Add.mid.3.0.0000000000000030 mid npy/mid_ok.npy
asc_make_dump $d/Mul.omega.4.0.0000000000000040 omega npy/omega_ok.npy
asc_make_dump $d/Split.multi.5.0.0000000000000050 multi npy/multi0.npy npy/multi1.npy
run mscompare -m my -g golden -out cmp
expect_exit 0
expect_stdout_line "tensors compared      6"
expect_stdout_line "passed                6"
csv=$(ls cmp/result_*.csv)
sed -n 2p "$csv" | grep -q "^0,Conv2D,zeta,float32," || fail "first row is not zeta: $(sed -n 2p "$csv")"
grep -q ",multi:output:1," "$csv" || fail "no row for multi output 1"
# plant differences in omega and alpha: alpha runs first (timestamp 20 < 40)
asc_make_dump $d/Mul.omega.4.0.0000000000000040 omega npy/omega_bad.npy
asc_make_dump $d/Relu.alpha.2.0.0000000000000020 alpha npy/alpha_bad.npy
run mscompare -m my -g golden -out cmp2
expect_exit 1
expect_stdout_line "failed                2"
expect_stdout_contains "first failing layer   alpha output 0"
expect_stdout_contains "first at element 23"
run mscompare -m my -g golden -out cmp3 --format=json
expect_exit 1
/usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['first_failing']['op'] == 'alpha', s['first_failing']
assert s['failed'] == 2 and s['passed'] == 4 and s['exit_code'] == 1
" "$STDOUT" || fail "json summary"
# A fusion rule puts omega first and maps the fused device op 'fused' to the golden of the
# last original op of its group.
cat > rule.json <<'JSON'
{"graph": [{"name": "g", "op": [
  {"name": "omega", "type": "Mul"},
  {"name": "fused", "type": "Conv2D", "attr": [{"key": "_datadump_original_op_names",
    "value": {"list": {"s": ["zeta", "mid"], "val_type": "VT_LIST_STRING"}}}]},
  {"name": "alpha", "type": "Relu"}]}]}
JSON
asc_make_dump $d/Conv2D.fused.6.0.0000000000000060 fused npy/mid_ok.npy
run mscompare -m my -g golden -f rule.json -out cmp4
expect_exit 1
expect_stdout_contains "first failing layer   omega output 0"
csv=$(ls cmp4/result_*.csv)
grep -q '^1,Conv2D,fused,float32,[0-9]*,"zeta,mid",' "$csv" || fail "fused row: $(sed -n 3p "$csv")"
# Dump folder against dump folder (e.g. two device runs): paired by op name and output index.
mkdir -p dumps2
for op in zeta alpha mid omega; do
  asc_make_dump dumps2/Op.$op.1.0.0000000000000001 $op golden/$op.0.*.npy || fail "make_dump $op"
done
asc_make_dump dumps2/Split.multi.1.0.0000000000000001 multi golden/multi.0.50.npy golden/multi.1.50.npy
rm $d/Conv2D.fused.6.0.0000000000000060
run mscompare -m my -g dumps2 -out cmp5 --format=json
expect_exit 1
/usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['compared'] == 6 and s['failed'] == 2 and s['no_golden'] == 0, s
assert s['first_failing']['op'] == 'alpha', s['first_failing']
" "$STDOUT" || fail "dump vs dump summary"
