#!/usr/bin/python3
"""Builds the bundled demo model, models/resnet_mini.onnx: a ResNet-shaped network (stem, four
stages of basic blocks, global pooling, a 1000-class classifier) narrow enough to stay under
2 MB. Random weights, fixed seed, exported by PyTorch at opset 13 exactly as a user's model is.

    /usr/bin/python3 scripts/make_demo_model.py   (needs python3-torch: install-deps.sh --models)
"""
import os

import torch
from torch import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "resnet_mini.onnx")


class Block(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm2d(cout))

    def forward(self, x):
        idt = x if self.down is None else self.down(x)
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu(y + idt)


class ResNetMini(nn.Module):
    def __init__(self, widths=(16, 32, 64, 128), classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, widths[0], 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(widths[0]), nn.ReLU(inplace=True),
                                  nn.MaxPool2d(3, 2, 1))
        layers, cin = [], widths[0]
        for i, w in enumerate(widths):
            layers.append(Block(cin, w, 1 if i == 0 else 2))
            cin = w
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(self.pool(x), 1))


def main():
    torch.manual_seed(20261130)
    m = ResNetMini().eval()
    # Give the batch norms non-trivial statistics so folding them is visible in the numbers.
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.1, 0.1)
            mod.running_var.uniform_(0.5, 1.5)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    torch.onnx.export(m, torch.randn(1, 3, 224, 224), OUT, opset_version=13,
                      input_names=["input"], output_names=["output"])
    print("wrote", os.path.relpath(OUT), os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
