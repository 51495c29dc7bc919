"""numpy_ref: float64 references of the ops the CLI tests check against (ONNX semantics).

The test scripts import it with PYTHONPATH="$ROOT/tests/cli".
"""
import numpy as np


def conv(x, w, pad=0, stride=1, b=None):
    """ONNX Conv, group 1, square kernel, the same pad on every side, float64."""
    k = w.shape[2]
    xp = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    h, wd = xp.shape[2] - k + 1, xp.shape[3] - k + 1
    y = np.zeros((x.shape[0], w.shape[0], h, wd))
    for i in range(k):
        for j in range(k):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    y = y[:, :, ::stride, ::stride]
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def maxpool(x, k, s, pad, ceil=False):
    """ONNX MaxPool, 2-D, square kernel, the same pad on every side; padding never wins."""
    n, c, h, w = x.shape
    size = lambda i: (-(-(i + 2 * pad - k) // s) if ceil else (i + 2 * pad - k) // s) + 1
    oh, ow = size(h), size(w)
    xp = np.full((n, c, h + 2 * pad + k, w + 2 * pad + k), -np.inf)
    xp[:, :, pad:pad + h, pad:pad + w] = x
    y = np.full((n, c, oh, ow), -np.inf)
    for i in range(k):
        for j in range(k):
            y = np.maximum(y, xp[:, :, i:i + s * oh:s, j:j + s * ow:s][:, :, :oh, :ow])
    return y
