#!/usr/bin/env python3
"""tf_case.py: TensorFlow GraphDefs (text format, for `protoc --encode=tensorflow.GraphDef`) and
their numpy references, for the TensorFlow frontend's CLI tests (tests/cli/atc/tf-*.sh). No
TensorFlow is needed: the references implement TensorFlow's op definitions (NHWC, SAME padding
with the odd pixel at the end, average pooling that leaves padding out of the count, ...).

  tf_case.py mobilenet DIR   DIR/model.pbtxt: a MobileNet-like block on a [1, 32, 32, 3] NHWC
                             input (Conv2D, FusedBatchNormV3, Relu6, DepthwiseConv2dNative,
                             residual AddV2, per-channel Mul, BiasAdd, AvgPool, Mean, Reshape,
                             MatMul, Softmax); DIR/x.npy its input, DIR/ref0.npy its output
  tf_case.py shapes DIR      DIR/model.pbtxt: a graph of shape and data-movement ops (Shape /
                             StridedSlice / Pack chains, masks, Conv2DBackpropInput, resizes,
                             pads (MirrorPad REFLECT and SYMMETRIC), splits, BatchMatMulV2,
                             reductions); DIR/x.npy, DIR/refK.npy
  tf_case.py extra DIR       DIR/model.pbtxt: LRN, DepthToSpace, SpaceToDepth, ArgMax, LogSoftmax,
                             GatherV2, Tile, Greater and SelectV2; DIR/x.npy, DIR/refK.npy
  tf_case.py check OUT.bin REF.npy
                             cosine >= 0.99999 and max|diff| <= 1e-4 * max|ref|, or exit 1
"""
import sys

import numpy as np

rng = np.random.default_rng(20240613)


# --- GraphDef text -----------------------------------------------------------------------------

def esc(data):
    return "".join("\\%03o" % b for b in data)


def attr_text(key, v):
    kind, val = v
    if kind == "type":
        body = f"type: {val}"
    elif kind == "s":
        body = f's: "{val}"'
    elif kind == "b":
        body = f"b: {'true' if val else 'false'}"
    elif kind == "i":
        body = f"i: {val}"
    elif kind == "f":
        body = f"f: {val!r}"
    elif kind == "ints":
        body = "list { " + " ".join(f"i: {x}" for x in val) + " }"
    elif kind == "shape":
        body = "shape { " + " ".join(f"dim {{ size: {d} }}" for d in val) + " }"
    else:
        raise ValueError(kind)
    return f'attr {{ key: "{key}" value {{ {body} }} }}'


class Graph:
    def __init__(self):
        self.lines = ["versions { producer: 1087 }"]

    def node(self, name, op, inputs=(), **attrs):
        ins = " ".join(f'input: "{i}"' for i in inputs)
        ats = " ".join(attr_text(k, v) for k, v in attrs.items())
        self.lines.append(f'node {{ name: "{name}" op: "{op}" {ins} {ats} }}')
        return name

    def const(self, name, arr, content=True):
        arr = np.asarray(arr)
        if arr.dtype == np.float32:
            dt, field = "DT_FLOAT", "float_val"
        elif arr.dtype == np.int32:
            dt, field = "DT_INT32", "int_val"
        elif arr.dtype == np.int64:
            dt, field = "DT_INT64", "int64_val"
        else:
            raise ValueError(arr.dtype)
        dims = " ".join(f"dim {{ size: {d} }}" for d in arr.shape)
        if content and arr.size > 1:
            vals = f'tensor_content: "{esc(arr.tobytes())}"'
        else:
            vals = " ".join(f"{field}: {v!r}" for v in arr.ravel().tolist())
        t = f"tensor {{ dtype: {dt} tensor_shape {{ {dims} }} {vals} }}"
        self.lines.append(
            f'node {{ name: "{name}" op: "Const" {attr_text("dtype", ("type", dt))} '
            f'attr {{ key: "value" value {{ {t} }} }} }}')
        return name

    def text(self):
        return "\n".join(self.lines) + "\n"


F = ("type", "DT_FLOAT")


def w(*shape, scale=0.3):
    return rng.normal(0, scale, shape).astype(np.float32)


# --- numpy references (NHWC, float64) ----------------------------------------------------------

