#!/usr/bin/env bash
# install-deps.sh: installs the Debian packages asc-tools needs. Idempotent and
# non-interactive: it only calls apt-get when something is missing.
#   scripts/install-deps.sh           build, tests (libonnx-testdata: the ONNX conformance tests)
#                                     and demo
#   scripts/install-deps.sh --models  also python3-onnx/-torch/-torchvision/-sklearn (model scripts)
#   scripts/install-deps.sh --bench   also the above plus Node.js/npm for the ONNX Runtime peer
#   scripts/install-deps.sh --test    also Chromium (headless check of msprof's report.html),
#                                     clang-format (the format check) and slurm-wlm (the Slurm
#                                     job-array test runs a local single-node cluster)
#   scripts/install-deps.sh --fuzz    also clang, libFuzzer (libclang-rt-14-dev ships
#                                     libclang_rt.fuzzer-x86_64.a) and libomp-dev (OpenMP for
#                                     clang): scripts/fuzz.sh
set -euo pipefail

pkgs=(cmake g++ make libfmt-dev libprotobuf-dev protobuf-compiler catch2
      zlib1g-dev libxxhash-dev libdnnl-dev ocl-icd-opencl-dev libonnx-dev pkg-config libonnx-testdata
      python3-numpy  # the CLI tests write and check tensors with numpy
      python3-dev    # pyACL: the CPython module acl (acl/python)
      parallel)      # scripts/batch: sharded inference
for arg in "$@"; do
  case "$arg" in
    --models) pkgs+=(python3-onnx python3-numpy python3-torch python3-torchvision python3-sklearn) ;;
    --bench) pkgs+=(python3-onnx python3-numpy python3-torch python3-torchvision nodejs npm) ;;
    --test) pkgs+=(chromium clang-format slurm-wlm python3-onnx) ;;  # onnx: the precision-debugging tests' models and checker
    --fuzz) pkgs+=(clang libclang-rt-14-dev libomp-dev ccache) ;;
    *) echo "install-deps.sh: unknown option '$arg' (use --models, --bench, --test or --fuzz)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # nodejs/npm may come from elsewhere than Debian: accept working binaries
    if { [ "$p" = nodejs ] && command -v node >/dev/null; } ||
       { [ "$p" = npm ] && command -v npm >/dev/null; }; then continue; fi
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && { echo "install-deps: all packages present"; exit 0; }

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# On a fresh machine another package manager often runs at boot (unattended upgrades, cloud-init)
# and holds the dpkg or lists lock. apt waits for the dpkg lock itself (DPkg::Lock::Timeout);
# `apt-get update` does not, so a failure that names a lock is retried until the same deadline.
# ASC_APT_LOCK_WAIT (seconds, default 600) bounds the wait; ASC_APT_RETRY_S (default 5) spaces
# the tries.
wait_s=${ASC_APT_LOCK_WAIT:-600}
apt() { $SUDO apt-get -o DPkg::Lock::Timeout="$wait_s" "$@"; }
apt_update() {
  local deadline=$((SECONDS + wait_s)) tries=0 out
  while :; do
    if out=$(apt update -qq 2>&1); then return 0; fi
    tries=$((tries + 1))
    if grep -qi 'lock' <<<"$out" && ((SECONDS < deadline)); then
      echo "install-deps: another package manager holds the apt lock; waiting (up to ${wait_s} s in all)" >&2
      sleep "${ASC_APT_RETRY_S:-5}"
    elif ((tries < 2)); then
      echo "install-deps: apt-get update failed; retrying once:" >&2
      echo "$out" >&2
      sleep "${ASC_APT_RETRY_S:-5}"
    else
      echo "$out" >&2
      echo "install-deps: apt-get update failed twice; check the network and /etc/apt/sources.list" >&2
      return 1
    fi
  done
}
if ! apt install -y --no-install-recommends "${missing[@]}"; then
  apt_update
  apt install -y --no-install-recommends "${missing[@]}"
fi
