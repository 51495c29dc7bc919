#!/usr/bin/env bash
# fuzz.sh: builds and runs the libFuzzer targets of tests/fuzz (ASan + UBSan, clang).
#   scripts/fuzz.sh --list              the targets
#   scripts/fuzz.sh TARGET SECONDS      fuzz one target for SECONDS
#   scripts/fuzz.sh all SECONDS         every target in turn, SECONDS each
#   scripts/fuzz.sh --regress           the fuzz build's CTest entries: every target once over its
#                                       regression and seed corpora (-runs=0)
# Extra arguments after SECONDS go to libFuzzer (e.g. -max_len=65536).
# FUZZ_BUILD_DIR (default build-fuzz) is the build; the fuzzers' working corpora, crash files
# and per-run statistics (stats.tsv: target, seconds, executions, result) go to
# FUZZ_OUT (default $FUZZ_BUILD_DIR/runs). The build runs under the shared build lock
# (/tmp/asc-build.lock; FUZZ_SKIP_BUILD=1 uses the build as it is); the fuzzer itself runs one
# process at nice 19, so builds are not starved. Exits non-zero on a finding and prints where
# its reproducer is.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
out=${FUZZ_OUT:-$build/runs}
fuzz_dir=$root/tests/fuzz
lock=/tmp/asc-build.lock

# The names in tests/fuzz/CMakeLists.txt's set(ASC_FUZZ_TARGETS ...), over all its lines.
targets() { sed -n '/^set(ASC_FUZZ_TARGETS/,/)/p' "$fuzz_dir/CMakeLists.txt" | tr ' )' '\n\n' |
              grep '^fuzz_'; }

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

build() {
  if [ "${FUZZ_SKIP_BUILD:-0}" = 1 ] && [ -d "$build/fuzz" ]; then return 0; fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (scripts/install-deps.sh --fuzz)" >&2; exit 2; }
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S "$root" -B "$build" -DASC_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASC_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
  fi
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
  flock "$lock" cmake --build "$build" -j2 >/dev/null || {
    echo "fuzz.sh: the fuzz build failed; rerun: flock $lock cmake --build $build" >&2; exit 1; }
}

# run_one TARGET SECONDS [libFuzzer args]: 0 when no finding.
run_one() {
  local t=$1 secs=$2; shift 2
  local bin=$build/fuzz/$t work=$out/$t
  [ -x "$bin" ] || { echo "fuzz.sh: no target '$t' (scripts/fuzz.sh --list)" >&2; return 2; }
  mkdir -p "$work/corpus" "$work/artifacts"
  local dirs=("$work/corpus")  # the working copy, where new inputs go; seeds stay untouched
  for d in "$fuzz_dir/corpus/$t" "$fuzz_dir/regressions/$t"; do [ -d "$d" ] && dirs+=("$d"); done
  local args=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$work/artifacts/")
  [ -f "$fuzz_dir/dict/$t.dict" ] && args+=(-dict="$fuzz_dir/dict/$t.dict")
  echo "== $t: ${secs}s (log: $work/last.log)"
  local rc=0
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    nice -n 19 "$bin" "${args[@]}" "$@" "${dirs[@]}" >"$work/last.log" 2>&1 || rc=$?
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/last.log" | tail -1)
  execs=${execs:-$(grep -o '^#[0-9]*' "$work/last.log" | tail -1 | tr -d '#')}
  if [ "$rc" -eq 0 ]; then
    echo "   ok: ${execs:-?} executions, no finding"
    printf '%s\t%s\t%s\tok\n' "$t" "$secs" "${execs:-0}" >> "$out/stats.tsv"
    return 0
  fi
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*fuzz check failed|ALARM)' "$work/last.log" | head -5 | sed 's/^/   /'
  local crash
  crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/last.log" | tail -1)
  echo "   FINDING (exit $rc) after ${execs:-?} executions; reproducer: ${crash:-see $work/last.log}"
  echo "   reproduce: ASC_FUZZ_LOG=1 $bin ${crash:-<file>}"
  printf '%s\t%s\t%s\tfinding %s\n' "$t" "$secs" "${execs:-0}" "${crash:-}" >> "$out/stats.tsv"
  return 1
}

[ $# -ge 1 ] || usage
case "$1" in
  --list) targets; exit 0 ;;
  --regress) build; ctest --test-dir "$build" --output-on-failure -j2 -R '^fuzz-regressions:'; exit ;;
  -h|--help) usage ;;
esac
[ $# -ge 2 ] || usage
target=$1 secs=$2
shift 2
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2; }
if [ "$target" != all ] && ! targets | grep -qx "$target"; then
  echo "fuzz.sh: unknown target '$target'; the targets are:" >&2; targets >&2; exit 2
fi
build
mkdir -p "$out"
if [ "$target" = all ]; then
  failed=()
  for t in $(targets); do run_one "$t" "$secs" "$@" || failed+=("$t"); done
  [ ${#failed[@]} -eq 0 ] || { echo "fuzz.sh: findings in: ${failed[*]}" >&2; exit 1; }
  echo "fuzz.sh: every target ran ${secs}s with no finding"
else
  run_one "$target" "$secs" "$@"
fi
