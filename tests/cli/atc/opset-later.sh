# Opsets 19-24 (issue 31): a model at a later opset reads each op at its version in force there
# (src/frontend/onnx/onnx_versions.cpp, from ONNX's changelog). Versions that only added types
# give the same bytes as at opset 17; Gelu-20 (erf form) matches numpy; GridSample-20's renamed
# "linear" mode gives GridSample-16's "bilinear" bytes; GroupNormalization-21 (per-channel scale
# and bias) matches numpy and refuses a per-group scale; Gelu-20 tanh, Swish-24 and
# RMSNormalization-23, Pad-19 wrap and Resize-19 half_pixel_symmetric match numpy (wrap and
# half_pixel_symmetric are refused before 19). What changed and is not built yet is refused
# naming node, op, version and why, with E10055 and no OM: a QuantizeLinear-23 precision that is
# not a float type, an output_dtype asc-tools does not store, and opset 25. QuantizeLinear-23
# precision float16 and bfloat16 match numpy. Blocked quantization (block_size) matches numpy. DFT-20 (the axis as an input) matches numpy's FFTs.
PY=/usr/bin/python3
[ -x "$PY" ] && command -v protoc >/dev/null || skip "needs /usr/bin/python3 and protoc"
$PY -c "import numpy" 2>/dev/null || skip "needs python3-numpy"
proto=/usr/include/onnx
model() {  # model OPSET NODES [INPUT-SHAPE]: x [shape] -> NODES -> y
  local dims="" d
  for d in ${3:-1 2 6 4}; do dims="$dims dim { dim_value: $d }"; done
  printf 'ir_version: 10 opset_import { domain: "" version: %s } graph { name: "g" %s
  input { name: "x" type { tensor_type { elem_type: 1 shape { %s } } } }
  output { name: "y" type { tensor_type { elem_type: 1 } } } }' "$1" "$2" "$dims" |
    protoc --encode=onnx.ModelProto -I$proto $proto/onnx.proto
}
$PY -c "
import numpy as np
np.random.default_rng(4).uniform(-3, 3, (1, 2, 6, 4)).astype(np.float32).tofile('x.bin')
" || fail "numpy input"
convert() {  # convert NAME: atc then msame on x.bin
  run atc --model=$1.onnx --framework=5 --output=$1 --soc_version=Ascend310P3 --precision_mode=force_fp32
  expect_exit 0
  run msame --model $1.om --input x.bin --output out_$1
  expect_exit 0
}
# Types-only versions: Transpose-21/23/24, Reshape-24, Squeeze/Unsqueeze-24, Pad-24, Cast-24 give
# opset 17's bytes.
body='node { op_type: "Transpose" name: "t" input: "x" output: "a" attribute { name: "perm" type: INTS ints: [0, 1, 3, 2] } }
  node { op_type: "Unsqueeze" name: "u" input: "a" input: "ax" output: "b" }
  node { op_type: "Squeeze" name: "s" input: "b" input: "ax" output: "c" }
  node { op_type: "Pad" name: "p" input: "c" input: "pads" output: "d" }
  node { op_type: "Cast" name: "k" input: "d" output: "e" attribute { name: "to" type: INT i: 1 } }
  node { op_type: "Reshape" name: "r" input: "e" input: "shape" output: "y" }
  initializer { name: "ax" data_type: 7 dims: 1 int64_data: [0] }
  initializer { name: "pads" data_type: 7 dims: 8 int64_data: [0, 0, 1, 0, 0, 0, 0, 1] }
  initializer { name: "shape" data_type: 7 dims: 2 int64_data: [2, -1] }'
model 17 "$body" > types17.onnx || fail "protoc"
model 24 "$body" > types24.onnx || fail "protoc"
convert types17
convert types24
cmp out_types17/*/types17_output_0.bin out_types24/*/types24_output_0.bin ||
  fail "opset 24 gave other bytes than opset 17"

