"""formulas.py: numpy formulas of ONNX operator definitions, written here, for the CLI tests'
numpy checks (tests/cli/atc/opset-later.sh imports it). float64 in, float64 out."""
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
