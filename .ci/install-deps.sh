#!/usr/bin/env bash
# install-deps.sh -- install what Kobalt's build, tests and demo need on Debian 12.
#
# Idempotent: installs only the packages that are missing and does nothing (no
# apt-get update, no root) when all are there. Runs apt-get directly as root and
# through sudo otherwise. OpenBLAS comes in its OpenMP flavour, so that OpenBLAS
# calls made inside Kobalt's OpenMP parallel region stay single-threaded; if the
# pthread flavour is installed too and selected through update-alternatives, the
# OpenMP one is selected instead.
set -euo pipefail

packages=(
  cmake ninja-build gcc g++ pkg-config
  libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  libopenblas-openmp-dev liblapacke-dev
  libcmocka-dev
  gfortran
  python3 python3-numpy python3-pytest python3-setuptools python3-pip
  # The libFuzzer step of .ci/run: clang, its runtimes (libclang_rt.fuzzer, asan, ubsan)
  # and its OpenMP runtime (the openmp plugin built by clang links libomp).
  clang-14 libclang-rt-14-dev libomp-14-dev
)

say() { printf 'install-deps: %s\n' "$*"; }

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  say "not a Debian-like system; install the equivalents of: ${packages[*]}"
  exit 0
fi

as_root=()
need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then
      as_root=(sudo)
    else
      say "need root (or sudo) to install: $*" >&2
      exit 1
    fi
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  need_root "${missing[@]}"
  say "installing: ${missing[*]}"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
else
  say "all packages present: ${packages[*]}"
fi

# Prefer the OpenMP OpenBLAS wherever the pthread flavour is the selected alternative
# (libblas.so.3, liblapack.so.3, libopenblas.so.0, ... of this architecture).
if command -v update-alternatives >/dev/null; then
  while read -r name _ value; do
    case "$value" in
      */openblas-pthread/*) ;;
      *) continue ;;
    esac
    openmp=${value/openblas-pthread/openblas-openmp}
    if update-alternatives --list "$name" 2>/dev/null | grep -qxF "$openmp"; then
      need_root update-alternatives
      say "selecting $openmp for $name (was $value)"
      "${as_root[@]}" update-alternatives --set "$name" "$openmp" >/dev/null
    fi
  done < <(update-alternatives --get-selections 2>/dev/null || true)
fi
