#!/usr/bin/env bash
# Sets everything up, builds the release configuration and runs the main
# job: the high-load CBR jitter experiment (bench/experiments/cbr-highload.toml)
# for SVIA, PVIA and QoS-VIA on the calibrated myrinet-lanai7 profile, on all
# cores. Prints the summary table and the paths of the results and plots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh release

out=build/release/main/cbr-highload
build/release/lanai-emu run bench/experiments/cbr-highload.toml --out "$out" "$@"
