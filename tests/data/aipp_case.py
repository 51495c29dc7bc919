#!/usr/bin/env python3
"""aipp_case.py: inputs and references for the AIPP CLI tests (tests/cli/atc/aipp-*.sh).

  aipp_case.py model OUT.textproto S       a 3x3 Conv (3 -> 4 channels, pad 1) + Relu on a
                                           [1, 3, S, S] fp32 input, ONNX text format
  aipp_case.py yuv420sp DIR S              DIR/image.bin: an SxS NV12 image (uint8, Y plane then
                                           interleaved U, V); DIR/ref.bin: the fp32 NCHW tensor
                                           AIPP should give (integer CSC as documented, then
                                           normalisation); DIR/ref_float.bin: the same with a
                                           floating-point JPEG YUV->RGB conversion
  aipp_case.py rgb888 DIR S                DIR/image.bin: an (S+4)x(S+8) (h x w) BGR image; DIR/ref.bin
                                           the tensor after crop, R/B swap, normalisation, padding
  aipp_case.py cosine A.bin B.bin          prints the cosine similarity of two fp32 files

The AIPP configurations are in the test scripts; the constants here must match them.
"""
import sys

import numpy as np

MEAN = np.array([124, 117, 104], np.float32)
MIN = np.array([0.5, 0.25, 0.0], np.float32)
VAR = np.array([0.017125, 0.017507, 0.017429], np.float32)


def model(path, size):
    rng = np.random.default_rng(7)
    w = rng.normal(0, 0.2, (4, 3, 3, 3)).astype(np.float32)
    b = rng.normal(0, 0.1, 4).astype(np.float32)
    fl = lambda a: " ".join(f"float_data: {v!r}" for v in a.ravel().tolist())
    dims = lambda *d: " ".join(f"dim {{ dim_value: {x} }}" for x in d)
    text = f"""ir_version: 8
opset_import {{ domain: "" version: 13 }}
graph {{
  name: "aipp_net"
  node {{ op_type: "Conv" name: "conv" input: "x" input: "w" input: "b" output: "c"
         attribute {{ name: "pads" type: INTS ints: 1 ints: 1 ints: 1 ints: 1 }}
         attribute {{ name: "kernel_shape" type: INTS ints: 3 ints: 3 }} }}
  node {{ op_type: "Relu" name: "relu" input: "c" output: "y" }}
  initializer {{ name: "w" data_type: 1 dims: 4 dims: 3 dims: 3 dims: 3 {fl(w)} }}
  initializer {{ name: "b" data_type: 1 dims: 4 {fl(b)} }}
  input {{ name: "x" type {{ tensor_type {{ elem_type: 1 shape {{ {dims(1, 3, size, size)} }} }} }} }}
  output {{ name: "y" type {{ tensor_type {{ elem_type: 1 shape {{ {dims(1, 4, size, size)} }} }} }} }}
}}
"""
    open(path, "w").write(text)


def smooth_rgb(h, w, seed):
    """A natural-looking test image: smooth gradients plus noise, uint8 RGB (h, w, 3)."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.stack([128 + 100 * np.sin(xx / 5 + c) * np.cos(yy / 7 - c) for c in range(3)], -1)
    img += rng.normal(0, 12, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def normalise(rgb):
    """(in - mean - min) * var_reci per channel; (h, w, 3) -> fp32 [1, 3, h, w]."""
    out = (rgb.astype(np.float32) - MEAN - MIN) * VAR
    return out.transpose(2, 0, 1)[None].astype(np.float32)


def yuv420sp(d, size):
    h = w = size
    rgb = smooth_rgb(h, w, 1).astype(np.float32)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    # JPEG (full-range BT.601) RGB -> YUV, chroma averaged over 2x2 blocks (NV12: U, V pairs).
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    v = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
    sub = lambda c: c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    Y = np.clip(np.rint(y), 0, 255).astype(np.uint8)
    U = np.clip(np.rint(sub(u)), 0, 255).astype(np.uint8)
    V = np.clip(np.rint(sub(v)), 0, 255).astype(np.uint8)
    uv = np.stack([U, V], -1).reshape(h // 2, w)
    np.concatenate([Y, uv], 0).tofile(f"{d}/image.bin")
    # The documented AIPP CSC: out = (M x (in - input_bias)) >> 8, saturated to [0, 255].
    M = np.array([[256, 0, 359], [256, -88, -183], [256, 454, 0]], np.int64)
    bias = np.array([0, 128, 128], np.int64)
    Uf = np.repeat(np.repeat(U, 2, 0), 2, 1)
    Vf = np.repeat(np.repeat(V, 2, 0), 2, 1)
    yuv = np.stack([Y, Uf, Vf], -1).astype(np.int64) - bias
    rgb_int = np.clip((yuv @ M.T) >> 8, 0, 255)
    normalise(rgb_int).tofile(f"{d}/ref.bin")
    # The textbook float conversion of the same YUV (an independent reference).
    yf, uf, vf = Y.astype(np.float32), Uf - 128.0, Vf - 128.0
    rgb_f = np.stack([yf + 1.402 * vf, yf - 0.344136 * uf - 0.714136 * vf, yf + 1.772 * uf], -1)
    normalise(np.clip(rgb_f, 0, 255)).tofile(f"{d}/ref_float.bin")


def rgb888(d, size):
    h, w = size + 4, size + 8
    rgb = smooth_rgb(h, w, 2)
    rgb[..., ::-1].tofile(f"{d}/image.bin")  # stored BGR; rbuv_swap_switch turns it to RGB
    # load_start_pos_h 4, _w 6; crop_size_h size - 2, _w size - 4
    crop = rgb[4:4 + size - 2, 6:6 + size - 4]
    out = np.full((1, 3, size, size), 0.5, np.float32)  # padding_value 0.5
    out[:, :, 1:size - 1, 2:size - 2] = normalise(crop)  # top 1, bottom 1, left 2, right 2
    out.tofile(f"{d}/ref.bin")


def cosine(a, b):
    x = np.fromfile(a, np.float32).astype(np.float64)
    y = np.fromfile(b, np.float32).astype(np.float64)
    assert x.size == y.size and x.size > 0, f"{a}: {x.size} floats, {b}: {y.size}"
    print(f"{x @ y / (np.linalg.norm(x) * np.linalg.norm(y)):.9f}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "model":
        model(sys.argv[2], int(sys.argv[3]))
    elif cmd == "yuv420sp":
        yuv420sp(sys.argv[2], int(sys.argv[3]))
    elif cmd == "rgb888":
        rgb888(sys.argv[2], int(sys.argv[3]))
    elif cmd == "cosine":
        cosine(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown command {cmd}")