def same_pads(n, k, s, d=1):
    out = -(-n // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
    return total // 2, total - total // 2


def pad_hw(x, kh, kw, s, padding, value=0.0):
    if padding == "VALID":
        return x
    ph, pw = same_pads(x.shape[1], kh, s), same_pads(x.shape[2], kw, s)
    return np.pad(x, ((0, 0), ph, pw, (0, 0)), constant_values=value)


def windows(x, kh, kw, s):
    n, h, wd, c = x.shape
    oh, ow = (h - kh) // s + 1, (wd - kw) // s + 1
    for i in range(kh):
        for j in range(kw):
            yield i, j, x[:, i:i + s * (oh - 1) + 1:s, j:j + s * (ow - 1) + 1:s, :]


def conv2d(x, f, s, padding):
    kh, kw, ci, co = f.shape
    x = pad_hw(x, kh, kw, s, padding)
    out = 0
    for i, j, p in windows(x, kh, kw, s):
        out = out + np.einsum("nhwc,cd->nhwd", p, f[i, j].astype(np.float64))
    return out


def depthwise(x, f, s, padding):
    kh, kw, ci, m = f.shape
    x = pad_hw(x, kh, kw, s, padding)
    out = 0
    for i, j, p in windows(x, kh, kw, s):
        out = out + (p[..., :, None] * f[i, j]).reshape(p.shape[:3] + (ci * m,))
    return out


def batchnorm(x, scale, offset, mean, var, eps):
    return (x - mean) / np.sqrt(var + eps) * scale + offset


def avgpool(x, k, s, padding):
    xs = pad_hw(x, k, k, s, padding)
    ones = pad_hw(np.ones_like(x), k, k, s, padding)
    total = sum(p for _, _, p in windows(xs, k, k, s))
    count = sum(p for _, _, p in windows(ones, k, k, s))
    return total / count


def maxpool(x, k, s, padding):
    xs = pad_hw(x, k, k, s, padding, value=-np.inf)
    return np.max(np.stack([p for _, _, p in windows(xs, k, k, s)]), axis=0)


def relu6(x):
    return np.clip(x, 0, 6)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def conv2d_transpose(x, f, out_hw, s, padding):
    """Conv2DBackpropInput: f [kh, kw, out_c, in_c], x [n, h, w, in_c]."""
    kh, kw, oc, ic = f.shape
    n, h, wd, _ = x.shape
    full = np.zeros((n, (h - 1) * s + kh, (wd - 1) * s + kw, oc))
    for i in range(kh):
        for j in range(kw):
            full[:, i:i + s * (h - 1) + 1:s, j:j + s * (wd - 1) + 1:s, :] += np.einsum(
                "nhwc,dc->nhwd", x, f[i, j].astype(np.float64))
    pt = same_pads(out_hw[0], kh, s)[0] if padding == "SAME" else 0
    pl = same_pads(out_hw[1], kw, s)[0] if padding == "SAME" else 0
    return full[:, pt:pt + out_hw[0], pl:pl + out_hw[1], :]


def resize_bilinear_half_pixel(x, oh, ow):
    n, h, wd, c = x.shape

    def axis(o, i):
        src = (np.arange(o) + 0.5) * (i / o) - 0.5
        lo = np.floor(src).astype(int)
        frac = src - lo
        return np.clip(lo, 0, i - 1), np.clip(lo + 1, 0, i - 1), frac

    y0, y1, fy = axis(oh, h)
    x0, x1, fx = axis(ow, wd)
    top = x[:, y0][:, :, x0] * (1 - fx)[None, None, :, None] + x[:, y0][:, :, x1] * fx[None, None, :, None]
    bot = x[:, y1][:, :, x0] * (1 - fx)[None, None, :, None] + x[:, y1][:, :, x1] * fx[None, None, :, None]
    return top * (1 - fy)[None, :, None, None] + bot * fy[None, :, None, None]


def resize_nearest(x, oh, ow):
    n, h, wd, c = x.shape
    ys = np.minimum(np.floor(np.arange(oh) * (h / oh)).astype(int), h - 1)
    xs = np.minimum(np.floor(np.arange(ow) * (wd / ow)).astype(int), wd - 1)
    return x[:, ys][:, :, xs]


def elu(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- models ------------------------------------------------------------------------------------

def mobilenet(out_dir):
    g = Graph()
    x = rng.normal(0, 1, (1, 32, 32, 3)).astype(np.float32)
    g.node("input", "Placeholder", dtype=F, shape=("shape", [1, 32, 32, 3]))

    def bn_params(c):
        return (rng.uniform(0.5, 1.5, c).astype(np.float32), w(c, scale=0.1),
                w(c, scale=0.1), rng.uniform(0.5, 2.0, c).astype(np.float32))

    # conv0: 3x3 stride 2 SAME, 3 -> 16, FusedBatchNormV3, Relu6
    f0 = w(3, 3, 3, 16)
    bn0 = bn_params(16)
    g.const("conv0/weights", f0)
    g.node("conv0/Conv2D", "Conv2D", ["input", "conv0/weights"], T=F, strides=("ints", [1, 2, 2, 1]),
           padding=("s", "SAME"), data_format=("s", "NHWC"))
    for k, v in zip(["gamma", "beta", "mean", "variance"], bn0):
        g.const(f"conv0/bn/{k}", v, content=False)
    g.node("conv0/bn/FusedBatchNormV3", "FusedBatchNormV3",
           ["conv0/Conv2D"] + [f"conv0/bn/{k}" for k in ["gamma", "beta", "mean", "variance"]],
           T=F, U=F, epsilon=("f", 0.001), is_training=("b", False), data_format=("s", "NHWC"))
    g.node("conv0/Relu6", "Relu6", ["conv0/bn/FusedBatchNormV3"], T=F)
    r = conv2d(x.astype(np.float64), f0, 2, "SAME")
    r0 = relu6(batchnorm(r, *bn0[:2], *bn0[2:], 0.001))

    # dw1: depthwise 3x3 stride 1 SAME, BN, Relu6, then a residual AddV2 and a per-channel Mul
    f1 = w(3, 3, 16, 1)
    bn1 = bn_params(16)
    g.const("dw1/depthwise_weights", f1)
    g.node("dw1/depthwise", "DepthwiseConv2dNative", ["conv0/Relu6", "dw1/depthwise_weights"], T=F,
           strides=("ints", [1, 1, 1, 1]), padding=("s", "SAME"), data_format=("s", "NHWC"),
           dilations=("ints", [1, 1, 1, 1]))
    for k, v in zip(["gamma", "beta", "mean", "variance"], bn1):
        g.const(f"dw1/bn/{k}", v)
    g.node("dw1/bn/FusedBatchNormV3", "FusedBatchNormV3",
           ["dw1/depthwise"] + [f"dw1/bn/{k}" for k in ["gamma", "beta", "mean", "variance"]],
           T=F, U=F, epsilon=("f", 0.001), is_training=("b", False))
    g.node("dw1/Relu6", "Relu6", ["dw1/bn/FusedBatchNormV3"], T=F)
    g.node("dw1/add", "AddV2", ["dw1/Relu6", "conv0/Relu6"], T=F)
    scale = rng.uniform(0.5, 1.5, 16).astype(np.float32)
    g.const("dw1/scale", scale)
    g.node("dw1/mul", "Mul", ["dw1/add", "dw1/scale"], T=F)
    r = depthwise(r0, f1, 1, "SAME")
    r1 = (relu6(batchnorm(r, *bn1[:2], *bn1[2:], 0.001)) + r0) * scale

    # pw1: 1x1 conv 16 -> 32, BiasAdd, Relu6
    f2 = w(1, 1, 16, 32)
    b2 = w(32, scale=0.1)
    g.const("pw1/weights", f2)
    g.const("pw1/biases", b2)
    g.node("pw1/Conv2D", "Conv2D", ["dw1/mul", "pw1/weights"], T=F, strides=("ints", [1, 1, 1, 1]),
           padding=("s", "VALID"))
    g.node("pw1/BiasAdd", "BiasAdd", ["pw1/Conv2D", "pw1/biases"], T=F, data_format=("s", "NHWC"))
    g.node("pw1/Relu6", "Relu6", ["pw1/BiasAdd"], T=F)
    r2 = relu6(conv2d(r1, f2, 1, "VALID") + b2)

    # dw2: depthwise 3x3 stride 2 SAME with multiplier 2 (32 -> 64), BiasAdd, Relu
    f3 = w(3, 3, 32, 2)
    b3 = w(64, scale=0.1)
    g.const("dw2/depthwise_weights", f3)
    g.const("dw2/biases", b3)
    g.node("dw2/depthwise", "DepthwiseConv2dNative", ["pw1/Relu6", "dw2/depthwise_weights"], T=F,
           strides=("ints", [1, 2, 2, 1]), padding=("s", "SAME"))
    g.node("dw2/BiasAdd", "BiasAdd", ["dw2/depthwise", "dw2/biases"], T=F)
    g.node("dw2/Relu", "Relu", ["dw2/BiasAdd"], T=F)
    r3 = np.maximum(depthwise(r2, f3, 2, "SAME") + b3, 0)

    # AvgPool 3x3 stride 2 SAME (8 -> 4; edge windows count only real pixels), Mean over H, W
    g.node("pool/AvgPool", "AvgPool", ["dw2/Relu"], T=F, ksize=("ints", [1, 3, 3, 1]),
           strides=("ints", [1, 2, 2, 1]), padding=("s", "SAME"), data_format=("s", "NHWC"))
    g.const("pool/reduction_indices", np.array([1, 2], np.int32))
    g.node("pool/Mean", "Mean", ["pool/AvgPool", "pool/reduction_indices"], T=F,
           keep_dims=("b", True), Tidx=("type", "DT_INT32"))
    r4 = avgpool(r3, 3, 2, "SAME").mean(axis=(1, 2), keepdims=True)

    # logits: Reshape [-1, 64], MatMul [64, 10], BiasAdd, Softmax
    g.const("logits/shape", np.array([-1, 64], np.int32))
    g.node("logits/Reshape", "Reshape", ["pool/Mean", "logits/shape"], T=F,
           Tshape=("type", "DT_INT32"))
    fw = w(64, 10)
    fb = w(10, scale=0.1)
    g.const("logits/weights", fw)
    g.const("logits/biases", fb)
    g.node("logits/MatMul", "MatMul", ["logits/Reshape", "logits/weights"], T=F,
           transpose_a=("b", False), transpose_b=("b", False))
    g.node("logits/BiasAdd", "BiasAdd", ["logits/MatMul", "logits/biases"], T=F)
    g.node("predictions", "Softmax", ["logits/BiasAdd", "^pool/Mean"], T=F)
    ref = softmax(r4.reshape(-1, 64) @ fw + fb)
    # An unrelated training leftover: a NoOp with a control input.
    g.node("init", "NoOp", ["^logits/weights"])

    open(f"{out_dir}/model.pbtxt", "w").write(g.text())
    np.save(f"{out_dir}/x.npy", x)
    np.save(f"{out_dir}/ref0.npy", ref.astype(np.float32))
    # References of inner nodes, for --out_nodes (NHWC, as TensorFlow gives them).
    np.save(f"{out_dir}/ref_dw1_mul.npy", r1.astype(np.float32))
    np.save(f"{out_dir}/ref_pool.npy", r4.astype(np.float32))


def shapes(out_dir):
    g = Graph()
    x = rng.normal(0, 1, (2, 6, 8, 4)).astype(np.float32)
    xd = x.astype(np.float64)
    # The batch is unknown in the model: the test gives it with --input_shape.
    g.node("x", "Placeholder", dtype=F, shape=("shape", [-1, 6, 8, 4]))
    refs = []

    # 0: Shape -> StridedSlice (shrink) -> Pack -> Reshape [batch, -1], then Rsqrt(Square + 1)
    g.node("flat/Shape", "Shape", ["x"], T=F, out_type=("type", "DT_INT32"))
    for n, v in [("begin", [0]), ("end", [1]), ("strides", [1])]:
        g.const(f"flat/{n}", np.array(v, np.int32), content=False)
    g.node("flat/batch", "StridedSlice", ["flat/Shape", "flat/begin", "flat/end", "flat/strides"],
           T=("type", "DT_INT32"), Index=("type", "DT_INT32"), shrink_axis_mask=("i", 1),
           begin_mask=("i", 0), end_mask=("i", 0), ellipsis_mask=("i", 0), new_axis_mask=("i", 0))
    g.const("flat/minus1", np.array(-1, np.int32))
    g.node("flat/shape", "Pack", ["flat/batch", "flat/minus1"], T=("type", "DT_INT32"), N=("i", 2),
           axis=("i", 0))
    g.node("flat/Reshape", "Reshape", ["x", "flat/shape"], T=F)
    g.node("flat/Square", "Square", ["flat/Reshape"], T=F)
    g.const("flat/one", np.array(1.0, np.float32))
    g.node("flat/add", "AddV2", ["flat/Square", "flat/one"], T=F)
    g.node("out_flat", "Rsqrt", ["flat/add"], T=F)
    refs.append(1 / np.sqrt(xd.reshape(2, -1) ** 2 + 1))

    # 1: x[:, 1:5:2, ..., ::-1] (begin/end masks, ellipsis, negative stride)
    g.const("s1/begin", np.array([0, 1, 0, 0], np.int32))
    g.const("s1/end", np.array([0, 5, 0, 0], np.int32))
    g.const("s1/strides", np.array([1, 2, 1, -1], np.int32))
    g.node("out_slice1", "StridedSlice", ["x", "s1/begin", "s1/end", "s1/strides"], T=F,
           Index=("type", "DT_INT32"), begin_mask=("i", 9), end_mask=("i", 9),
           ellipsis_mask=("i", 4), new_axis_mask=("i", 0), shrink_axis_mask=("i", 0))
    refs.append(xd[:, 1:5:2, ..., ::-1])

    # 2: x[:, newaxis, 2, :, 1] (new axis and two shrunk dims), then Elu
    g.const("s2/begin", np.array([0, 0, 2, 0, 1], np.int32))
    g.const("s2/end", np.array([0, 0, 3, 0, 2], np.int32))
    g.const("s2/strides", np.array([1, 1, 1, 1, 1], np.int32))
    g.node("s2/slice", "StridedSlice", ["x", "s2/begin", "s2/end", "s2/strides"], T=F,
           Index=("type", "DT_INT32"), begin_mask=("i", 9), end_mask=("i", 9),
           ellipsis_mask=("i", 0), new_axis_mask=("i", 2), shrink_axis_mask=("i", 20))
    g.node("out_slice2", "Elu", ["s2/slice"], T=F)
    refs.append(elu(xd[:, None, 2, :, 1]))

    # 3: Conv2DBackpropInput (stride 2, SAME, 4 -> 5 channels) -> MaxPool 2x2 VALID ->
    #    ResizeBilinear (half-pixel) to 9x11
    fd = w(3, 3, 5, 4)
    g.const("up/input_sizes", np.array([2, 12, 16, 5], np.int32))
    g.const("up/filter", fd)
    g.node("up/conv_t", "Conv2DBackpropInput", ["up/input_sizes", "up/filter", "x"], T=F,
           strides=("ints", [1, 2, 2, 1]), padding=("s", "SAME"), data_format=("s", "NHWC"))
    g.node("up/pool", "MaxPool", ["up/conv_t"], T=F, ksize=("ints", [1, 2, 2, 1]),
           strides=("ints", [1, 2, 2, 1]), padding=("s", "VALID"))
    g.const("up/size", np.array([9, 11], np.int32))
    g.node("out_resize", "ResizeBilinear", ["up/pool", "up/size"], T=F,
           align_corners=("b", False), half_pixel_centers=("b", True))
    up = maxpool(conv2d_transpose(xd, fd, (12, 16), 2, "SAME"), 2, 2, "VALID")
    refs.append(resize_bilinear_half_pixel(up, 9, 11))

    # 4: ResizeNearestNeighbor of x to 12x16 (asymmetric, floor), Sigmoid, Mean over C
    g.const("nn/size", np.array([12, 16], np.int32))
    g.node("nn/resize", "ResizeNearestNeighbor", ["x", "nn/size"], T=F,
           align_corners=("b", False), half_pixel_centers=("b", False))
    g.node("nn/sigmoid", "Sigmoid", ["nn/resize"], T=F)
    g.const("nn/axis", np.array([-1], np.int32), content=False)
    g.node("out_nearest", "Mean", ["nn/sigmoid", "nn/axis"], T=F, keep_dims=("b", False))
    refs.append(sigmoid(resize_nearest(xd, 12, 16)).mean(axis=-1))

    # 5: MirrorPad -> Slice -> Split -> ConcatV2(Sigmoid, Tanh, Elu) -> Transpose ->
    #    BatchMatMulV2(adj_y) -> Max -> ExpandDims -> Squeeze -> Minimum/Maximum ->
    #    RealDiv/Sub -> PadV2
    g.const("m/paddings", np.array([[0, 0], [1, 1], [2, 2], [0, 0]], np.int32))
    g.node("m/mirror", "MirrorPad", ["x", "m/paddings"], T=F, mode=("s", "REFLECT"))
    g.const("m/begin", np.array([0, 1, 1, 0], np.int32))
    g.const("m/size", np.array([-1, 6, 10, -1], np.int32))
    g.node("m/slice", "Slice", ["m/mirror", "m/begin", "m/size"], T=F, Index=("type", "DT_INT32"))
    g.const("m/split_dim", np.array(3, np.int32))
    g.node("m/split", "Split", ["m/split_dim", "m/slice"], T=F, num_split=("i", 2))
    g.node("m/sig", "Sigmoid", ["m/split"], T=F)
    g.node("m/tanh", "Tanh", ["m/split:1"], T=F)
    g.node("m/elu", "Elu", ["m/split:0"], T=F)
    g.const("m/axis", np.array(-1, np.int32))
    g.node("m/concat", "ConcatV2", ["m/sig", "m/tanh", "m/elu", "m/axis"], T=F, N=("i", 3))
    g.const("m/perm", np.array([0, 3, 1, 2], np.int32))
    g.node("m/transpose", "Transpose", ["m/concat", "m/perm"], T=F)
    g.node("m/bmm", "BatchMatMulV2", ["m/transpose", "m/transpose"], T=F, adj_x=("b", False),
           adj_y=("b", True))
    g.const("m/max_axis", np.array([3], np.int32))
    g.node("m/max", "Max", ["m/bmm", "m/max_axis"], T=F, keep_dims=("b", False))
    g.const("m/dim", np.array(-1, np.int32))
    g.node("m/expand", "ExpandDims", ["m/max", "m/dim"], T=F)
    g.node("m/squeeze", "Squeeze", ["m/expand"], T=F, squeeze_dims=("ints", [3]))
    g.const("m/hi", np.array(3.0, np.float32))
    g.const("m/lo", np.array(-3.0, np.float32))
    g.node("m/min", "Minimum", ["m/squeeze", "m/hi"], T=F)
    g.node("m/maxi", "Maximum", ["m/min", "m/lo"], T=F)
    g.const("m/two", np.array(2.0, np.float32))
    g.node("m/div", "RealDiv", ["m/maxi", "m/two"], T=F)
    g.node("m/sub", "Sub", ["m/div", "m/two"], T=F)
    g.const("m/pads", np.array([[0, 0], [1, 0], [0, 1]], np.int32))
    g.const("m/value", np.array(0.5, np.float32))
    g.node("out_misc", "PadV2", ["m/sub", "m/pads", "m/value"], T=F)
    p = np.pad(xd, ((0, 0), (1, 1), (2, 2), (0, 0)), mode="reflect")[:, 1:7, 1:11, :]
    a, b = p[..., :2], p[..., 2:]
    cc = np.concatenate([sigmoid(a), np.tanh(b), elu(a)], axis=-1).transpose(0, 3, 1, 2)
    mm = cc @ cc.transpose(0, 1, 3, 2)
    v = np.maximum(np.minimum(mm.max(axis=3), 3.0), -3.0) / 2.0 - 2.0
    refs.append(np.pad(v, ((0, 0), (1, 0), (0, 1)), constant_values=0.5))

    # 6: MirrorPad SYMMETRIC (edges repeated) on three dims
    g.const("sym/paddings", np.array([[0, 0], [2, 1], [0, 3], [1, 0]], np.int32))
    g.node("out_symmetric", "MirrorPad", ["x", "sym/paddings"], T=F, mode=("s", "SYMMETRIC"))
    refs.append(np.pad(xd, ((0, 0), (2, 1), (0, 3), (1, 0)), mode="symmetric"))

    open(f"{out_dir}/model.pbtxt", "w").write(g.text())
    np.save(f"{out_dir}/x.npy", x)
    for i, r in enumerate(refs):
        np.save(f"{out_dir}/ref{i}.npy", r.astype(np.float32))


def extra(out_dir):
    g = Graph()
    x = rng.normal(0, 1, (1, 6, 6, 8)).astype(np.float32)
    xd = x.astype(np.float64)
    g.node("x", "Placeholder", dtype=F, shape=("shape", [1, 6, 6, 8]))
    refs = []
    # 0: LRN (depth_radius 2)
    g.node("out_lrn", "LRN", ["x"], T=F, depth_radius=("i", 2), bias=("f", 1.0), alpha=("f", 0.1),
           beta=("f", 0.75))
    sq = np.pad(xd ** 2, ((0, 0), (0, 0), (0, 0), (2, 2)))
    refs.append(xd / (1.0 + 0.1 * sum(sq[..., k:k + 8] for k in range(5))) ** 0.75)
    # 1, 2: DepthToSpace 2, SpaceToDepth 3 (NHWC)
    g.node("out_d2s", "DepthToSpace", ["x"], T=F, block_size=("i", 2))
    refs.append(xd.reshape(1, 6, 6, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(1, 12, 12, 2))
    g.node("out_s2d", "SpaceToDepth", ["x"], T=F, block_size=("i", 3))
    refs.append(xd.reshape(1, 2, 3, 2, 3, 8).transpose(0, 1, 3, 2, 4, 5).reshape(1, 2, 2, 72))
    # 3: ArgMax over channels (int32), cast to float
    g.const("e/shape", np.array([36, 8], np.int32))
    g.node("e/rows", "Reshape", ["x", "e/shape"], T=F)
    g.const("e/dim", np.array(1, np.int32))
    g.node("e/argmax", "ArgMax", ["e/rows", "e/dim"], T=F, output_type=("type", "DT_INT32"))
    g.node("out_argmax", "Cast", ["e/argmax"], SrcT=("type", "DT_INT32"), DstT=F)
    rows = xd.reshape(36, 8)
    refs.append(rows.argmax(axis=1).astype(np.float64))
    # 4: LogSoftmax
    g.node("out_logsoftmax", "LogSoftmax", ["e/rows"], T=F)
    refs.append(np.log(softmax(rows)))
    # 5: GatherV2 of columns [3, 0, 5], Tile [1, 2]
    g.const("e/indices", np.array([3, 0, 5], np.int32))
    g.const("e/axis", np.array(1, np.int32))
    g.node("e/gather", "GatherV2", ["e/rows", "e/indices", "e/axis"], Tparams=F)
    g.const("e/multiples", np.array([1, 2], np.int32))
    g.node("out_tile", "Tile", ["e/gather", "e/multiples"], T=F)
    refs.append(np.tile(rows[:, [3, 0, 5]], (1, 2)))
    # 6: SelectV2(x > 0, x, 0.1 x)
    g.const("e/zero", np.array(0.0, np.float32))
    g.node("e/positive", "Greater", ["x", "e/zero"], T=F)
    g.const("e/tenth", np.array(0.1, np.float32))
    g.node("e/scaled", "Mul", ["x", "e/tenth"], T=F)
    g.node("out_select", "SelectV2", ["e/positive", "x", "e/scaled"], T=F)
    refs.append(np.where(xd > 0, xd, 0.1 * xd))

    open(f"{out_dir}/model.pbtxt", "w").write(g.text())
    np.save(f"{out_dir}/x.npy", x)
    for i, r in enumerate(refs):
        np.save(f"{out_dir}/ref{i}.npy", r.astype(np.float32))


def check(out_bin, ref_npy):
    ref = np.load(ref_npy).astype(np.float64).ravel()
    out = np.fromfile(out_bin, np.float32).astype(np.float64)
    if out.size != ref.size:
        print(f"{out_bin}: {out.size} values, the reference has {ref.size}")
        return 1
    cos = float(out @ ref / (np.linalg.norm(out) * np.linalg.norm(ref) + 1e-30))
    diff = float(np.max(np.abs(out - ref)))
    bound = 1e-4 * float(np.max(np.abs(ref)))
    print(f"{out_bin}: cosine {cos:.8f}, max|diff| {diff:.3e} (bound {bound:.3e})")
    return 0 if cos >= 0.99999 and diff <= bound else 1


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "mobilenet":
        mobilenet(sys.argv[2])
    elif cmd == "shapes":
        shapes(sys.argv[2])
    elif cmd == "extra":
        extra(sys.argv[2])
    elif cmd == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(f"unknown command {cmd}")
