#!/usr/bin/env bash
# Sets everything up, builds and runs the whole test suite.
#   tools/test.sh              the ci preset (optimised, assertions on)
#   tools/test.sh --sanitize   the sanitize preset (lightly optimised,
#                              assertions on, AddressSanitizer + UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=ci
if [[ "${1:-}" == "--sanitize" ]]; then preset=sanitize; fi
bash tools/setup.sh
# Both presets compile the same firmware for the LANai: through ccache,
# with its cache in the build tree, the second build takes the first one's
# objects.
export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}"
# Every firmware compile writes its dependency file, so ccache takes the
# headers from it instead of running the preprocessor first.
export CCACHE_DEPEND="${CCACHE_DEPEND:-true}"
cmake --preset "$preset" -DLANAI_FIRMWARE_LAUNCHER=ccache >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One test more than there are cores: the MPI tests spend seconds waiting
# on mpirun's kill timers, and another test uses the core meanwhile.
ctest --preset "$preset" -j "$(( $(nproc) + 1 ))"
