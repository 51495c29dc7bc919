#!/usr/bin/env bash
# convert-all.sh MODELS_DIR OUT_DIR [--soc_version=SOC] [-- ATC_OPTIONS...] [-P PARALLEL_OPTIONS]:
# converts every *.onnx in MODELS_DIR with atc under GNU parallel, one OM per model
# (OUT_DIR/<model>.om, the log in OUT_DIR/logs/<model>.log), and writes OUT_DIR/results.csv:
#   model,status,error_code,seconds,arena_bytes,weight_bytes
# arena and weights from `atc --mode=6` of the OM. Resumable: a model whose OM exists with an
# "ok" result newer than the model is not converted again (remove OUT_DIR/results to convert
# everything anew, e.g. with other options). parallel's job log is
# OUT_DIR/joblog.txt. Exits 0 when every model converted, 1 when any failed, 2 on a usage error.
# Options after -P go to parallel (--jobs 2, --sshloginfile hosts with a shared file system ...).
set -euo pipefail
usage() { echo "usage: convert-all.sh MODELS_DIR OUT_DIR [--soc_version=SOC] [-- ATC_OPTIONS...] [-P PARALLEL_OPTIONS...]" >&2; exit 2; }
[ $# -ge 2 ] && [ -d "$1" ] || usage
models=$(cd "$1" && pwd) out=$2
shift 2
soc=Ascend310P3
atc_opts=() par_opts=()
mode=""
for a in "$@"; do
  case "$mode:$a" in
    :--soc_version=*) soc=${a#--soc_version=} ;;
    :--) mode=atc ;;
    :-P|atc:-P) mode=par ;;
    atc:*) atc_opts+=("$a") ;;
    par:*) par_opts+=("$a") ;;
    *) usage ;;
  esac
done
command -v parallel >/dev/null || { echo "convert-all.sh: GNU parallel is not installed (scripts/install-deps.sh)" >&2; exit 2; }
ATC=${ATC:-atc}
mkdir -p "$out/logs" "$out/results"
out=$(cd "$out" && pwd)

# One model: atc, then its sizes; the result row goes to results/<model>.csv.
convert_one() {
  local model=$1 name result log start status code secs arena weights
  name=$(basename "$model" .onnx)
  result="$out/results/$name.csv"
  log="$out/logs/$name.log"
  if [ -s "$out/$name.om" ] && [ "$result" -nt "$model" ] && grep -q ',ok,' "$result"; then
    echo "skipped $name (converted)"; return 0
  fi
  start=$(date +%s.%N)
  if "$ATC" --model="$model" --framework=5 --output="$out/$name" --soc_version="$soc" \
      "${atc_opts[@]}" > "$log" 2>&1; then
    status=ok code=""
    arena=$("$ATC" --mode=6 --om="$out/$name.om" | sed -n 's/.*memory_size\[\([0-9]*\) B\].*/\1/p')
    weights=$("$ATC" --mode=6 --om="$out/$name.om" | sed -n 's/.*weight_size\[\([0-9]*\) B\].*/\1/p' | head -1)
  else
    status=failed arena="" weights=""
    code=$(grep -o 'E[0-9Z]\{4,5\}' "$log" | head -1 || true)
  fi
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  echo "$name,$status,$code,$secs,$arena,$weights" > "$result"
  echo "$status $name ${code:+($code) }${secs}s"
  [ "$status" = ok ]
}
export -f convert_one
export out soc ATC
export atc_opts_str="${atc_opts[*]:-}"
# Arrays do not cross into parallel's shells: pass the atc options as a string.
convert_one_wrapped() { local -a atc_opts; read -r -a atc_opts <<< "$atc_opts_str"; convert_one "$@"; }
export -f convert_one_wrapped

shopt -s nullglob
files=("$models"/*.onnx)
[ ${#files[@]} -gt 0 ] || { echo "convert-all.sh: no .onnx models in $models" >&2; exit 2; }
SHELL=/bin/bash parallel --joblog "$out/joblog.txt" --halt never "${par_opts[@]}" \
  convert_one_wrapped ::: "${files[@]}" || true
{
  echo "model,status,error_code,seconds,arena_bytes,weight_bytes"
  for f in "${files[@]}"; do
    r="$out/results/$(basename "$f" .onnx).csv"
    if [ -s "$r" ]; then cat "$r"; else echo "$(basename "$f" .onnx),missing,,,,"; fi
  done
} > "$out/results.csv"
ok=$(grep -c ',ok,' "$out/results.csv" || true)
echo "convert-all.sh: ${#files[@]} model(s): $ok converted, $(( ${#files[@]} - ok )) failed -> $out/results.csv"
[ "$ok" -eq ${#files[@]} ]
