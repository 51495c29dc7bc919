#!/usr/bin/env python3
"""Caffe test models for the atc Caffe frontend, with an independent numpy reference.

No Caffe can be installed here, so each net is described below as a list of layers, written as
a deploy .prototxt (current or V1 form), and its random weights are protoc-encoded into a
.caffemodel through the project's caffe.proto. The numpy forward pass follows Caffe's own
formulas (pooling rounding and divisors, BatchNorm's scale factor, LRN across channels ...).

  caffe_case.py model NAME OUTDIR     NAME.prototxt, NAME.caffemodel, NAME.input.npy,
                                       NAME.ref.npy (the net output) and golden/<layer>.npy
  caffe_case.py compare OUT.bin REF.npy   cosine >= 0.99999, max|diff| <= 1e-4 * max|ref|
"""
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTO_DIR = os.path.join(ROOT, "libasccore", "src", "proto")


# ---- nets: (type, name, bottoms, tops, params, blob shapes) ----------------------------------

def lenet():
    return dict(input=("data", [1, 1, 28, 28]), layers=[
        ("Convolution", "conv1", ["data"], ["conv1"], "convolution_param { num_output: 8 kernel_size: 5 stride: 1 }",
         dict(num_output=8, k=(5, 5), s=(1, 1), p=(0, 0), d=(1, 1), group=1, bias=True)),
        ("Pooling", "pool1", ["conv1"], ["pool1"], "pooling_param { pool: MAX kernel_size: 2 stride: 2 }",
         dict(pool="MAX", k=(2, 2), s=(2, 2), p=(0, 0))),
        ("Convolution", "conv2", ["pool1"], ["conv2"], "convolution_param { num_output: 16 kernel_size: 5 }",
         dict(num_output=16, k=(5, 5), s=(1, 1), p=(0, 0), d=(1, 1), group=1, bias=True)),
        ("Pooling", "pool2", ["conv2"], ["pool2"], "pooling_param { pool: MAX kernel_size: 2 stride: 2 }",
         dict(pool="MAX", k=(2, 2), s=(2, 2), p=(0, 0))),
        ("InnerProduct", "ip1", ["pool2"], ["ip1"], "inner_product_param { num_output: 64 }",
         dict(num_output=64, bias=True)),
        ("ReLU", "relu1", ["ip1"], ["ip1"], "", {}),
        ("InnerProduct", "ip2", ["ip1"], ["ip2"], "inner_product_param { num_output: 10 }",
         dict(num_output=10, bias=True)),
        ("Softmax", "prob", ["ip2"], ["prob"], "", dict(axis=1)),
    ])


