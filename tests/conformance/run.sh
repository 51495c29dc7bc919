#!/usr/bin/env bash
# run.sh: runs the official ONNX backend node tests (Debian libonnx-testdata) through the real
# pipeline, one test at a time and JOBS at once:
#   asc_onnx_tensor prepare  (input_<i>.pb -> .npy, the test's input shapes, its op and scope)
#   atc --framework=5 --precision_mode=must_keep_origin_dtype --soc_version=Ascend910B1
#       --input_shape=<the test's shapes>
#   msame --model model.om --input <the .npy files> --output out/ --debug true
#   asc_onnx_tensor compare  (msame's <model>_output_<i>.bin against output_<i>.pb, through
#                             asc::compare: rtol 1e-3, atol 1e-7; integers and bools exact)
#
# usage: run.sh --bin DIR --work DIR [--data DIR] [--jobs N] [--expected FILE] [--freeze] [--keep]
#               [TEST...]
#   --bin       the folder holding atc, msame and asc_onnx_tensor
#   --work      scratch folder (emptied first); results.tsv is written there
#   --data      the node tests (default /usr/share/libonnx-testdata/data/node; the opset 18-24
#               tests written by make_later_tests.py run the same way)
#   --jobs      tests run at once (default 2)
#   --expected  the tests that must pass: exit 1 when one of them does not. A passing test not
#               in the list is reported, not a failure.
#   --freeze    a diagnostic, not the conformance figure: every input but the first becomes a
#               constant (an initializer holding the test's data), as a deployed model holds
#               shapes, axes and weights; shows which run-time-parameter failures hide more
#   --keep      keep the files of the tests that do not pass (tests/<name>/: inputs, model.om,
#               atc.log, msame.log, outputs) for a closer look
#   TEST...     only these tests (names such as test_abs), for a quick look
#
# results.tsv, one line per test: name, scope (tensor or the excluded family), op, status
# (pass, fail, unsupported), class (why it did not pass) and reason.
# Exit status: 0 success, 1 an expected test did not pass, 2 missing data or tools.
set -euo pipefail

bin="" work="" data=/usr/share/libonnx-testdata/data/node jobs=2 expected="" freeze="" keep=0
tests=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --expected) expected=$2; shift 2 ;;
    --freeze) freeze=--freeze; shift ;;
    --keep) keep=1; shift ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) tests+=("$1"); shift ;;
  esac
done
[ -n "$bin" ] && [ -n "$work" ] || { echo "run.sh: --bin and --work are required" >&2; exit 2; }
for t in atc msame asc_onnx_tensor; do
  [ -x "$bin/$t" ] || { echo "run.sh: $bin/$t is missing; build the project first" >&2; exit 2; }
done
if ! compgen -G "$data/test_*/model.onnx" >/dev/null; then
  echo "run.sh: no ONNX node tests in $data; install them: apt-get install libonnx-testdata" \
       "(scripts/install-deps.sh does)" >&2
  exit 2
fi
if [ -n "$expected" ] && [ -n "$freeze" ]; then
  echo "run.sh: --freeze changes the models; it does not check --expected" >&2; exit 2
fi
if [ -n "$expected" ] && [ ! -f "$expected" ]; then
  echo "run.sh: $expected does not exist" >&2; exit 2
fi

bin=$(cd "$bin" && pwd)
rm -rf "$work"
mkdir -p "$work/tests" "$work/results"
work=$(cd "$work" && pwd)

