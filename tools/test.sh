#!/usr/bin/env bash
# Sets everything up, builds and runs the whole test suite.
#   tools/test.sh              the ci preset (optimised, assertions on)
#   tools/test.sh --sanitize   the sanitize preset (lightly optimised,
#                              assertions on, AddressSanitizer + UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=ci
if [[ "${1:-}" == "--sanitize" ]]; then preset=sanitize; fi
bash tools/build.sh "$preset"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One test more than there are cores: the MPI tests spend seconds waiting
# on mpirun's kill timers, and another test uses the core meanwhile.
ctest --preset "$preset" -j "$(( $(nproc) + 1 ))"
