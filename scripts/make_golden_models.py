#!/usr/bin/python3
"""Builds tests/data/golden/<name>.onnx, small PyTorch-exported models that exercise the
runtime's fused and blocked-layout paths (depthwise conv, squeeze-and-excitation broadcast,
SiLU, residual adds, Pad + AvgPool, bilinear Resize, ConvTranspose, Concat, GELU, LayerNorm),
and their input (<name>.input.npy, a fixed pattern). The expected outputs come from ONNX Runtime:
scripts/bench/make_golden_outputs.sh writes <name>.ort.bin next to them.

    /usr/bin/python3 scripts/make_golden_models.py   (needs python3-torch)
"""
import os

import numpy as np
import torch
from torch import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "golden")


class Zoo(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1), nn.BatchNorm2d(16), nn.ReLU6())
        self.dw = nn.Sequential(nn.Conv2d(16, 16, 3, 1, 1, groups=16), nn.SiLU())
        self.se1 = nn.Conv2d(16, 4, 1)
        self.se2 = nn.Conv2d(4, 16, 1)
        self.res = nn.Conv2d(16, 16, 3, 1, 1)
        self.pool = nn.AvgPool2d(2, 2, padding=1, count_include_pad=True)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.mix = nn.Conv2d(24, 16, 1)
        self.fc1 = nn.Linear(16, 32)
        self.norm = nn.LayerNorm(32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.stem(x)
        y = self.dw(x)
        s = torch.sigmoid(self.se2(nn.functional.silu(self.se1(y.mean((2, 3), keepdim=True)))))
        y = y * s
        y = torch.relu(self.res(y) + x)
        p = self.pool(nn.functional.pad(y, (1, 0, 1, 0)))
        u = nn.functional.interpolate(self.up(p), size=y.shape[2:], mode="bilinear",
                                      align_corners=False)
        z = self.mix(torch.cat([u, y], 1))
        t = z.flatten(2).transpose(1, 2)                      # [1, HW, 16] tokens
        t = self.norm(nn.functional.gelu(self.fc1(t)))
        return self.fc2(t).mean(1)


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(5)
    m = Zoo().eval()
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.2, 0.2)
            mod.running_var.uniform_(0.5, 1.5)
    x = torch.from_numpy(((np.arange(3 * 32 * 32, dtype=np.float32) * 0.37) % 2.0 - 1.0)
                         .reshape(1, 3, 32, 32))
    path = os.path.join(OUT, "zoo.onnx")
    torch.onnx.export(m, x, path, opset_version=13, input_names=["input"], output_names=["output"])
    np.save(os.path.join(OUT, "zoo.input.npy"), x.numpy())
    print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
