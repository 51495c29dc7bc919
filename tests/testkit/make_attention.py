#!/usr/bin/python3
"""make_attention.py ONNX_PROTO OUT_DIR: Attention-23 models (written as protobuf text and encoded
with protoc: Debian's onnx 1.12 stops at opset 17), their inputs <case>_in<i>.npy and the expected
outputs <case>_want<i>.npy from a numpy formula of the ONNX definition written here, for
tests/cli/atc/attention.sh:
  mha4d        4-D multi-head attention, default scale
  gqa3d        3-D inputs, 4 query heads over 2 key/value heads, causal, scale 0.3
  boolmask     4-D, a [Sq, T] bool mask broadcast over batch and heads, softcap 2
  old22        mha4d at opset 22, where Attention does not exist yet (refused)
  qk0..qk3     4-D with softcap 1.5, a float mask and causal, also asking for the
               qk_matmul_output output at each qk_matmul_output_mode: 0 the scaled Q K^T, 1 that
               plus the mask, 2 the soft-capped scores plus the mask, 3 the softmax
  nonpad       Attention-24, 3-D, nonpad_kv_seqlen [3, 5] over 5 keys (an external cache), causal
               (offset per batch by the valid keys minus the queries)
  cache        4-D with past_key/past_value (2 cached steps), causal (offset by the cache), a
               float mask [1, 1, Sq, 4] shorter than the 5 keys (the rest masked out); outputs
               Y, present_key and present_value
And RotaryEmbedding-23:
  rot4d        4-D [B, H, S, D], caches [B, S, D/2], the halves rotated
  rot3d        3-D with num_heads 2, rotary_embedding_dim 4 of 6, interleaved, position_ids
               choosing rows of [10, 2] caches
Each case lists its file names in <case>.txt: inputs, then outputs."""
import os
import subprocess
import sys

import numpy as np

proto, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(23)


