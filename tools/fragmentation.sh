#!/usr/bin/env bash
# Sets everything up, builds the release configuration and reproduces the
# fragmentation results: `lanai-emu frag` for PVIA and QoS-VIA (static
# fragment sizes on the card against the pipeline model on the card's
# stages, measured directly), then the GAM and AN2 pipeline experiments
# (host-level fragments against the published stage sets and the models
# fitted to the emulated path). Writes everything under
# build/release/fragmentation/ and prints the tables and plot paths.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh release

emu=build/release/lanai-emu
out=build/release/fragmentation
for fw in pvia qosvia; do
  "$emu" frag --firmware "$fw" --sizes 4K,16K,64K --frag-sizes auto --out "$out/frag-$fw"
  echo
done
for experiment in gam-pipeline an2-pipeline; do
  "$emu" run "bench/experiments/$experiment.toml" --out "$out/$experiment"
  echo
done
