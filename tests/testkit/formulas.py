"""formulas.py: numpy formulas of ONNX operator definitions, written here, for the CLI tests'
numpy checks (tests/cli/atc/opset-later.sh imports it). float64 in, float64 out."""
import itertools

import numpy as np


def col2im(x, image, block, dil, pads, strides):
    """Col2Im-18: x [N, C * prod(block), L] -> [N, C, *image], each block added back at its
    place (overlaps sum, positions in the padding dropped)."""
    n_sp = len(image)
    counts = [(image[i] + pads[i] + pads[n_sp + i] - (dil[i] * (block[i] - 1) + 1)) // strides[i] + 1
              for i in range(n_sp)]
    n, cb, length = x.shape
    c = cb // int(np.prod(block))
    y = np.zeros((n, c) + tuple(image))
    xs = x.reshape(n, c, *block, *counts)
    for kb in np.ndindex(*block):
        for lp in np.ndindex(*counts):
            pos = [lp[i] * strides[i] - pads[i] + kb[i] * dil[i] for i in range(n_sp)]
            if all(0 <= pos[i] < image[i] for i in range(n_sp)):
                y[(slice(None), slice(None)) + tuple(pos)] += xs[(slice(None), slice(None)) + kb + lp]
    return y


def affine_grid(theta, size, align_corners):
    """AffineGrid-20: theta [N, 2, 3] / [N, 3, 4], size [N, C, (D,) H, W] -> grid
    [N, (D,) H, W, 2 or 3], coordinates (x, y(, z)) = theta @ (x, y(, z), 1)."""
    sp = len(size) - 2

    def coords(n):
        if align_corners:
            return np.linspace(-1, 1, n) if n > 1 else np.zeros(1)
        return (2 * np.arange(n) + 1) / n - 1

    axes = [coords(n) for n in size[2:]]  # outermost first: (D,) H, W
    mesh = np.meshgrid(*axes, indexing="ij")
    base = np.stack([m for m in reversed(mesh)] + [np.ones_like(mesh[0])], axis=-1)  # x first
    return np.einsum("n...j,ncj->n...c", np.broadcast_to(base, (size[0],) + base.shape), theta)


def prior_boxes(fh, fw, min_size, max_size, ratios, img, offset, variance):
    """Caffe-SSD PriorBox (one min and max size, no clip): [1, 2, fh * fw * priors * 4], boxes
    then variances. `ratios` lists the aspect ratios after 1, flipped ones included."""
    step_h, step_w = img / fh, img / fw
    boxes = []
    for h in range(fh):
        for w in range(fw):
            cx, cy = (w + offset) * step_w, (h + offset) * step_h
            sizes = [(min_size, min_size), (np.sqrt(min_size * max_size),) * 2]
            sizes += [(min_size * np.sqrt(r), min_size / np.sqrt(r)) for r in ratios]
            for bw, bh in sizes:
                boxes += [(cx - bw / 2) / img, (cy - bh / 2) / img, (cx + bw / 2) / img,
                          (cy + bh / 2) / img]
    boxes = np.array(boxes)
    return np.stack([boxes, np.tile(variance, len(boxes) // 4)])[None]


def detection_output(loc, conf, prior, classes, background, nms, top_k, keep_top_k, threshold):
    """Caffe-SSD DetectionOutput, CENTER_SIZE, share_location, one image: rows [0, label, score,
    xmin, ymin, xmax, ymax], labels ascending, scores descending within a label, padded with -1
    rows to keep_top_k."""
    p = prior[0, 0].reshape(-1, 4)
    v = prior[0, 1].reshape(-1, 4)
    l = loc.reshape(-1, 4)
    pw, ph = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
    cx = (p[:, 0] + p[:, 2]) / 2 + v[:, 0] * l[:, 0] * pw
    cy = (p[:, 1] + p[:, 3]) / 2 + v[:, 1] * l[:, 1] * ph
    w, h = np.exp(v[:, 2] * l[:, 2]) * pw, np.exp(v[:, 3] * l[:, 3]) * ph
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
    scores = conf.reshape(len(p), classes)

    def overlap(a, b):
        iw = min(a[2], b[2]) - max(a[0], b[0])
        ih = min(a[3], b[3]) - max(a[1], b[1])
        if iw <= 0 or ih <= 0:
            return 0.0
        inter = iw * ih
        return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)

    found = []
    for c in range(classes):
        if c == background:
            continue
        order = [i for i in np.argsort(-scores[:, c], kind="stable") if scores[i, c] > threshold]
        order = order[:top_k]
        kept = []
        for i in order:
            if all(overlap(boxes[i], boxes[j]) <= nms for j in kept):
                kept.append(i)
        found += [(scores[i, c], c, i) for i in kept]
    found = sorted(found, key=lambda t: -t[0])[:keep_top_k]
    rows = [[0, c, s, *boxes[i]] for s, c, i in sorted(found, key=lambda t: (t[1], -t[0]))]
    out = -np.ones((keep_top_k, 7))
    if rows:
        out[:len(rows)] = rows
    return out[None, None]


def deform_conv(x, w, offset, b=None, mask=None, strides=None, pads=None, dil=None, group=1,
                offset_group=1):
    """DeformConv-19 over 1 to 3 spatial dims: each tap samples x N-linearly (zeros outside) at
    its place moved by the offset (one coordinate per spatial dim, in dim order: (dy, dx) in
    2-D), times the mask; grouped like Conv."""
    n, c = x.shape[:2]
    sp = x.shape[2:]
    nd = len(sp)
    oc, icg = w.shape[:2]
    ks = w.shape[2:]
    strides = strides or (1,) * nd
    dil = dil or (1,) * nd
    pads = pads or (0,) * (2 * nd)
    out = tuple((sp[d] + pads[d] + pads[nd + d] - ((ks[d] - 1) * dil[d] + 1)) // strides[d] + 1
                for d in range(nd))
    off = offset.reshape((n, offset_group) + tuple(ks) + (nd,) + out)
    m = np.ones((n, offset_group) + tuple(ks) + out) if mask is None else mask.reshape(
        (n, offset_group) + tuple(ks) + out)

    def sample(img, at):
        base = [int(np.floor(a)) for a in at]
        v = 0.0
        for corner in itertools.product((0, 1), repeat=nd):
            idx = tuple(bd + cd for bd, cd in zip(base, corner))
            if all(0 <= i < s for i, s in zip(idx, sp)):
                wt = 1.0
                for a, bd, cd in zip(at, base, corner):
                    wt *= (a - bd) if cd else 1 - (a - bd)
                v += wt * img[idx]
        return v

    y = np.zeros((n, oc) + out)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    ocg = oc // group
    for bi in range(n):
        for o in range(oc):
            gi = o // ocg
            for ci in range(icg):
                cin = gi * icg + ci
                og = cin // (c // offset_group)
                for p in itertools.product(*[range(s) for s in out]):
                    for k in itertools.product(*[range(s) for s in ks]):
                        at = [p[d] * strides[d] - pads[d] + k[d] * dil[d] +
                              off[(bi, og) + k + (d,) + p] for d in range(nd)]
                        y[(bi, o) + p] += w[(o, ci) + k] * m[(bi, og) + k + p] * sample(x[bi, cin], at)
    return y
