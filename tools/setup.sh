#!/usr/bin/env bash
# Installs every build and run dependency of lanai-emu from Debian packages.
# Idempotent and non-interactive: packages already present are left alone.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libboost-dev libboost-context-dev libboost-system-dev
  libfmt-dev doctest-dev libcli11-dev libtomlplusplus-dev libglpk-dev
  clang-14 llvm-14 lld-14 libclang-rt-14-dev clang-format-14
  gnuplot-nox python3
  libopenmpi-dev openmpi-bin
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "lanai-emu: all dependencies present"
