#!/usr/bin/python3
"""Exports the benchmark models with Debian's python3-torch + python3-torchvision: random
weights, fixed seed, opset 13, batch 1. Writes bench-models/<name>.onnx (not checked in).

    /usr/bin/python3 scripts/bench/export_models.py [name ...]
Names: resnet18 resnet50 mobilenet_v2 squeezenet1_1 shufflenet_v2_x1_0 efficientnet_b0
       densenet121 googlenet transformer unet (default: all ten), and, exported only when
       named, the families that lagged ONNX Runtime (issue 34): mobilenet_v3_large (HardSwish,
       squeeze-excite), deeplabv3 (DeepLabV3 on MobileNetV3-Large: dilated depthwise
       convolutions), inception_v3 (1x7 / 7x1 convolutions, 299x299), lstm2 (nn.LSTM, 2 layers)
       and bigru (bidirectional nn.GRU)
"""
import os
import sys

import torch
import torchvision
from torch import nn

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench-models")


class Recurrent(nn.Module):
    """nn.LSTM / nn.GRU as a user exports them: [batch, seq, feature] in, the sequence out."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        return self.rnn(x)[0]


class Segmenter(nn.Module):
    """A torchvision segmentation model's "out" map (the model returns a dict)."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x)["out"]


class UNetSmall(nn.Module):
    """A small UNet: ConvTranspose and Resize on the way up, Concat skips."""

    def __init__(self, c=16):
        super().__init__()

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.Conv2d(o, o, 3, padding=1), nn.ReLU())
        self.e1, self.e2, self.e3 = block(3, c), block(c, 2 * c), block(2 * c, 4 * c)
        self.pool = nn.MaxPool2d(2)
        self.up1 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
        self.d1 = block(4 * c, 2 * c)
        self.d2 = block(3 * c, c)
        self.head = nn.Conv2d(c, 2, 1)

    def forward(self, x):
        a = self.e1(x)
        b = self.e2(self.pool(a))
        m = self.e3(self.pool(b))
        u = self.d1(torch.cat([self.up1(m), b], 1))
        u = nn.functional.interpolate(u, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.head(self.d2(torch.cat([u, a], 1)))


def build(name):
    tv = torchvision.models
    if name == "transformer":
        # GELU through a plain function: PyTorch's fused inference fast path
        # (_transformer_encoder_layer_fwd) has no ONNX export, the function form avoids it.
        layer = nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024,
                                           activation=lambda x: nn.functional.gelu(x),
                                           batch_first=True)
        return nn.TransformerEncoder(layer, num_layers=4), torch.randn(1, 128, 256)
    if name == "unet":
        return UNetSmall(), torch.randn(1, 3, 256, 256)
    if name == "lstm2":
        return Recurrent(nn.LSTM(64, 128, num_layers=2, batch_first=True)), torch.randn(1, 32, 64)
    if name == "bigru":
        return (Recurrent(nn.GRU(64, 128, bidirectional=True, batch_first=True)),
                torch.randn(1, 32, 64))
    if name == "deeplabv3":
        net = tv.segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                           aux_loss=False)
        return Segmenter(net), torch.randn(1, 3, 224, 224)
    if name == "inception_v3":
        return (tv.inception_v3(weights=None, aux_logits=False, init_weights=False),
                torch.randn(1, 3, 299, 299))
    if name == "googlenet":
        return tv.googlenet(weights=None, aux_logits=False, init_weights=True), torch.randn(1, 3, 224, 224)
    return getattr(tv, name)(weights=None), torch.randn(1, 3, 224, 224)


def main():
    names = sys.argv[1:] or ["resnet18", "resnet50", "mobilenet_v2", "squeezenet1_1",
                             "shufflenet_v2_x1_0", "efficientnet_b0", "densenet121", "googlenet",
                             "transformer", "unet"]
    os.makedirs(OUT, exist_ok=True)
    for name in names:
        torch.manual_seed(0)
        model, x = build(name)
        model.eval()
        path = os.path.join(OUT, name + ".onnx")
        with torch.no_grad():
            torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                              output_names=["output"])
        print("wrote", os.path.relpath(path), os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
