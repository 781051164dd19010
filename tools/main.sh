#!/usr/bin/env bash
# Sets everything up, builds the release configuration and runs the main
# job. Until the bench exists the main job is the demo firmware program on
# an emulated LANai.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
exec build/release/emulator/cli/lanai-emu exec build/release/firmware/demo/lanai_demo/hello.o
