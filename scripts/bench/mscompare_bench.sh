#!/usr/bin/env bash
# mscompare_bench.sh: mscompare against a blockwise numpy script on one pair of float32 tensors
# of SIZE_GB in total (default 2: two 1 GB .npy files), all ten metrics, interleaved, RUNS runs
# each (default 3), medians. Reports throughput (input bytes / wall time), the ratio to numpy
# and peak RSS (/usr/bin/time -v). The files are generated in blocks into a temporary folder
# under /tmp (TMPDIR) and deleted afterwards. The page cache is warm for both tools (the
# files are read once before timing), so this measures compute, not the disk.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-$root/build}
size_gb=${SIZE_GB:-2}
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/mscompare_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

elems=$(awk -v g="$size_gb" 'BEGIN { printf "%d", g * 1024 * 1024 * 1024 / 8 }')  # per side
/usr/bin/python3 - "$work" "$elems" <<'PY'
import sys
import numpy as np
work, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(12345)
block = 1 << 24
for name in ("golden", "my"):
    m = np.lib.format.open_memmap("%s/%s.npy" % (work, name), mode="w+", dtype=np.float32, shape=(n,))
    r = np.random.default_rng(0)  # same stream for both sides, noise added on "my"
    for b in range(0, n, block):
        k = min(block, n - b)
        g = r.standard_normal(k, dtype=np.float32)
        if name == "my":
            g += rng.standard_normal(k, dtype=np.float32) * np.float32(1e-3)
        m[b:b + k] = g
    m.flush()
    del m
PY
bytes=$(( $(stat -c %s "$work/my.npy") + $(stat -c %s "$work/golden.npy") ))

# timed CMD...: prints "seconds max_rss_kb", the command's stdout kept in $work/last.out. The
# inputs are read once first, so every run (either tool) starts from a warm page cache.
timed() {
  cat "$work/my.npy" "$work/golden.npy" > /dev/null
  /usr/bin/time -v -o "$work/time.txt" "$@" > "$work/last.out" 2> "$work/last.err" || {
    [ $? -eq 1 ] || { cat "$work/last.err" >&2; exit 1; }  # mscompare exits 1 on a verdict
  }
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }')
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  echo "$wall $rss"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
ours=() theirs=() rss_ours=() rss_theirs=()
for r in $(seq "$runs"); do
  read -r t m < <(timed "$build/bin/mscompare" -m "$work/my.npy" -g "$work/golden.npy" \
    -out "$work/out" -alg all --atol=1e-2 --rtol=1e-2)
  ours+=("$t") rss_ours+=("$m")
  [ "$r" -eq 1 ] && cp "$work/out"/result_*.csv "$work/ours.csv"
  read -r t m < <(timed /usr/bin/python3 "$here/mscompare_numpy.py" "$work/my.npy" "$work/golden.npy")
  theirs+=("$t") rss_theirs+=("$m")
  [ "$r" -eq 1 ] && cp "$work/last.out" "$work/numpy.txt"
done
a=$(printf '%s\n' "${ours[@]}" | median)
b=$(printf '%s\n' "${theirs[@]}" | median)
ra=$(printf '%s\n' "${rss_ours[@]}" | sort -g | tail -n1)
rb=$(printf '%s\n' "${rss_theirs[@]}" | sort -g | tail -n1)
echo "load average before: $load0; after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: 2 x $((bytes / 2 / 1024 / 1024)) MiB float32 .npy ($elems elements a side), all ten metrics, $runs runs each, $(nproc) cores"
printf '%-10s %10s %10s %14s\n' tool "median s" "GB/s" "peak RSS MB"
printf '%-10s %10.3f %10.2f %14.1f\n' mscompare "$a" "$(awk -v b="$bytes" -v t="$a" 'BEGIN { print b / t / 1e9 }')" "$(awk -v k="$ra" 'BEGIN { print k / 1024 }')"
printf '%-10s %10.3f %10.2f %14.1f\n' numpy "$b" "$(awk -v b="$bytes" -v t="$b" 'BEGIN { print b / t / 1e9 }')" "$(awk -v k="$rb" 'BEGIN { print k / 1024 }')"
echo "mscompare is $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b / a }')x faster than numpy"
echo "runs (s): mscompare ${ours[*]}; numpy ${theirs[*]}"
echo "mscompare row: $(sed -n 2p "$work/ours.csv" | cut -d, -f11-)"
echo "numpy values:  $(cat "$work/numpy.txt")"
