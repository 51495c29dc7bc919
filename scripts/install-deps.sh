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

pkgs=(cmake g++ make libcxxopts-dev libfmt-dev libprotobuf-dev protobuf-compiler catch2
      zlib1g-dev libdnnl-dev ocl-icd-opencl-dev libonnx-dev pkg-config libonnx-testdata
      python3-numpy  # the CLI tests write and check tensors with numpy
      parallel)      # scripts/batch: sharded inference
for arg in "$@"; do
  case "$arg" in
    --models) pkgs+=(python3-onnx python3-numpy python3-torch python3-torchvision python3-sklearn) ;;
    --bench) pkgs+=(python3-onnx python3-numpy python3-torch python3-torchvision nodejs npm) ;;
    --test) pkgs+=(chromium clang-format slurm-wlm) ;;
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
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
