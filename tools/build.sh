#!/usr/bin/env bash
# Sets everything up and builds one CMake preset: tools/build.sh PRESET.
# Every preset compiles the same firmware for the LANai: through ccache,
# with its cache in the build tree, a second preset takes the first one's
# objects. Each firmware compile writes its dependency file, so ccache reads
# the headers from it (depend mode) instead of running the preprocessor
# first.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: tools/build.sh PRESET}
bash tools/setup.sh
export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}"
export CCACHE_DEPEND="${CCACHE_DEPEND:-true}"
cmake --preset "$preset" -DLANAI_FIRMWARE_LAUNCHER=ccache >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
