#!/usr/bin/env bash
# infer-sharded.sh MODEL INPUT_DIR OUTPUT_DIR SHARDS [PARALLEL_OPTIONS...]: runs msame over a
# folder as SHARDS shards (msame --shard i/SHARDS) under GNU parallel, then merges the shards'
# manifests (scripts/batch/merge.sh) into OUTPUT_DIR/merged.csv.
#   - one machine: the shards run --jobs at a time (default: one per core);
#   - many machines: pass --sshloginfile FILE (parallel's option); MODEL, INPUT_DIR and
#     OUTPUT_DIR must then be the same paths on every machine (a shared file system), and msame
#     on their PATH;
#   - --resume (first after SHARDS) reruns only what the manifests do not record done.
# parallel's job log goes to OUTPUT_DIR/joblog.txt. Exits with merge.sh's status: 0 when every
# input is done.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: infer-sharded.sh MODEL INPUT_DIR OUTPUT_DIR SHARDS [--resume] [parallel options]" >&2
  exit 2
fi
model=$1 inputs=$2 out=$3 shards=$4
shift 4
resume=()
if [ "${1:-}" = --resume ]; then resume=(--resume); shift; fi
command -v parallel >/dev/null || { echo "infer-sharded.sh: GNU parallel is not installed (scripts/install-deps.sh)" >&2; exit 2; }
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "infer-sharded.sh: SHARDS must be a positive number, not '$shards'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
msame=${MSAME:-msame}
mkdir -p "$out"
# A failed shard (an input that failed) does not stop the others: merge.sh reports it.
seq 0 $((shards - 1)) | parallel --joblog "$out/joblog.txt" --halt never "$@" \
  "$msame" --model "$model" --input "$inputs" --output "$out" --shard "{}/$shards" "${resume[@]}" \
  '>' "$out/shard_{}_of_$shards.log" '2>&1' || true
"$here/merge.sh" "$out" "$inputs"