# QuantizeLinear-23 precision: x / scale in float16 (10) and bfloat16 (16), to int16 and back,
# against numpy's float16 division (bfloat16 by rounding float32 to 8 significant bits).
for p in 10 16; do
  model 23 "node { op_type: \"QuantizeLinear\" name: \"q\" input: \"x\" input: \"s\" input: \"z\" output: \"q\" attribute { name: \"precision\" type: INT i: $p } }
  node { op_type: \"DequantizeLinear\" name: \"d\" input: \"q\" input: \"s\" input: \"z\" output: \"y\" }
  initializer { name: \"s\" data_type: 1 float_data: [0.0013] }
  initializer { name: \"z\" data_type: 5 int32_data: [3] }" > qp$p.onnx || fail "protoc"
  convert qp$p
  run $PY -c "
import numpy as np, glob
x = np.fromfile('x.bin', np.float32)
def bf16(v):  # round to nearest even on the upper 16 bits
    b = np.asarray(v, np.float32).view(np.uint32).astype(np.uint64)
    b = (b + np.uint64(0x7FFF) + ((b >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16) << np.uint64(16)
    return b.astype(np.uint32).view(np.float32)
s = np.float32(0.0013)
q = (x.astype(np.float16) / np.float16(s)).astype(np.float32) if $p == 10 else bf16(bf16(x) / bf16(s))
want = (np.clip(np.rint(q) + 3, -32768, 32767) - 3) * s
got = np.fromfile(glob.glob('out_qp$p/*/qp${p}_output_0.bin')[0], np.float32)
plain = (np.clip(np.rint(x / s) + 3, -32768, 32767) - 3) * s
print('close' if np.allclose(got, want, rtol=0, atol=1e-6) and not np.allclose(got, plain, rtol=0, atol=1e-6)
      else 'differs %g' % np.abs(got - want).max())
"
  expect_stdout_line "close"
done

# Gelu-20, the erf form, against numpy.
model 20 'node { op_type: "Gelu" name: "gelu" input: "x" output: "y" }' > gelu.onnx || fail "protoc"
convert gelu
run $PY -c "
import numpy as np, math, sys, glob
x = np.fromfile('x.bin', np.float32).astype(np.float64)
want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
got = np.fromfile(glob.glob('out_gelu/*/gelu_output_0.bin')[0], np.float32)
print('close' if np.allclose(got, want, rtol=1e-5, atol=1e-6) else 'differs %g' % np.abs(got - want).max())
"
expect_stdout_line "close"

# GridSample-20 mode "linear" (and the default) is GridSample-16's "bilinear".
grid='initializer { name: "grid" data_type: 1 dims: [1, 3, 3, 2] float_data: [-1, -1, 0, -0.5, 0.9, 1, 0.3, 0.2, -0.7, 0.8, 0.1, -0.1, 1, 1, -0.4, 0.6, 0.5, -0.9] }'
model 16 "node { op_type: \"GridSample\" name: \"gs\" input: \"x\" input: \"grid\" output: \"y\" attribute { name: \"mode\" type: STRING s: \"bilinear\" } } $grid" > gs16.onnx || fail "protoc"
model 20 "node { op_type: \"GridSample\" name: \"gs\" input: \"x\" input: \"grid\" output: \"y\" attribute { name: \"mode\" type: STRING s: \"linear\" } } $grid" > gs20.onnx || fail "protoc"
model 22 "node { op_type: \"GridSample\" name: \"gs\" input: \"x\" input: \"grid\" output: \"y\" } $grid" > gs22.onnx || fail "protoc"
convert gs16
convert gs20
convert gs22
cmp out_gs16/*/gs16_output_0.bin out_gs20/*/gs20_output_0.bin || fail "GridSample-20 linear differs from 16 bilinear"
cmp out_gs16/*/gs16_output_0.bin out_gs22/*/gs22_output_0.bin || fail "GridSample-22's default differs from 16 bilinear"

# GroupNormalization-21: one group of both channels, then a scale and bias per channel.
model 21 'node { op_type: "GroupNormalization" name: "gn" input: "x" input: "sc" input: "bi" output: "y" attribute { name: "num_groups" type: INT i: 1 } attribute { name: "epsilon" type: FLOAT f: 0.001 } }
  initializer { name: "sc" data_type: 1 dims: 2 float_data: [2, -1] }
  initializer { name: "bi" data_type: 1 dims: 2 float_data: [0.5, 0.25] }' > gn21.onnx || fail "protoc"
convert gn21
run $PY -c "
import numpy as np, glob
x = np.fromfile('x.bin', np.float32).astype(np.float64).reshape(1, 2, 6, 4)
g = x.reshape(1, 1, -1)
norm = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + 0.001)).reshape(x.shape)
want = norm * np.array([2, -1]).reshape(1, 2, 1, 1) + np.array([0.5, 0.25]).reshape(1, 2, 1, 1)
got = np.fromfile(glob.glob('out_gn21/*/gn21_output_0.bin')[0], np.float32).reshape(x.shape)
print('close' if np.allclose(got, want, rtol=1e-5, atol=1e-5) else 'differs %g' % np.abs(got - want).max())
"
expect_stdout_line "close"

# numpy NAME FORMULA: the model's output against a numpy formula of x (float64), printed as
# "close" or how far it is.
numpy_check() {
  run $PY -c "
import numpy as np, math, glob, sys
sys.path.insert(0, '$ROOT/tests/testkit')
import formulas
x = np.fromfile('x.bin', np.float32).astype(np.float64).reshape(1, 2, 6, 4)
want = $2
got = np.fromfile(glob.glob('out_$1/*/$1_output_0.bin')[0], np.float32).reshape(want.shape)
print('close' if np.allclose(got, want, rtol=1e-5, atol=1e-5) else 'differs %g' % np.abs(got - want).max())
"
  expect_stdout_line "close"
}

# Gelu-20 with approximate tanh, Swish-24 (alpha 0.7, and the default 1), RMSNormalization-23
# over the last two dims with a scale broadcast over the last, and with axis 1 and epsilon 0.1.
model 20 'node { op_type: "Gelu" name: "g" input: "x" output: "y" attribute { name: "approximate" type: STRING s: "tanh" } }' > gelut.onnx || fail "protoc"
convert gelut
numpy_check gelut "0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))"
model 24 'node { op_type: "Swish" name: "sw" input: "x" output: "y" attribute { name: "alpha" type: FLOAT f: 0.7 } }' > swish.onnx || fail "protoc"
convert swish
numpy_check swish "x / (1 + np.exp(-0.7 * x))"
model 24 'node { op_type: "Swish" name: "sw" input: "x" output: "y" }' > swish1.onnx || fail "protoc"
convert swish1
numpy_check swish1 "x / (1 + np.exp(-x))"
model 23 'node { op_type: "RMSNormalization" name: "rms" input: "x" input: "sc" output: "y" attribute { name: "axis" type: INT i: -2 } }
  initializer { name: "sc" data_type: 1 dims: 4 float_data: [1, -2, 0.5, 3] }' > rms.onnx || fail "protoc"
convert rms
numpy_check rms "x / np.sqrt((x ** 2).mean(axis=(2, 3), keepdims=True) + 1e-5) * np.array([1, -2, 0.5, 3])"
model 23 'node { op_type: "RMSNormalization" name: "rms" input: "x" input: "sc" output: "y" attribute { name: "axis" type: INT i: 1 } attribute { name: "epsilon" type: FLOAT f: 0.1 } }
  initializer { name: "sc" data_type: 1 dims: [2, 1, 1] float_data: [2, -1] }' > rms1.onnx || fail "protoc"
convert rms1
numpy_check rms1 "x / np.sqrt((x ** 2).mean(axis=(1, 2, 3), keepdims=True) + 0.1) * np.array([2, -1]).reshape(2, 1, 1)"
# Fused into a 1x1 Conv as its post-op, Swish keeps its alpha and Gelu its tanh form.
conv='initializer { name: "w" data_type: 1 dims: [2, 2, 1, 1] float_data: [0.5, -1, 2, 0.25] }
  node { op_type: "Conv" name: "c" input: "x" input: "w" output: "h" }'
model 24 "$conv node { op_type: \"Swish\" name: \"sw\" input: \"h\" output: \"y\" attribute { name: \"alpha\" type: FLOAT f: 0.7 } }" > convsw.onnx || fail "protoc"
convert convsw
grep -q "fuse-conv-activation" <(atc --model=convsw.onnx --framework=5 --output=convsw_log --soc_version=Ascend310P3 --precision_mode=force_fp32 --log=info 2>&1) ||
  fail "Conv + Swish did not fuse"
h="np.einsum('oc,nchw->nohw', np.array([[0.5, -1], [2, 0.25]]), x)"
numpy_check convsw "(lambda h: h / (1 + np.exp(-0.7 * h)))($h)"
model 24 "$conv node { op_type: \"Gelu\" name: \"g\" input: \"h\" output: \"y\" attribute { name: \"approximate\" type: STRING s: \"tanh\" } }" > convgelu.onnx || fail "protoc"
convert convgelu
numpy_check convgelu "(lambda h: 0.5 * h * (1 + np.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * h ** 3))))($h)"
# Pad-19 wrap against numpy's pad(mode="wrap"), with pads up to the dim's size (past it, numpy
# 1.24 repeats the edge element instead of going around; asc-tools takes indices modulo the
# size, the torus the spec describes: docs/opsets.md).
model 19 'node { op_type: "Pad" name: "pw" input: "x" input: "pads" output: "y" attribute { name: "mode" type: STRING s: "wrap" } }
  initializer { name: "pads" data_type: 7 dims: 8 int64_data: [0, 1, 2, 3, 0, 0, 3, 1] }' > wrap.onnx || fail "protoc"
convert wrap
numpy_check wrap "np.pad(x, ((0, 0), (1, 0), (2, 3), (3, 1)), mode='wrap')"
# Resize-19 half_pixel_symmetric (linear, scales 1.7 and 1.3, so the sizes round down), against
# a numpy formula of the spec (tests/testkit/resize_ref.py); the same formula with half_pixel's
# coordinates checks the interpolation convention on the half_pixel kernel first.
sc='initializer { name: "sc" data_type: 1 dims: 4 float_data: [1, 1, 1.7, 1.3] }'
for ctm in half_pixel half_pixel_symmetric; do
  model 19 "node { op_type: \"Resize\" name: \"rs\" input: \"x\" input: \"\" input: \"sc\" output: \"y\" attribute { name: \"mode\" type: STRING s: \"linear\" } attribute { name: \"coordinate_transformation_mode\" type: STRING s: \"$ctm\" } } $sc" > r_$ctm.onnx || fail "protoc"
  convert r_$ctm
  run $PY "$ROOT/tests/testkit/resize_ref.py" x.bin "$(ls out_r_$ctm/*/r_${ctm}_output_0.bin)" $ctm 1.7 1.3
  expect_stdout_line "close"
done
# CenterCropPad-18: crop 6 -> 3 around the centre and pad 4 -> 7 (1 before, 2 after) on axes 2
# and 3; without axes, every dim (channels 2 -> 1 keeps the first, rows 6 -> 5 the first five).
model 18 'node { op_type: "CenterCropPad" name: "ccp" input: "x" input: "s" output: "y" attribute { name: "axes" type: INTS ints: [2, -1] } }
  initializer { name: "s" data_type: 7 dims: 2 int64_data: [3, 7] }' > ccp.onnx || fail "protoc"
convert ccp
numpy_check ccp "np.pad(x[:, :, 1:4, :], ((0, 0), (0, 0), (0, 0), (1, 2)))"
model 18 'node { op_type: "CenterCropPad" name: "ccp" input: "x" input: "s" output: "y" }
  initializer { name: "s" data_type: 7 dims: 4 int64_data: [1, 1, 5, 4] }' > ccp2.onnx || fail "protoc"
convert ccp2
numpy_check ccp2 "x[:, :1, :5, :]"
# LpPool-18 with dilations, ceil_mode and pads (p 3), LpPool-11 (p 2, strides), and GlobalLpPool
# (p 1: the sum of |x| per plane), against loops over the ONNX definition.
lp() {  # lp NAME OPSET P K S D PADS CEIL
  local attrs="attribute { name: \"p\" type: INT i: $3 } attribute { name: \"kernel_shape\" type: INTS ints: [$4] } attribute { name: \"strides\" type: INTS ints: [$5] } attribute { name: \"pads\" type: INTS ints: [$7] }"
  [ "$2" -ge 18 ] && attrs="$attrs attribute { name: \"dilations\" type: INTS ints: [$6] } attribute { name: \"ceil_mode\" type: INT i: $8 }"
  model $2 "node { op_type: \"LpPool\" name: \"lp\" input: \"x\" output: \"y\" $attrs }" > $1.onnx || fail "protoc"
  convert $1
  run $PY "$ROOT/tests/testkit/lppool_ref.py" x.bin "$(ls out_$1/*/$1_output_0.bin)" $3 "$4" "$5" "$6" "$7" $8
  expect_stdout_line "close"
}
lp lp18 18 3 "2,2" "2,1" "1,2" "0,1,0,1" 1
lp lp11 11 2 "3,2" "1,2" "1,1" "1,0,1,0" 0
model 18 'node { op_type: "GlobalLpPool" name: "glp" input: "x" output: "y" attribute { name: "p" type: INT i: 1 } }' > glp.onnx || fail "protoc"
convert glp
numpy_check glp "np.abs(x).sum(axis=(2, 3), keepdims=True)"
# Col2Im-18 on x seen as [1, 4, 12] (blocks 2x2 of one channel): plain, then with dilations,
# pads and strides, against a loop over the ONNX definition (tests/testkit/formulas.py).
c2i() {  # c2i NAME ATTRS: Reshape x to [1, 4, 12], Col2Im to image [4, 5] with block [2, 2]
  model 18 "node { op_type: \"Reshape\" name: \"r\" input: \"x\" input: \"shape\" output: \"cols\" }
  node { op_type: \"Col2Im\" name: \"c2i\" input: \"cols\" input: \"img\" input: \"blk\" output: \"y\" $2 }
  initializer { name: \"shape\" data_type: 7 dims: 3 int64_data: [1, 4, 12] }
  initializer { name: \"img\" data_type: 7 dims: 2 int64_data: [4, 5] }
  initializer { name: \"blk\" data_type: 7 dims: 2 int64_data: [2, 2] }" > $1.onnx || fail "protoc"
  convert $1
}
c2i c2i ""
numpy_check c2i "formulas.col2im(x.reshape(1, 4, 12), [4, 5], [2, 2], [1, 1], [0, 0, 0, 0], [1, 1])"
c2i c2i_d 'attribute { name: "dilations" type: INTS ints: [2, 1] } attribute { name: "pads" type: INTS ints: [1, 0, 1, 1] } attribute { name: "strides" type: INTS ints: [1, 2] }'
numpy_check c2i_d "formulas.col2im(x.reshape(1, 4, 12), [4, 5], [2, 2], [2, 1], [1, 0, 1, 1], [1, 2])"
# AffineGrid-20, 2-D (align_corners 0 and 1) and 3-D, theta from x's first values.
ag() {  # ag NAME THETA-SHAPE SIZE ALIGN
  model 20 "node { op_type: \"Reshape\" name: \"r\" input: \"x\" input: \"shape\" output: \"flat\" }
  node { op_type: \"Slice\" name: \"s\" input: \"flat\" input: \"zero\" input: \"count\" output: \"part\" }
  node { op_type: \"Reshape\" name: \"r2\" input: \"part\" input: \"tshape\" output: \"theta\" }
  node { op_type: \"AffineGrid\" name: \"ag\" input: \"theta\" input: \"size\" output: \"y\" attribute { name: \"align_corners\" type: INT i: $4 } }
  initializer { name: \"shape\" data_type: 7 dims: 1 int64_data: [48] }
  initializer { name: \"zero\" data_type: 7 dims: 1 int64_data: [0] }
  initializer { name: \"count\" data_type: 7 dims: 1 int64_data: [$(( $(echo $2 | tr ',' '*') ))] }
  initializer { name: \"tshape\" data_type: 7 dims: 3 int64_data: [$2] }
  initializer { name: \"size\" data_type: 7 dims: $(echo $3 | tr ',' '\n' | wc -l) int64_data: [$3] }" > $1.onnx || fail "protoc"
  convert $1
}
ag ag2 "2,2,3" "2,1,3,5" 0
numpy_check ag2 "formulas.affine_grid(x.reshape(-1)[:12].reshape(2, 2, 3), [2, 1, 3, 5], False)"
ag ag2a "2,2,3" "2,1,3,5" 1
numpy_check ag2a "formulas.affine_grid(x.reshape(-1)[:12].reshape(2, 2, 3), [2, 1, 3, 5], True)"
ag ag3 "1,3,4" "1,2,2,3,4" 0
numpy_check ag3 "formulas.affine_grid(x.reshape(-1)[:12].reshape(1, 3, 4), [1, 2, 2, 3, 4], False)"
# DFT-20: the axis is input 2 (default -2); x as 2 complex signals of 12 points, then a real
# [2, 6, 4, 1] input transformed along axis 2 (given), one-sided, and inverse along the default.
dft() {  # dft NAME SHAPE [INPUTS [ATTRS]]
  model 20 "node { op_type: \"Reshape\" name: \"r\" input: \"x\" input: \"shape\" output: \"sig\" }
  node { op_type: \"DFT\" name: \"dft\" input: \"sig\" $3 output: \"y\" ${4:-} }
  initializer { name: \"shape\" data_type: 7 dims: $(echo $2 | tr ',' '\n' | wc -l) int64_data: [$2] }
  initializer { name: \"ax\" data_type: 7 int64_data: [2] }" > $1.onnx || fail "protoc"
  convert $1
}
dft dft20 "2,12,2" ""
numpy_check dft20 "(lambda f: np.stack([f.real, f.imag], -1))(np.fft.fft(x.reshape(2, 12, 2)[..., 0] + 1j * x.reshape(2, 12, 2)[..., 1], axis=1))"
dft dft20r "2,6,4,1" 'input: "" input: "ax"' 'attribute { name: "onesided" type: INT i: 1 }'
numpy_check dft20r "(lambda f: np.stack([f.real, f.imag], -1))(np.fft.rfft(x.reshape(2, 6, 4), axis=2))"
dft dft20i "2,12,2" "" 'attribute { name: "inverse" type: INT i: 1 }'
numpy_check dft20i "(lambda f: np.stack([f.real, f.imag], -1))(np.fft.ifft(x.reshape(2, 12, 2)[..., 0] + 1j * x.reshape(2, 12, 2)[..., 1], axis=1))"
# Blocked quantization (Q/DQ-21 block_size): x quantized to int8 and back in blocks of 4 rows
# (scales [1, 2, 2, 4], zero points 0 and 3), and int8 weights [4, 3] in blocks of 2 along axis 0
# (folded at compile time) multiplied with x.
sc=$($PY -c "import numpy as np; print(', '.join('%g' % v for v in np.linspace(0.01, 0.2, 16)))")
model 21 "node { op_type: \"QuantizeLinear\" name: \"q\" input: \"x\" input: \"s\" input: \"z\" output: \"qx\" attribute { name: \"axis\" type: INT i: 2 } attribute { name: \"block_size\" type: INT i: 4 } }
  node { op_type: \"DequantizeLinear\" name: \"dq\" input: \"qx\" input: \"s\" input: \"z\" output: \"y\" attribute { name: \"axis\" type: INT i: -2 } attribute { name: \"block_size\" type: INT i: 4 } }
  initializer { name: \"s\" data_type: 1 dims: [1, 2, 2, 4] float_data: [$sc] }
  initializer { name: \"z\" data_type: 3 dims: [1, 2, 2, 4] int32_data: [0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3] }" > qdq21.onnx || fail "protoc"
convert qdq21
numpy_check qdq21 "(lambda s, z: (np.clip(np.round(x / s) + z, -128, 127) - z) * s)(np.repeat(np.linspace(0.01, 0.2, 16).reshape(1, 2, 2, 4), 4, axis=2)[:, :, :6], np.repeat(np.array([0, 3] * 8).reshape(1, 2, 2, 4), 4, axis=2)[:, :, :6])"
model 21 'node { op_type: "DequantizeLinear" name: "dqw" input: "w" input: "ws" output: "wf" attribute { name: "axis" type: INT i: 0 } attribute { name: "block_size" type: INT i: 2 } }
  node { op_type: "MatMul" name: "mm" input: "x" input: "wf" output: "y" }
  initializer { name: "w" data_type: 3 dims: [4, 3] int32_data: [12, -7, 100, -128, 5, 0, 33, 127, -64, 9, -2, 71] }
  initializer { name: "ws" data_type: 1 dims: [2, 3] float_data: [0.01, 0.02, 0.03, 0.5, 0.25, 0.125] }' > dqw21.onnx || fail "protoc"
convert dqw21
numpy_check dqw21 "x @ (np.array([12, -7, 100, -128, 5, 0, 33, 127, -64, 9, -2, 71]).reshape(4, 3) * np.repeat(np.array([0.01, 0.02, 0.03, 0.5, 0.25, 0.125]).reshape(2, 3), 2, axis=0))"
# QuantizeLinear-21 output_dtype int8 without a zero point (and DequantizeLinear-23's float32
# output_dtype): x quantized to int8 (negative values kept) and back.
model 23 'node { op_type: "QuantizeLinear" name: "q" input: "x" input: "s" output: "qx" attribute { name: "output_dtype" type: INT i: 3 } }
  node { op_type: "DequantizeLinear" name: "dq" input: "qx" input: "s" output: "y" attribute { name: "output_dtype" type: INT i: 1 } }
  initializer { name: "s" data_type: 1 float_data: [0.05] }' > qod.onnx || fail "protoc"
convert qod
numpy_check qod "np.clip(np.round(x / np.float32(0.05)), -128, 127) * np.float32(0.05)"
# Before their opsets they are no ONNX ops: refused naming node and opset.
model 22 'node { op_type: "RMSNormalization" name: "rms" input: "x" input: "sc" output: "y" }
  initializer { name: "sc" data_type: 1 dims: 4 float_data: [1, 1, 1, 1] }' > rms22.onnx || fail "protoc"
run atc --model=rms22.onnx --framework=5 --output=rms22 --soc_version=Ascend310P3
expect_exit 255
expect_stdout_contains "operator 'RMSNormalization' (node 'rms'): asc-tools reads it from opset 23 on"
expect_no_file rms22.om

refused() {  # refused NAME OPSET NODES FRAGMENT...: E10055 (or the op's own check), no OM
  local name=$1 opset=$2 nodes=$3
  shift 3
  model "$opset" "$nodes" > $name.onnx || fail "protoc"
  run atc --model=$name.onnx --framework=5 --output=$name --soc_version=Ascend310P3
  expect_exit 255
  for f in "$@"; do expect_stdout_contains "$f"; done
  expect_no_file $name.om
}
refused gn21bad 21 'node { op_type: "GroupNormalization" name: "gn" input: "x" input: "sc" input: "bi" output: "y" attribute { name: "num_groups" type: INT i: 1 } }
  initializer { name: "sc" data_type: 1 dims: 1 float_data: [1] }
  initializer { name: "bi" data_type: 1 dims: 1 float_data: [0] }' \
  "node 'gn'" "scale (input 1) has shape [1], expected [2] (one value per channel)"
refused q21 21 'node { op_type: "QuantizeLinear" name: "q" input: "x" input: "s" output: "y" attribute { name: "output_dtype" type: INT i: 6 } }
  initializer { name: "s" data_type: 1 float_data: [0.5] }' "E10055" "output_dtype 6 is not supported (uint8, int8, uint16, int16, uint4, int4 or a float8 type)"
refused q23 23 'node { op_type: "QuantizeLinear" name: "q" input: "x" input: "s" output: "y" attribute { name: "precision" type: INT i: 11 } }
  initializer { name: "s" data_type: 1 float_data: [0.5] }' "E10055" "node 'q'" "precision 11 is not supported"
refused gelux 20 'node { op_type: "Gelu" name: "g" input: "x" output: "y" attribute { name: "approximate" type: STRING s: "sigmoid" } }' "approximate='sigmoid' is not one of Gelu-20's"
refused hps18 18 'node { op_type: "Resize" name: "rs" input: "x" input: "" input: "sc" output: "y" attribute { name: "coordinate_transformation_mode" type: STRING s: "half_pixel_symmetric" } }
  initializer { name: "sc" data_type: 1 dims: 4 float_data: [1, 1, 2, 2] }' "half_pixel_symmetric"
refused wrap18 18 'node { op_type: "Pad" name: "pw" input: "x" input: "pads" output: "y" attribute { name: "mode" type: STRING s: "wrap" } }
  initializer { name: "pads" data_type: 7 dims: 8 int64_data: [0, 0, 1, 1, 0, 0, 1, 1] }' "mode 'wrap' is not one of Pad-2's"
model 20 'node { op_type: "ImageDecoder" name: "dec" input: "x" output: "y" }' > dec.onnx || fail "protoc"
run atc --model=dec.onnx --framework=5 --output=dec --soc_version=Ascend310P3
expect_exit 255
expect_stdout_contains "E2002"
expect_stdout_contains "'dec'"
expect_no_file dec.om
refused o25 25 'node { op_type: "Relu" name: "r" input: "x" output: "y" }' "E10055" "opset 25" "to 24"