def alexnet():
    conv = lambda n, k, s, p, g=1, d=1: dict(num_output=n, k=(k, k), s=(s, s), p=(p, p), d=(d, d), group=g, bias=True)
    return dict(input=("data", [1, 3, 67, 67]), layers=[
        ("Convolution", "conv1", ["data"], ["conv1"],
         "convolution_param { num_output: 16 kernel_size: 11 stride: 4 pad: 2 }", conv(16, 11, 4, 2)),
        ("BatchNorm", "bn1", ["conv1"], ["conv1"], "batch_norm_param { use_global_stats: true eps: 1e-5 }", dict(eps=1e-5)),
        ("Scale", "scale1", ["conv1"], ["conv1"], "scale_param { bias_term: true }", dict(bias=True)),
        ("ReLU", "relu1", ["conv1"], ["conv1"], "", {}),
        ("LRN", "norm1", ["conv1"], ["norm1"], "lrn_param { local_size: 5 alpha: 0.0001 beta: 0.75 }",
         dict(n=5, alpha=1e-4, beta=0.75, k=1.0)),
        ("Pooling", "pool1", ["norm1"], ["pool1"], "pooling_param { pool: MAX kernel_size: 3 stride: 2 }",
         dict(pool="MAX", k=(3, 3), s=(2, 2), p=(0, 0))),
        ("Convolution", "conv2", ["pool1"], ["conv2"],
         "convolution_param { num_output: 32 pad: 2 kernel_size: 5 group: 2 }", conv(32, 5, 1, 2, g=2)),
        ("BatchNorm", "bn2", ["conv2"], ["bn2"], "batch_norm_param { eps: 0.001 }", dict(eps=1e-3)),
        ("Scale", "scale2", ["bn2"], ["scale2"], "scale_param { bias_term: true }", dict(bias=True)),
        ("ReLU", "relu2", ["scale2"], ["scale2"], "relu_param { negative_slope: 0.1 }", dict(slope=0.1)),
        ("Convolution", "conv3", ["scale2"], ["conv3"],
         "convolution_param { num_output: 32 pad_h: 2 pad_w: 2 kernel_h: 3 kernel_w: 3 dilation: 2 }",
         dict(num_output=32, k=(3, 3), s=(1, 1), p=(2, 2), d=(2, 2), group=1, bias=True)),
        ("Eltwise", "sum3", ["conv3", "scale2"], ["sum3"], "eltwise_param { operation: SUM coeff: 1 coeff: 0.5 }",
         dict(op="SUM", coeff=[1.0, 0.5])),
        ("ReLU", "relu3", ["sum3"], ["sum3"], "", {}),
        ("Pooling", "pool2", ["sum3"], ["pool2"], "pooling_param { pool: AVE kernel_size: 3 stride: 2 pad: 1 }",
         dict(pool="AVE", k=(3, 3), s=(2, 2), p=(1, 1))),
        ("Convolution", "conv4", ["pool2"], ["conv4"],
         "convolution_param { num_output: 32 kernel_size: 1 bias_term: false }",
         dict(num_output=32, k=(1, 1), s=(1, 1), p=(0, 0), d=(1, 1), group=1, bias=False)),
        ("Eltwise", "prod4", ["conv4", "pool2"], ["prod4"], "eltwise_param { operation: PROD }", dict(op="PROD")),
        ("Eltwise", "max4", ["prod4", "pool2"], ["max4"], "eltwise_param { operation: MAX }", dict(op="MAX")),
        ("Concat", "concat4", ["max4", "conv4"], ["concat4"], "concat_param { axis: 1 }", dict(axis=1)),
        ("Pooling", "pool3", ["concat4"], ["pool3"], "pooling_param { pool: AVE kernel_size: 3 stride: 2 }",
         dict(pool="AVE", k=(3, 3), s=(2, 2), p=(0, 0))),
        ("InnerProduct", "fc6", ["pool3"], ["fc6"], "inner_product_param { num_output: 64 }", dict(num_output=64, bias=True)),
        ("ReLU", "relu6", ["fc6"], ["fc6"], "", {}),
        ("Dropout", "drop6", ["fc6"], ["fc6"], "dropout_param { dropout_ratio: 0.5 }", {}),
        ("InnerProduct", "fc7", ["fc6"], ["fc7"], "inner_product_param { num_output: 10 }", dict(num_output=10, bias=True)),
        ("Softmax", "prob", ["fc7"], ["prob"], "", dict(axis=1)),
    ])


V1_TYPES = {"Convolution": "CONVOLUTION", "ReLU": "RELU", "Pooling": "POOLING", "InnerProduct": "INNER_PRODUCT",
            "Sigmoid": "SIGMOID", "TanH": "TANH", "Power": "POWER", "Slice": "SLICE", "Concat": "CONCAT",
            "Eltwise": "ELTWISE", "Flatten": "FLATTEN", "Softmax": "SOFTMAX", "AbsVal": "ABSVAL", "Exp": "EXP"}