# One test: prints nothing, writes $work/results/<name>.tsv.
run_one() {
  local dir=$1 name w prep rc op scope shape inputs model line code msg status class reason out
  name=$(basename "$dir")
  w=$work/tests/$name
  mkdir -p "$w"
  op="?" scope="?" status=fail class="" reason=""
  rc=0
  prep=$("$bin/asc_onnx_tensor" prepare $freeze "$dir" "$w/in" 2>"$w/prepare.err") || rc=$?
  op=$(printf '%s\n' "$prep" | awk -F'\t' '$1=="op"{print $2}')
  scope=$(printf '%s\n' "$prep" | awk -F'\t' '$1=="scope"{print $2}')
  shape=$(printf '%s\n' "$prep" | awk -F'\t' '$1=="input_shape"{print $2}')
  inputs=$(printf '%s\n' "$prep" | awk -F'\t' '$1=="inputs"{print $2}')
  model=$(printf '%s\n' "$prep" | awk -F'\t' '$1=="model"{print $2}')
  if [ $rc -ne 0 ]; then
    class=runner-input reason="prepare: $(head -n1 "$w/prepare.err")"
  else
    local atc_args=(--model="${model:-$dir/model.onnx}" --framework=5 --output="$w/model"
                    --soc_version=Ascend910B1 --precision_mode=must_keep_origin_dtype)
    [ -n "$shape" ] && atc_args+=(--input_shape="$shape")
    rc=0
    timeout 120 "$bin/atc" "${atc_args[@]}" >"$w/atc.log" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
      line=$(grep -m1 -E '^E[0-9]+: ' "$w/atc.log" || true)
      [ $rc -eq 124 ] && line="timeout: atc ran over 120 s"
      [ -z "$line" ] && line="atc exited $rc: $(tail -n1 "$w/atc.log")"
      code=${line%%:*}
      msg=${line#*: }
      msg=${msg#"${model:-$dir/model.onnx}: "}
      reason="atc $code: $msg"
      class="atc-$code"
      case "$code:$msg" in
        E2002:*operator\ \'*|E16002:*operator\ \'*|E10055:*operator\ \'*)
          status=unsupported class=unsupported-op ;;
        E10055:*"uses ONNX opset"*) class=opset ;;
        E10055:*"node '"*) class=atc-feature-limit ;;
        *"known at compile time"*|*"computed at run time"*) class=runtime-input ;;
        E1001:*"dims must be positive"*) class=zero-size-input ;;
        E1001:*"--input_shape gives input"*" dims ["*) class=test-data-shape ;;
      esac
    else
      local msame_args=(--model "$w/model.om" --output "$w/out" --debug true)
      [ -n "$inputs" ] && msame_args+=(--input "$inputs")
      rc=0
      timeout 120 "$bin/msame" "${msame_args[@]}" >"$w/msame.log" 2>&1 || rc=$?
      if [ $rc -ne 0 ]; then
        line=$(grep -m1 -E '^\[ERROR\] ' "$w/msame.log" || true)
        [ $rc -eq 124 ] && line="timeout: msame ran over 120 s"
        [ -z "$line" ] && line="msame exited $rc: $(tail -n1 "$w/msame.log")"
        line=${line#"[ERROR] "}
        code=${line%%:*}
        [[ "$code" =~ ^E[0-9]+$ ]] || code=error
        class="msame-$code" reason="msame: $line"
        case "$code:$line" in
          *"computed at run time"*|*"needs a constant"*) class=runtime-input-at-load ;;
          E10055:*) class=kernel-limit-at-load ;;
        esac
      else
        out=$(find "$w/out" -mindepth 1 -maxdepth 1 -type d | head -n1)
        rc=0
        reason=$("$bin/asc_onnx_tensor" compare "$dir" "$out" "$w/msame.log" 2>&1) || rc=$?
        if [ $rc -eq 0 ]; then
          status=pass reason=""
        elif [ $rc -eq 1 ]; then
          case "$reason" in
            *" is "*", expected "*|*"has shape"*|*"describes"*) class=output-type ;;
            *) class=mismatch ;;
          esac
        else
          class=runner-output
        fi
      fi
    fi
  fi
  reason=$(printf '%s' "$reason" | head -n1 | tr '\t' ' ')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${scope:-?}" "${op:-?}" "$status" "$class" \
    "$reason" >"$work/results/$name.tsv"
  # the result line says what happened; the files stay only when asked for
  [ "$status" = pass ] || [ "$keep" -eq 0 ] && rm -rf "$w"
  return 0
}
export -f run_one
export bin work freeze keep

subset=${#tests[@]}
if [ "$subset" -eq 0 ]; then
  for d in "$data"/*/; do [ -f "$d/model.onnx" ] && tests+=("$(basename "$d")"); done
fi
start=$(date +%s)
# Each msame gets one thread: JOBS tests share the cores instead.
export ASC_NUM_THREADS=1 OMP_NUM_THREADS=1
printf '%s\n' "${tests[@]}" | sed "s|^|$data/|" | xargs -P "$jobs" -I{} bash -c 'run_one "$1"' _ {}
secs=$(( $(date +%s) - start ))

printf 'name\tscope\top\tstatus\tclass\treason\n' >"$work/results.tsv"
cat "$work/results"/*.tsv | sort >>"$work/results.tsv"
rm -rf "$work/results"
ran=$(($(wc -l <"$work/results.tsv") - 1))
if [ "$ran" -ne ${#tests[@]} ]; then
  echo "run.sh: $ran results for ${#tests[@]} tests" >&2
  exit 2
fi

awk -F'\t' -v secs="$secs" -v jobs="$jobs" 'NR > 1 {
    all++; if ($4 == "pass") pass++
    if ($2 == "tensor") { t++; if ($4 == "pass") tp++; if ($4 == "unsupported") tu++ }
  }
  END {
    printf "conformance: %d / %d tensor-only tests pass (%d unsupported), %d / %d over all; %d s with %d jobs\n",
      tp, t, tu, pass, all, secs, jobs
  }' "$work/results.tsv"

[ -z "$expected" ] && exit 0
# The expected list: one test name a line; '#' comments.
readlist='BEGIN { while ((getline l < list) > 0) if (l !~ /^#/ && l != "") want[l] = 1 }'
missing=$(awk -F'\t' -v list="$expected" -v subset="$subset" "$readlist"'
  NR > 1 && ($1 in want) { seen[$1] = 1; if ($4 != "pass") printf "  %s: %s %s\n", $1, $4, $6 }
  END { if (!subset) for (w in want) if (!(w in seen)) printf "  %s: not run (no such test)\n", w }' \
  "$work/results.tsv" | sort)
new=$(awk -F'\t' -v list="$expected" "$readlist"'
  NR > 1 && $4 == "pass" && !($1 in want) { print "  " $1 }' "$work/results.tsv")
if [ -n "$new" ]; then
  echo "conformance: passing now, not in $(basename "$expected") (add them: scripts/conformance.sh --update-expected):"
  echo "$new"
fi
if [ -n "$missing" ]; then
  echo "conformance: FAILED: expected to pass but did not:"
  echo "$missing"
  exit 1
fi
echo "conformance: every test in $(basename "$expected") passes"
