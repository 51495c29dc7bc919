#!/usr/bin/python3
"""Builds the bundled real model, models/digits/: a small CNN trained on the 1,797 labelled 8x8
handwritten digits that Debian's python3-sklearn ships (sklearn.datasets.load_digits: no
download), with a fixed seed, exported by PyTorch at opset 13.

    /usr/bin/python3 scripts/make_digits_model.py   (python3-torch, python3-sklearn:
                                                     scripts/install-deps.sh --models)

Writes, under models/digits/:
  digits.onnx               input "image" float32 [1,1,8,8] (pixels / 16), output "logits" [1,10]
  images/digit_NNNN.bin     every image as raw float32 (msame --input folder)
  labels.txt                "digit_NNNN <true label>" per image
  torch_predictions.txt     "digit_NNNN <PyTorch's predicted class>" per image
The model trains on images 0..1499 and is tested on all 1,797 (the last 297 it never saw).
"""
import os

import numpy as np
import torch
from sklearn.datasets import load_digits
from torch import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "digits")


class DigitsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2))
        self.classifier = nn.Linear(32 * 4 * 4, 10)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def main():
    torch.manual_seed(0)
    np.random.seed(0)
    torch.use_deterministic_algorithms(True)
    digits = load_digits()
    x = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # [N,1,8,8]
    y = torch.tensor(digits.target, dtype=torch.long)
    train = 1500
    net = DigitsNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for epoch in range(40):
        perm = torch.randperm(train)
        for i in range(0, train, 100):
            idx = perm[i:i + 100]
            opt.zero_grad()
            loss = nn.functional.cross_entropy(net(x[idx]), y[idx])
            loss.backward()
            opt.step()
    net.eval()
    with torch.no_grad():
        pred = net(x).argmax(1)
    acc_all = (pred == y).float().mean().item()
    acc_unseen = (pred[train:] == y[train:]).float().mean().item()
    print(f"PyTorch accuracy: {acc_all:.4f} on all {len(y)}, {acc_unseen:.4f} on the "
          f"{len(y) - train} unseen")

    os.makedirs(os.path.join(OUT, "images"), exist_ok=True)
    torch.onnx.export(net, x[:1], os.path.join(OUT, "digits.onnx"), opset_version=13,
                      input_names=["image"], output_names=["logits"])
    with open(os.path.join(OUT, "labels.txt"), "w") as lab, \
         open(os.path.join(OUT, "torch_predictions.txt"), "w") as tp:
        for i in range(len(y)):
            name = f"digit_{i:04d}"
            x[i].numpy().astype(np.float32).tofile(os.path.join(OUT, "images", name + ".bin"))
            lab.write(f"{name} {int(y[i])}\n")
            tp.write(f"{name} {int(pred[i])}\n")


if __name__ == "__main__":
    main()