def attention(q, k, v, mask=None, past=None, scale=None, causal=False, softcap=0.0,
              hq=None, hkv=None, nonpad=None, qk_mode=None):
    """Y and (present_key, present_value); with qk_mode also the qk_matmul_output."""
    three = q.ndim == 3
    if three:  # [B, S, H*D] -> [B, H, S, D]
        q = q.reshape(q.shape[0], q.shape[1], hq, -1).transpose(0, 2, 1, 3)
        k = k.reshape(k.shape[0], k.shape[1], hkv, -1).transpose(0, 2, 1, 3)
        v = v.reshape(v.shape[0], v.shape[1], hkv, -1).transpose(0, 2, 1, 3)
    d = q.shape[-1]
    if past is not None:
        k = np.concatenate([past[0], k], axis=2)
        v = np.concatenate([past[1], v], axis=2)
    present = (k, v)
    group = q.shape[1] // k.shape[1]
    kk = np.repeat(k, group, axis=1).astype(np.float64)
    vv = np.repeat(v, group, axis=1).astype(np.float64)
    s0 = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) * (scale if scale else 1 / np.sqrt(d))
    s = softcap * np.tanh(s0 / softcap) if softcap > 0 else s0
    sq, total = s.shape[-2:]
    bias = np.zeros(s.shape)
    if mask is not None:
        cols = mask.shape[-1]
        if mask.dtype == np.bool_:
            add = np.where(mask, 0.0, -np.inf)
        else:
            add = mask.astype(np.float64)
        full = np.full(add.shape[:-1] + (total,), -np.inf)
        full[..., :cols] = add
        bias = bias + full
    i = np.arange(sq)[:, None]
    j = np.arange(total)[None, :]
    for b in range(s.shape[0]):
        if causal:  # keys before this block: the cache's, or the valid ones minus the queries
            p = total - sq if past is not None else (nonpad[b] - sq if nonpad is not None else 0)
            bias[b] = np.where(j > i + p, -np.inf, bias[b])
        if nonpad is not None:
            bias[b] = np.where(j >= nonpad[b], -np.inf, bias[b])
    s = s + bias
    w = np.exp(s - s.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    if qk_mode is not None:
        qk = [s0, s0 + bias, s, w][qk_mode]
        return y_of(w, vv, three), present, qk.astype(np.float32)
    return y_of(w, vv, three), present


def y_of(w, vv, three):
    y = w @ vv
    if three:
        y = y.transpose(0, 2, 1, 3).reshape(y.shape[0], y.shape[2], -1)
    return y.astype(np.float32)


def io(kind, name, arr):
    elem = {np.dtype(np.bool_): 9, np.dtype(np.int64): 7}.get(arr.dtype, 1)
    dims = " ".join("dim { dim_value: %d }" % d for d in arr.shape)
    return '%s { name: "%s" type { tensor_type { elem_type: %d shape { %s } } } }' % (
        kind, name, elem, dims)


def write(case, inputs, outputs, attrs, opset=23, op="Attention"):
    names = [n for n, _ in inputs]
    node_in = " ".join('input: "%s"' % n for n in names)
    node_out = " ".join('output: "%s"' % n for n, _ in outputs)
    text = "\n".join(["ir_version: 10", 'opset_import { domain: "" version: %d }' % opset,
                      'graph { name: "%s"' % case,
                      'node { op_type: "%s" name: "attn" %s %s %s }' % (op, node_in, node_out, attrs)] +
                     [io("input", n, a) for n, a in inputs if n] +
                     [io("output", n, a) for n, a in outputs if n] + ["}"])
    onnx = subprocess.run(["protoc", "--encode=onnx.ModelProto", "-I" + proto,
                           os.path.join(proto, "onnx.proto")], input=text.encode(),
                          capture_output=True, check=True).stdout
    with open(os.path.join(out, case + ".onnx"), "wb") as f:
        f.write(onnx)
    files = []
    for i, (n, a) in enumerate(x for x in inputs if x[0]):
        files.append("%s_in%d.npy" % (case, i))
        np.save(os.path.join(out, files[-1]), a)
    for i, (n, a) in enumerate(x for x in outputs if x[0]):
        files.append("%s_want%d.npy" % (case, i))
        np.save(os.path.join(out, files[-1]), a)
    with open(os.path.join(out, case + ".txt"), "w") as f:
        f.write(" ".join(files) + "\n")


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


q, k, v = r(2, 2, 3, 4), r(2, 2, 5, 4), r(2, 2, 5, 6)
write("mha4d", [("q", q), ("k", k), ("v", v)], [("y", attention(q, k, v)[0])], "")

q, k, v = r(1, 4, 32), r(1, 4, 16), r(1, 4, 16)
y, _ = attention(q, k, v, scale=0.3, causal=True, hq=4, hkv=2)
write("gqa3d", [("q", q), ("k", k), ("v", v)], [("y", y)],
      'attribute { name: "q_num_heads" type: INT i: 4 } attribute { name: "kv_num_heads" type: INT i: 2 } '
      'attribute { name: "is_causal" type: INT i: 1 } attribute { name: "scale" type: FLOAT f: 0.3 }')

q, k, v = r(1, 2, 3, 4) * 3, r(1, 2, 5, 4) * 3, r(1, 2, 5, 4)
m = np.array([[1, 1, 0, 1, 0], [0, 1, 1, 1, 1], [1, 0, 0, 0, 1]], dtype=np.bool_)
y, _ = attention(q, k, v, mask=m, softcap=2.0)
write("boolmask", [("q", q), ("k", k), ("v", v), ("m", m)], [("y", y)],
      'attribute { name: "softcap" type: FLOAT f: 2.0 }')

q, k, v = r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 6)
pk, pv = r(1, 2, 2, 4), r(1, 2, 2, 6)
m = (r(1, 1, 3, 4) * 0.5).astype(np.float32)
y, (ck, cv) = attention(q, k, v, mask=m, past=(pk, pv), causal=True)
write("cache", [("q", q), ("k", k), ("v", v), ("m", m), ("pk", pk), ("pv", pv)],
      [("y", y), ("present_k", ck.astype(np.float32)), ("present_v", cv.astype(np.float32))],
      'attribute { name: "is_causal" type: INT i: 1 }')

