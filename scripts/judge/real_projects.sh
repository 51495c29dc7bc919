#!/bin/bash
# real_projects.sh PREFIX [ID-REGEX]: builds and runs public Ascend C projects written elsewhere
# (scripts/judge/projects.txt: repository, commit, folder, and the project's own CPU command)
# unchanged against an installed asc-tools prefix, and prints a table: PASS when the project's
# own check says "test pass", else WRONG (its check failed), RUN-FAIL, BUILD-FAIL or TIMEOUT,
# with the first error line, or PROJECT when the log shows the project's own files failing in a
# way no current toolkit changes (scripts with Windows line endings, a script without its
# executable bit, the package name of another OS or CPU, a CMake build folder committed from
# another machine, a data script writing into a folder the repository lacks, a host program
# reading a tiling file into a buffer sized for an older CANN's TCubeTiling). Needs network
# access to github.com (each folder is fetched at its commit), or MIRROR=DIR holding bare
# clones as DIR/<owner>+<name>/repo. REPEAT=N runs each project N times from a fresh copy: PASS
# needs every run, FLAKY says how many passed. Not part of the test suite: CI has no network. WORK=DIR keeps the copies and logs (default: a temporary folder).
# FrameworkLaunch projects install their packages into PREFIX/opp/vendors (customize's is
# replaced before each): use a prefix made for the run.
#   scripts/judge/real_projects.sh /opt/asc-tools
set -u
PREFIX=$(cd "${1:?usage: real_projects.sh PREFIX [ID-REGEX]}" && pwd) || exit 2
FILTER=${2:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
# Debian's python3 has numpy, which the projects' scripts import.
export PATH="/usr/bin:$PATH"

fetch() {  # fetch REPO COMMIT FOLDER DEST: the folder's files at the commit, into DEST
  local repo=$1 commit=$2 path=$3 dest=$4 strip
  # "." fetches the whole repository: for a project whose check sits in another top-level folder
  strip=$(echo "$path" | awk -F/ '{print NF}')
  [ "$path" = . ] && strip=0
  if [ -n "${MIRROR:-}" ] && [ -d "$MIRROR/${repo/\//+}/repo" ]; then
    local git_dir="$MIRROR/${repo/\//+}/repo"
    if git --git-dir="$git_dir" archive -o "$dest.tar" "$commit" "$path" 2>/dev/null; then
      tar -x -C "$dest" --strip-components="$strip" -f "$dest.tar"
      local rc=$?
      rm -f "$dest.tar"
      return $rc
    fi
    rm -f "$dest.tar"
    # A mirror made of snapshots lacks its largest files (4 MiB and more): copy the folder file
    # by file and name what was left out (stderr goes to the .fetch log).
    rm -rf "${dest:?}"/* && mkdir -p "$dest"
    git --git-dir="$git_dir" ls-tree -r "$commit" "$path" | while read -r mode _ obj file; do
      local out="$dest/${file#"$path"/}"
      mkdir -p "$(dirname "$out")"
      if git --git-dir="$git_dir" cat-file blob "$obj" >"$out" 2>/dev/null; then
        case "$mode" in 100755) chmod +x "$out" ;; esac
      else
        rm -f "$out"
        echo "left out (absent from the mirror): $file" >&2
      fi
    done
    return
  fi
  local clone="$WORK/.git-${repo/\//+}"
  if [ ! -d "$clone" ]; then
    git init -q "$clone" && git -C "$clone" remote add origin "https://github.com/$repo.git"
  fi
  git -C "$clone" fetch -q --depth 1 origin "$commit" &&
    git -C "$clone" archive "$commit" "$path" | tar -x -C "$dest" --strip-components="$strip"
}

echo "| project | repository @ commit : folder | command | result | first error |"
echo "|---|---|---|---|---|"
pass=0 total=0 project=0 flaky=0
REPEAT=${REPEAT:-1}
judge_once() {  # one fresh copy of project $id run and judged: sets res, why and err
  dir="$WORK/$id"
  rm -rf "$dir" && mkdir -p "$dir"
  if ! fetch "$repo" "$commit" "$path" "$dir" 2>"$dir.fetch"; then
    res="NOT FETCHED" why="" err=$(head -1 "$dir.fetch")
    return 1
  fi
  # As the projects' READMEs have it: the toolkit's set_env.sh sourced first. FrameworkLaunch
  # projects install their package into PREFIX/opp/vendors, emptied of customize's before each.
  [ "$kind" = FL ] && rm -rf "$PREFIX/opp/vendors/customize"
  (cd "$dir" && source "$PREFIX/set_env.sh" && export PATH="/usr/bin:$PATH" &&
    ASCEND_INSTALL_PATH="$PREFIX" ASCEND_HOME_DIR="$PREFIX" timeout 300 bash -c "$cmd" >log.txt 2>&1)
  rc=$?
  log="$dir/log.txt"
  # The verdict line: "test pass" opening it, or closing it (a script echoing the check's
  # captured output on one line: "real_result 24000.0 golden 24000.0 test pass").
  if grep -qiE '^test pass|[[:space:]]test pass[[:space:]]*$' "$log" &&
    ! grep -qE '\[ERROR\]|test fail' "$log"; then
    res=PASS
  elif [ "$kind" = KLOLD ] && grep -q 'execute op on cpu succeed' "$log" &&
    (cd "$dir" && python3 -c "
import glob, sys, numpy as np
g = np.fromfile('output/golden.bin', np.float16)
r = np.fromfile(sorted(glob.glob('output/output*.bin'))[0], np.float16)[:g.size]
sys.exit(0 if np.allclose(r, g, rtol=1e-3, atol=1e-3) else 1)") >/dev/null 2>&1; then
    res=PASS  # CANN 6.x samples print no verdict: their golden is compared here
  elif grep -qE '\[ERROR\] result|error ratio|test fail|result error' "$log"; then
    res=WRONG
  elif [ $rc -eq 124 ]; then
    res=TIMEOUT
  elif grep -qE 'EZ9999|Segmentation|Aborted|core dumped|Traceback' "$log" ||
    grep -qE '\[100%\] Built target' "$log"; then
    res=RUN-FAIL
  else
    res=BUILD-FAIL
  fi
  # A failure the project's own files cause before the toolkit is judged, the same on any
  # toolkit: PROJECT, with the evidence. Counted as attempted and not passed; the summary also
  # gives the pass rate over the projects that can run as published.
  why=""
  if [ $res != PASS ] && [ $res != WRONG ]; then
    host_pkg="custom_opp_$(. /etc/os-release && echo "$ID")_$(uname -m).run"
    missing_pkg=$(grep -m1 -oE 'custom_opp_[A-Za-z0-9]+_[a-z0-9_]+\.run: No such file' "$log" | cut -d: -f1)
    denied=$(grep -m1 -oE "$dir/[^:]*: Permission denied" "$log" | cut -d: -f1)
    if grep -qE "\\$'[^']*\\\\r'" "$log"; then
      why="its scripts have Windows line endings (bash: \$'\\r')"
    elif [ -n "$denied" ] && [ -f "$denied" ] && [ ! -x "$denied" ]; then
      why="the repository keeps ${denied#"$dir"/} without its executable bit"
    elif [ -n "$missing_pkg" ] && [ "$missing_pkg" != "$host_pkg" ]; then
      why="its script runs $missing_pkg, the package name of another OS or CPU (here: $host_pkg)"
    elif grep -qE 'CMakeCache.txt directory .* is different than the directory' "$log"; then
      why="the repository commits a CMake build folder made on another machine ($(grep -m1 -oE 'different than the directory [^ ]*' "$log" | cut -d' ' -f5))"
    elif grep -q 'file size is larger than buffer size' "$log" && [ -f "$dir/input/tiling.bin" ]; then
      why="its host program reads input/tiling.bin into a buffer smaller than the $(stat -c %s "$dir/input/tiling.bin") bytes the toolkit's TCubeTiling writes: sized for an older CANN's layout (CANN 7: 48 fields; current CANN adds BatchNum and mxTypePara)"
    elif grep -B1 -E '^FileNotFoundError' "$log" | grep -qE '\.tofile\('; then
      why="its data script writes into a folder its repository lacks ($(grep -m1 -oE "No such file or directory: '[^']*'" "$log" | cut -d"'" -f2))"
    fi
  fi
  [ -n "$why" ] && res="PROJECT ($why)"
  err=$(grep -m1 -E 'error:|Error:|CMake Error|ERROR|EZ9999|undefined reference|No module named|No such file' "$log" |
    sed 's/|/\\|/g' | cut -c1-160)
  left=$(grep -c '^left out' "$dir.fetch" 2>/dev/null || true)
  [ "${left:-0}" -gt 0 ] && err="$err (fetch: $left files absent from the mirror left out)"
  return 0
}

while IFS='|' read -r id repo commit path cmd kind; do
  case "$id" in '' | '#'*) continue ;; esac
  [[ "$id" =~ $FILTER ]] || continue
  if [ "$kind" = SKIP ]; then
    echo "| $id | $repo @ ${commit:0:10} : $path | - | SKIP ($cmd) | |"
    continue
  fi
  total=$((total + 1))
  # REPEAT runs: a project whose verdict differs between runs (its own check decided by the
  # rounding of random inputs) is FLAKY, naming how many runs passed; PASS needs every run.
  passes=0 first_fail="" first_err=""
  for ((run = 1; run <= REPEAT; run++)); do
    judge_once || break
    if [ "$res" = PASS ]; then
      passes=$((passes + 1))
    elif [ -z "$first_fail" ]; then
      first_fail=$res first_err=$err
    fi
  done
  if [ "$res" != "NOT FETCHED" ] && [ $passes -gt 0 ] && [ -n "$first_fail" ]; then
    res="FLAKY ($passes of $REPEAT runs pass; else $first_fail)" err=$first_err
    flaky=$((flaky + 1))
  elif [ -n "$first_fail" ]; then
    res=$first_fail err=$first_err
  fi
  [ -n "$why" ] && [ $passes -eq 0 ] && project=$((project + 1))
  [ "$res" = PASS ] && pass=$((pass + 1))
  echo "| $id | $repo @ ${commit:0:10} : $path | \`$cmd\` | $res | $err |"
done <"$HERE/projects.txt"
echo
echo "PASS: $pass of $total attempted (logs in $WORK)"
echo "PROJECT: $project of them cannot run as published, on any toolkit; PASS: $pass of the other $((total - project))"
[ "$REPEAT" -gt 1 ] && echo "FLAKY: $flaky of them passed some of the $REPEAT runs, not all (not counted as PASS)"