def v1net():
    return dict(v1=True, input=("data", [2, 3, 12, 12]), layers=[
        ("Convolution", "conv1", ["data"], ["conv1"],
         "convolution_param { num_output: 8 kernel_size: 3 stride: 2 pad: 1 }",
         dict(num_output=8, k=(3, 3), s=(2, 2), p=(1, 1), d=(1, 1), group=1, bias=True)),
        ("ReLU", "relu1", ["conv1"], ["conv1"], "", {}),
        ("Slice", "slice1", ["conv1"], ["a", "b"], "slice_param { axis: 1 slice_point: 3 }", dict(axis=1, points=[3])),
        ("Sigmoid", "sig", ["a"], ["a_sig"], "", {}),
        ("TanH", "tanh", ["b"], ["b_tanh"], "", {}),
        ("Power", "pow", ["b"], ["b_pow"], "power_param { power: 2 scale: 0.5 shift: 1 }", dict(power=2.0, scale=0.5, shift=1.0)),
        ("Eltwise", "sum", ["b_tanh", "b_pow"], ["b_sum"], "eltwise_param { operation: SUM }", dict(op="SUM")),
        ("Concat", "cat", ["a_sig", "b_sum"], ["cat"], "concat_param { concat_dim: 1 }", dict(axis=1)),
        ("Pooling", "pool", ["cat"], ["pool"], "pooling_param { pool: AVE kernel_size: 2 stride: 2 }",
         dict(pool="AVE", k=(2, 2), s=(2, 2), p=(0, 0))),
        ("Flatten", "flat", ["pool"], ["flat"], "", {}),
        ("InnerProduct", "fc", ["flat"], ["fc"], "inner_product_param { num_output: 5 }", dict(num_output=5, bias=True)),
        ("Softmax", "prob", ["fc"], ["prob"], "", dict(axis=1)),
    ])


def misc():
    return dict(input=("data", [1, 4, 10, 10]), outputs=["flat", "am"], layers=[
        ("Convolution", "conv0", ["data"], ["conv0"], "convolution_param { num_output: 6 kernel_size: 3 pad: 1 }",
         dict(num_output=6, k=(3, 3), s=(1, 1), p=(1, 1), d=(1, 1), group=1, bias=True)),
        ("Normalize", "norm0", ["conv0"], ["norm0"],
         "norm_param { across_spatial: false channel_shared: false eps: 1e-10 }", dict(eps=1e-10)),
        ("PReLU", "prelu", ["norm0"], ["prelu"], "", {}),
        ("ELU", "elu", ["prelu"], ["elu"], "elu_param { alpha: 0.5 }", dict(alpha=0.5)),
        ("AbsVal", "abs", ["elu"], ["abs"], "", {}),
        ("Exp", "exp", ["abs"], ["exp"], "exp_param { base: 2 scale: 0.5 shift: -1 }", dict(base=2.0, scale=0.5, shift=-1.0)),
        ("Log", "log", ["exp"], ["log"], "log_param { base: 10 scale: 2 shift: 1 }", dict(base=10.0, scale=2.0, shift=1.0)),
        ("Deconvolution", "deconv", ["log"], ["deconv"],
         "convolution_param { num_output: 4 kernel_size: 4 stride: 2 pad: 1 }", dict(num_output=4, k=4, s=2, p=1, bias=True)),
        ("Crop", "crop", ["deconv", "data"], ["crop"], "crop_param { axis: 2 offset: 3 }", dict(axis=2, offset=3)),
        ("Scale", "scale", ["crop", "data"], ["scale"], "scale_param { axis: 0 }", dict(two=True)),
        ("Bias", "bias", ["scale"], ["bias"], "", {}),
        ("Scale", "scale3", ["bias"], ["bias"], "scale_param { bias_term: true }", dict(bias=True)),
        ("Permute", "perm", ["bias"], ["perm"], "permute_param { order: 0 order: 2 order: 3 order: 1 }", dict(order=[0, 2, 3, 1])),
        ("Reshape", "reshape", ["perm"], ["reshape"], "reshape_param { shape { dim: 0 dim: -1 dim: 8 } }", {}),
        ("InnerProduct", "ip", ["reshape"], ["ip"], "inner_product_param { num_output: 3 axis: 2 transpose: true }",
         dict(num_output=3, bias=True, axis=2, transpose=True)),
        ("Softmax", "sm", ["ip"], ["sm"], "softmax_param { axis: 2 }", dict(axis=2)),
        ("Flatten", "flat", ["sm"], ["flat"], "flatten_param { axis: 1 end_axis: 2 }", {}),
        ("ArgMax", "am", ["ip"], ["am"], "argmax_param { axis: 2 }", dict(axis=2)),
    ])


