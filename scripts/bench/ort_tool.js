#!/usr/bin/env node
// ort_tool.js: the ONNX Runtime side of benchmarks and reference checks (never part of the build).
//   node ort_tool.js gen <out.npy> <d0,d1,...> [seed]     random float32 input in [-1, 1) as .npy
//   node ort_tool.js run <model.onnx> <in.npy> <out_prefix> [runs] [threads]
//        runs ORT (graph optimisation "all"), writes <out_prefix>_<i>.bin (raw outputs) and prints
//        one JSON line: {"create_ms", "first_ms", "median_ms", "mean_ms", "runs", "outputs": [...]}
//        (median and mean of the runs after the first)
//   node ort_tool.js session <model.onnx> [threads]
//        times InferenceSession.create alone (the peer's load) and prints {"create_ms"}
//   node ort_tool.js compare <ours.bin> <reference.bin>
//        prints cosine similarity, max |diff| and max |reference| as JSON
'use strict';
const fs = require('fs');
const path = require('path');

function writeNpy(file, data, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]));
}

function readNpy(file) {
  const b = fs.readFileSync(file);
  const hlen = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + hlen);
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(Boolean).map(Number);
  const body = b.subarray(10 + hlen);
  const data = new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
  return { data, shape };
}

function rng(seed) {  // xorshift32: the same inputs on every machine
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

// createSession: the session of every command (graph optimisation "all", `threads` intra-op
// threads when > 0) and how long InferenceSession.create took, the module already loaded.
async function createSession(model, threads) {
  const ort = require('onnxruntime-node');
  const opts = { graphOptimizationLevel: 'all' };
  if (threads > 0) { opts.intraOpNumThreads = threads; opts.interOpNumThreads = 1; }
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, opts);
  return { session, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

async function main() {
  const [cmd, ...a] = process.argv.slice(2);
  if (cmd === 'gen') {
    const shape = a[1].split(',').map(Number);
    const n = shape.reduce((x, y) => x * y, 1);
    const r = rng(Number(a[2] || 7767517));
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = r() * 2 - 1;
    writeNpy(a[0], data, shape);
    return;
  }
  if (cmd === 'session') {
    const c = await createSession(a[0], Number(a[1] || 0));
    console.log(JSON.stringify({ create_ms: c.ms }));
    return;
  }
  if (cmd === 'run') {
    const ort = require('onnxruntime-node');
    const [model, input, prefix] = a;
    const runs = Number(a[3] || 1), threads = Number(a[4] || 0);
    const c = await createSession(model, threads);
    const s = c.session;
    const x = readNpy(input);
    const feeds = { [s.inputNames[0]]: new ort.Tensor('float32', x.data, x.shape) };
    const times = [];
    let result;
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      result = await s.run(feeds);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const outputs = s.outputNames.map((name, i) => {
      const file = `${prefix}_${i}.bin`;
      const t = result[name];
      fs.writeFileSync(file, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      return file;
    });
    const later = times.length > 1 ? times.slice(1) : times;
    later.sort((p, q) => p - q);
    const mean = later.reduce((p, q) => p + q, 0) / later.length;
    console.log(JSON.stringify({ create_ms: c.ms, first_ms: times[0], median_ms: later[Math.floor(later.length / 2)], mean_ms: mean, runs, outputs }));
    return;
  }
  if (cmd === 'compare') {
    const load = f => { const b = fs.readFileSync(f); return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)); };
    const x = load(a[0]), y = load(a[1]);
    if (x.length !== y.length) { console.log(JSON.stringify({ error: `length ${x.length} vs ${y.length}` })); process.exit(2); }
    let dot = 0, nx = 0, ny = 0, maxdiff = 0, maxref = 0;
    for (let i = 0; i < x.length; i++) {
      dot += x[i] * y[i]; nx += x[i] * x[i]; ny += y[i] * y[i];
      maxdiff = Math.max(maxdiff, Math.abs(x[i] - y[i]));
      maxref = Math.max(maxref, Math.abs(y[i]));
    }
    const cosine = nx === 0 && ny === 0 ? 1 : dot / Math.sqrt(nx * ny);
    console.log(JSON.stringify({ cosine, max_abs_diff: maxdiff, max_abs_ref: maxref, elements: x.length }));
    return;
  }
  console.error('usage: ort_tool.js gen|run|session|compare ...');
  process.exit(2);
}
main().catch(e => { console.error(e.message || e); process.exit(1); });
