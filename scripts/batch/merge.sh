#!/usr/bin/env bash
# merge.sh OUTPUT_DIR [INPUT_DIR]: merges the manifests of `msame --shard i/N --output OUTPUT_DIR`
# (OUTPUT_DIR/shard_<i>_of_<N>/manifest.jsonl) into OUTPUT_DIR/merged.csv:
#   input,shard,status,ms,outputs,error
# one row per input set, from its last record (a --resume run appends). With INPUT_DIR (the first
# --input folder, spelled as msame was given it), inputs no shard recorded are listed as missing.
# Prints the failed and missing inputs and a summary; exits 0 when every input is done, 1 when any
# failed or is missing, 2 on a usage error.
set -euo pipefail
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: merge.sh OUTPUT_DIR [INPUT_DIR]" >&2; exit 2; }
out=${1%/}
inputs=${2:-}
shopt -s nullglob
manifests=("$out"/shard_*_of_*/manifest.jsonl)
[ ${#manifests[@]} -gt 0 ] || { echo "merge.sh: no shard manifests under $out" >&2; exit 2; }
csv="$out/merged.csv"
# msame writes each record on one line, its fields in this order:
#   {"input": [...], "outputs": [...], "ms": X, "status": "ok"|"error"[, "error": "..."]}
counts=$(awk -v CSV="$csv" '
  function after(rec, name,    i) {
    i = index(rec, "\"" name "\": ")
    return i ? substr(rec, i + length(name) + 4) : ""
  }
  function str(s) { return match(s, /"([^"\\]|\\.)*"/) ? substr(s, RSTART + 1, RLENGTH - 2) : "" }
  function list(s) { s = substr(s, 2, index(s, "]") - 2); gsub(/"/, "", s); return s }
  function q(s) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
  {
    shard = FILENAME; sub(/\/manifest\.jsonl$/, "", shard); sub(/.*\//, "", shard)
    input = list(after($0, "input"))
    ms = after($0, "ms"); sub(/,.*/, "", ms)
    status[input] = str(after($0, "status"))
    if (!(input in row)) order[n++] = input
    row[input] = q(input) "," shard "," status[input] "," ms "," q(list(after($0, "outputs"))) "," \
                 q(status[input] == "error" ? str(after($0, "error")) : "")
  }
  END {
    print "input,shard,status,ms,outputs,error" > CSV
    for (i = 0; i < n; i++) {
      print row[order[i]] > CSV
      if (status[order[i]] == "ok") ok++
      else { failed++; print "failed: " order[i] > "/dev/stderr" }
    }
    print n + 0, ok + 0, failed + 0
  }' "${manifests[@]}")
read -r total ok failed <<< "$counts"
missing=0
if [ -n "$inputs" ]; then
  inputs=${inputs%/}
  while IFS= read -r f; do
    grep -qF "\"$inputs/$f" "$csv" || { echo "missing: $inputs/$f"; missing=$((missing + 1)); }
  done < <(find "$inputs" -maxdepth 1 -type f -printf '%f\n' | sort)
fi
echo "merge.sh: ${#manifests[@]} shard(s), $total input set(s): $ok ok, $failed failed, $missing missing -> $csv"
[ "$failed" -eq 0 ] && [ "$missing" -eq 0 ]