NETS = {"lenet": lenet, "alexnet": alexnet, "v1net": v1net, "misc": misc}


# ---- weights -----------------------------------------------------------------------------

def blob_shapes(t, p, in_shape):
    if t == "Convolution":
        shapes = [[p["num_output"], in_shape[1] // p["group"], *p["k"]]]
        return shapes + ([[p["num_output"]]] if p["bias"] else [])
    if t == "InnerProduct":
        k = int(np.prod(in_shape[p.get("axis", 1):]))
        w = [k, p["num_output"]] if p.get("transpose") else [p["num_output"], k]
        return [w] + ([[p["num_output"]]] if p["bias"] else [])
    if t == "Deconvolution":
        return [[in_shape[1], p["num_output"], p["k"], p["k"]], [p["num_output"]]]
    if t in ("PReLU", "Normalize", "Bias"):
        return [[in_shape[1]]]
    if t == "BatchNorm":
        return [[in_shape[1]], [in_shape[1]], [1]]
    if t == "Scale" and p.get("two"):
        return []
    if t == "Scale":
        return [[in_shape[1]]] + ([[in_shape[1]]] if p["bias"] else [])
    return []


def make_blobs(t, shapes, rng):
    out = []
    for i, s in enumerate(shapes):
        if t == "BatchNorm":
            f = 0.5  # Caffe's moving-average factor: the statistics are blob / factor
            if i == 0:
                out.append((rng.standard_normal(s) * 0.1 * f).astype(np.float32))
            elif i == 1:
                out.append((rng.uniform(0.5, 1.5, s) * f).astype(np.float32))
            else:
                out.append(np.array([f], np.float32))
        elif t == "Scale" and i == 0:
            out.append(rng.uniform(0.5, 1.5, s).astype(np.float32))
        else:
            fan_in = int(np.prod(s[1:])) if len(s) > 1 else 1
            out.append((rng.standard_normal(s) / np.sqrt(fan_in)).astype(np.float32))
    return out


# ---- numpy forward (Caffe's formulas) --------------------------------------------------------

def conv2d(x, w, b, s, p, d, group):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    ekh, ekw = d[0] * (kh - 1) + 1, d[1] * (kw - 1) + 1
    oh = (h + 2 * p[0] - ekh) // s[0] + 1
    ow = (wd + 2 * p[1] - ekw) // s[1] + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    og = o // group
    for g in range(group):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * d[0]: i * d[0] + s[0] * (oh - 1) + 1: s[0],
                           j * d[1]: j * d[1] + s[1] * (ow - 1) + 1: s[1]]
                y[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def pool(x, p):
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (ph, pw) = p["k"], p["s"], p["p"]
    oh = int(np.ceil((h + 2 * ph - kh) / sh)) + 1
    ow = int(np.ceil((w + 2 * pw - kw) / sw)) + 1
    if ph or pw:
        if (oh - 1) * sh >= h + ph:
            oh -= 1
        if (ow - 1) * sw >= w + pw:
            ow -= 1
    y = np.zeros((n, c, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            hs, ws = i * sh - ph, j * sw - pw
            he, we = min(hs + kh, h + ph), min(ws + kw, w + pw)
            size = (he - hs) * (we - ws)
            hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            win = x[:, :, hs:he, ws:we]
            y[:, :, i, j] = win.max(axis=(2, 3)) if p["pool"] == "MAX" else win.sum(axis=(2, 3)) / size
    return y


def lrn(x, p):
    n = p["n"]
    sq = np.pad(x * x, ((0, 0), (n // 2, n // 2), (0, 0), (0, 0)))
    acc = sum(sq[:, i:i + x.shape[1]] for i in range(n))
    return x * (p["k"] + p["alpha"] / n * acc) ** -p["beta"]


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def forward_layer(t, p, xs, blobs):
    x = xs[0]
    if t == "Convolution":
        return [conv2d(x, blobs[0], blobs[1] if p["bias"] else None, p["s"], p["p"], p["d"], p["group"])]
    if t == "Pooling":
        return [pool(x, p)]
    if t == "InnerProduct":
        axis = p.get("axis", 1)
        w = blobs[0].astype(np.float64)
        y = x.reshape(int(np.prod(x.shape[:axis])), -1) @ (w if p.get("transpose") else w.T)
        y = y + blobs[1] if p["bias"] else y
        return [y.reshape(*x.shape[:axis], -1)]
    if t == "Deconvolution":
        n, c, h, w = x.shape
        k, st, pd = p["k"], p["s"], p["p"]
        full = np.zeros((n, p["num_output"], (h - 1) * st + k, (w - 1) * st + k))
        for i in range(k):
            for j in range(k):
                full[:, :, i:i + st * (h - 1) + 1:st, j:j + st * (w - 1) + 1:st] += np.einsum("nchw,co->nohw", x, blobs[0][:, :, i, j])
        y = full[:, :, pd:full.shape[2] - pd, pd:full.shape[3] - pd]
        return [y + blobs[1].reshape(1, -1, 1, 1)]
    if t == "Normalize":
        norm = np.sqrt((x * x).sum(axis=1, keepdims=True) + p["eps"])
        return [x / norm * blobs[0].reshape(1, -1, 1, 1)]
    if t == "PReLU":
        return [np.where(x > 0, x, x * blobs[0].reshape(1, -1, 1, 1))]
    if t == "ELU":
        return [np.where(x > 0, x, p["alpha"] * (np.exp(x) - 1))]
    if t == "AbsVal":
        return [np.abs(x)]
    if t == "Exp":
        return [p["base"] ** (p["shift"] + p["scale"] * x)]
    if t == "Log":
        return [np.log(p["shift"] + p["scale"] * x) / np.log(p["base"])]
    if t == "Crop":
        ref = xs[1]
        o = p["offset"]
        return [x[:, :, o:o + ref.shape[2], o:o + ref.shape[3]]]
    if t == "Bias":
        return [x + blobs[0].reshape(1, -1, 1, 1)]
    if t == "Permute":
        return [x.transpose(p["order"])]
    if t == "Reshape":
        return [x.reshape(x.shape[0], -1, 8)]
    if t == "ArgMax":
        return [x.argmax(axis=p["axis"])[..., None].astype(np.float64)]
    if t == "ReLU":
        return [np.where(x > 0, x, x * p.get("slope", 0.0))]
    if t == "Softmax":
        return [softmax(x, p["axis"])]
    if t == "BatchNorm":
        f = 0.0 if blobs[2][0] == 0 else 1.0 / blobs[2][0]
        sh = (1, -1) + (1,) * (x.ndim - 2)
        return [(x - (blobs[0] * f).reshape(sh)) / np.sqrt((blobs[1] * f).reshape(sh) + p["eps"])]
    if t == "Scale" and p.get("two"):
        return [x * xs[1]]
    if t == "Scale":
        sh = (1, -1) + (1,) * (x.ndim - 2)
        y = x * blobs[0].reshape(sh)
        return [y + blobs[1].reshape(sh) if p["bias"] else y]
    if t == "LRN":
        return [lrn(x, p)]
    if t == "Eltwise":
        if p["op"] == "SUM":
            c = p.get("coeff", [1.0] * len(xs))
            return [sum(ci * xi for ci, xi in zip(c, xs))]
        if p["op"] == "PROD":
            return [np.prod(xs, axis=0)]
        return [np.max(xs, axis=0)]
    if t == "Concat":
        return [np.concatenate(xs, axis=p["axis"])]
    if t == "Dropout":
        return [x]
    if t == "Sigmoid":
        return [1 / (1 + np.exp(-x))]
    if t == "TanH":
        return [np.tanh(x)]
    if t == "Power":
        return [(p["shift"] + p["scale"] * x) ** p["power"]]
    if t == "Flatten":
        return [x.reshape(x.shape[0], -1)]
    if t == "Slice":
        return np.split(x, p["points"], axis=p["axis"])
    raise ValueError(t)


# ---- writers -----------------------------------------------------------------------------

def fmt_floats(a):
    return "[" + ", ".join("%.9g" % v for v in np.asarray(a, np.float64).ravel()) + "]"


def write_model(name, outdir, seed=7):
    net = NETS[name]()
    v1 = net.get("v1", False)
    rng = np.random.default_rng(seed)
    in_name, in_shape = net["input"]
    x = rng.uniform(-1, 1, in_shape).astype(np.float32)
    values = {in_name: x.astype(np.float64)}
    proto = ['name: "%s"' % name]
    if v1:
        proto.append('input: "%s"' % in_name)
        proto += ["input_dim: %d" % d for d in in_shape]
    else:
        proto.append('layer { name: "%s" type: "Input" top: "%s" input_param { shape { %s } } }'
                     % (in_name, in_name, " ".join("dim: %d" % d for d in in_shape)))
    weights = ['name: "%s"' % name]
    golden = {}
    for t, lname, bottoms, tops, params, p in net["layers"]:
        xs = [values[b] for b in bottoms]
        shapes = blob_shapes(t, p, xs[0].shape)
        blobs = make_blobs(t, shapes, rng)
        outs = forward_layer(t, p, xs, blobs)
        for top, o in zip(tops, outs):
            values[top] = o
        golden[lname] = outs[0]
        io = " ".join('bottom: "%s"' % b for b in bottoms) + " " + " ".join('top: "%s"' % t_ for t_ in tops)
        if v1:
            proto.append('layers { name: "%s" type: %s %s %s }' % (lname, V1_TYPES[t], io, params))
        else:
            proto.append('layer { name: "%s" type: "%s" %s %s }' % (lname, t, io, params))
        if blobs:
            text = " ".join("blobs { shape { %s } data: %s }" % (" ".join("dim: %d" % d for d in b.shape), fmt_floats(b))
                            for b in blobs)
            if v1:
                weights.append('layers { name: "%s" type: %s %s }' % (lname, V1_TYPES[t], text))
            else:
                weights.append('layer { name: "%s" type: "%s" %s }' % (lname, t, text))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, name + ".prototxt"), "w") as f:
        f.write("\n".join(proto) + "\n")
    encoded = subprocess.run(["protoc", "--encode=caffe.NetParameter", "-I" + PROTO_DIR, "caffe.proto"],
                             input="\n".join(weights).encode(), stdout=subprocess.PIPE, check=True).stdout
    with open(os.path.join(outdir, name + ".caffemodel"), "wb") as f:
        f.write(encoded)
    np.save(os.path.join(outdir, name + ".input.npy"), x)
    outputs = net.get("outputs", [net["layers"][-1][3][0]])
    for i, top in enumerate(outputs):
        np.save(os.path.join(outdir, name + (".ref.npy" if i == 0 else ".ref%d.npy" % i)), values[top].astype(np.float32))
    os.makedirs(os.path.join(outdir, "golden"), exist_ok=True)
    for lname, v in golden.items():
        np.save(os.path.join(outdir, "golden", lname + ".npy"), v.astype(np.float32))


def compare(out_bin, ref_npy):
    ref = np.load(ref_npy).astype(np.float64).ravel()
    out = np.fromfile(out_bin, np.float32).astype(np.float64)
    if out.size != ref.size:
        print("size %d, reference %d" % (out.size, ref.size))
        return 1
    cos = float(out @ ref / (np.linalg.norm(out) * np.linalg.norm(ref)))
    diff = float(np.abs(out - ref).max())
    bound = 1e-4 * float(np.abs(ref).max())
    print("cosine %.9f max|diff| %.3g bound %.3g" % (cos, diff, bound))
    return 0 if cos >= 0.99999 and diff <= bound else 1


if __name__ == "__main__":
    if sys.argv[1] == "model":
        write_model(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: caffe_case.py model NAME OUTDIR | compare OUT.bin REF.npy")