q, k, v = r(1, 2, 3, 4), r(1, 2, 5, 4), r(1, 2, 5, 6)
y = attention(q, k, v)[0]
write("old22", [("q", q), ("k", k), ("v", v)], [("y", y)], "", opset=22)

q, k, v = r(1, 2, 3, 4) * 2, r(1, 2, 5, 4) * 2, r(1, 2, 5, 6)
m = (r(1, 1, 3, 5) * 0.5).astype(np.float32)
for mode in range(4):
    y, _, qk = attention(q, k, v, mask=m, causal=True, softcap=1.5, qk_mode=mode)
    write("qk%d" % mode, [("q", q), ("k", k), ("v", v), ("m", m)],
          [("y", y), ("", None), ("", None), ("qk", qk)],
          'attribute { name: "is_causal" type: INT i: 1 } '
          'attribute { name: "softcap" type: FLOAT f: 1.5 } '
          'attribute { name: "qk_matmul_output_mode" type: INT i: %d }' % mode)

q, k, v = r(2, 3, 8), r(2, 5, 8), r(2, 5, 4)
nonpad = np.array([3, 5], dtype=np.int64)
y, _ = attention(q, k, v, causal=True, hq=2, hkv=2, nonpad=nonpad)
write("nonpad", [("q", q), ("k", k), ("v", v), ("", None), ("", None), ("", None), ("n", nonpad)],
      [("y", y)],
      'attribute { name: "q_num_heads" type: INT i: 2 } attribute { name: "kv_num_heads" type: INT i: 2 } '
      'attribute { name: "is_causal" type: INT i: 1 }', opset=24)


def rotary(x, cos, sin, ids=None, interleaved=False, dim=0, heads=None):
    three = x.ndim == 3
    if three:
        x4 = x.reshape(x.shape[0], x.shape[1], heads, -1)  # [B, S, H, D]
    else:
        x4 = x.transpose(0, 2, 1, 3)
    d = x4.shape[-1]
    r = dim or d
    c = cos[ids] if ids is not None else cos  # [B, S, r/2]
    s_ = sin[ids] if ids is not None else sin
    c, s_ = c[:, :, None, :].astype(np.float64), s_[:, :, None, :].astype(np.float64)
    y = x4.astype(np.float64).copy()
    if interleaved:
        a, b = y[..., 0:r:2].copy(), y[..., 1:r:2].copy()
        y[..., 0:r:2], y[..., 1:r:2] = a * c - b * s_, a * s_ + b * c
    else:
        a, b = y[..., : r // 2].copy(), y[..., r // 2 : r].copy()
        y[..., : r // 2], y[..., r // 2 : r] = a * c - b * s_, a * s_ + b * c
    y = y.reshape(x.shape) if three else y.transpose(0, 2, 1, 3)
    return y.astype(np.float32)


x = r(1, 2, 3, 8)
ang = rng.uniform(0, 6.28, (1, 3, 4))
cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
write("rot4d", [("x", x), ("cos", cos), ("sin", sin)], [("y", rotary(x, cos, sin))], "",
      op="RotaryEmbedding")

x = r(2, 3, 12)
ang = rng.uniform(0, 6.28, (10, 2))
cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
ids = np.array([[0, 1, 2], [7, 3, 9]], dtype=np.int64)
write("rot3d", [("x", x), ("cos", cos), ("sin", sin), ("ids", ids)],
      [("y", rotary(x, cos, sin, ids=ids, interleaved=True, dim=4, heads=2))],
      'attribute { name: "num_heads" type: INT i: 2 } attribute { name: "rotary_embedding_dim" type: INT i: 4 } '
      'attribute { name: "interleaved" type: INT i: 1 }', op="RotaryEmbedding")
