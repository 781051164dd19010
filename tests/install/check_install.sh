#!/usr/bin/env bash
# Installs a built lanai-emu tree into a scratch prefix and checks that code
# outside the tree can use it, both through find_package(LanaiEmu) and through
# pkg-config: host programs, and a firmware variant built with the firmware
# SDK and run in an experiment. Usage: check_install.sh <build dir> <scratch dir>
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <build dir> <scratch dir>" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
work_dir=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pingpong="$here/../../hostlib/examples/pingpong.c"

# The consumers must be built the way the tree was: same compiler, and with
# the sanitizers if the installed libraries were built with them.
cache_value() {
  sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt" | head -n 1
}
cmake_bin=$(cache_value CMAKE_COMMAND)
cmake_bin=${cmake_bin:-cmake}
cxx=$(cache_value CMAKE_CXX_COMPILER)
cxx=${cxx:-c++}
cc=$(cache_value CMAKE_C_COMPILER)
cc=${cc:-cc}
generator=$(cache_value CMAKE_GENERATOR)
flags=""
case "$(cache_value LANAI_EMU_SANITIZE)" in
  ON|on|TRUE|true|1|YES|yes)
    flags="-fsanitize=address,undefined -fno-sanitize-recover=all $(cache_value LANAI_EMU_SANITIZER_LINK_FLAGS_TEXT)" ;;
esac

rm -rf "$work_dir"
mkdir -p "$work_dir"
prefix="$work_dir/prefix"

echo "== installing $build_dir into $prefix"
"$cmake_bin" --install "$build_dir" --prefix "$prefix"

echo "== building the find_package consumer"
generator_args=()
if [[ -n "$generator" ]]; then
  generator_args=(-G "$generator")
fi
"$cmake_bin" -S "$here/consumer" -B "$work_dir/consumer-build" "${generator_args[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -DPINGPONG_SOURCE="$pingpong"
"$cmake_bin" --build "$work_dir/consumer-build"
"$work_dir/consumer-build/consumer"

echo "== building the pkg-config consumer"
pc_file=$(find "$prefix" -name lanai-emu.pc -path '*/pkgconfig/*' | head -n 1)
if [[ -z "$pc_file" ]]; then
  echo "lanai-emu.pc was not installed under $prefix" >&2
  exit 1
fi
pc_dir=$(dirname "$pc_file")
pc_flags=$(PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  pkg-config --cflags --libs lanai-emu)
echo "pkg-config flags: $pc_flags"
# Word splitting of the flag strings is intended.
# shellcheck disable=SC2086
"$cxx" -std=c++20 $flags "$here/pkgconfig_main.cpp" $pc_flags -o "$work_dir/pkgconfig_consumer"
"$work_dir/pkgconfig_consumer"

# The ping-pong example through lanai-emu-vipl.pc, and as built by the
# find_package consumer, run on the installed SVIA firmware (found through
# the environment, since the programs live outside the prefix).
vipl_pc=$(find "$prefix" -name lanai-emu-vipl.pc -path '*/pkgconfig/*' | head -n 1)
if [[ -z "$vipl_pc" ]]; then
  echo "lanai-emu-vipl.pc was not installed under $prefix" >&2
  exit 1
fi
echo "== building the ping-pong example (C, pkg-config lanai-emu-vipl)"
vipl_flags=$(PKG_CONFIG_PATH="$(dirname "$vipl_pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  pkg-config --cflags --libs lanai-emu-vipl)
echo "pkg-config flags: $vipl_flags"
# shellcheck disable=SC2086
"$cc" -std=c11 $flags "$pingpong" $vipl_flags -o "$work_dir/pingpong"
firmware_root="$prefix/share/lanai-emu/firmware"
for program in "$work_dir/pingpong" "$work_dir/consumer-build/pingpong"; do
  echo "== running $program"
  LANAI_EMU_FIRMWARE_DIR="$firmware_root" LANAI_EMU_RUNTIME_DIR="$firmware_root/runtime" \
    "$program" --nodes 2 -- 256 5 > "$work_dir/pingpong.out"
  cat "$work_dir/pingpong.out"
  grep -Eq "^pingpong: 256 bytes, 5 round trips intact, one-way [0-9.]+ us$" "$work_dir/pingpong.out"
done

# An ordinary program with main(), built the same way and run by the
# installed lanai-emu launch: one private copy per node.
echo "== building and launching the program with main() (pkg-config lanai-emu-vipl)"
# shellcheck disable=SC2086
"$cc" -std=c11 $flags "$here/../../hostlib/examples/vipl_pingpong.c" $vipl_flags \
  -o "$work_dir/vipl_pingpong"
LANAI_EMU_FIRMWARE_DIR="$firmware_root" LANAI_EMU_RUNTIME_DIR="$firmware_root/runtime" \
  "$prefix/bin/lanai-emu" launch --nodes 2 -- "$work_dir/vipl_pingpong" -s 256 -n 5 \
  > "$work_dir/vipl_pingpong.out"
cat "$work_dir/vipl_pingpong.out"
grep -Eq "^\[node0\] node0: 256 bytes, 5 round trips intact, one-way [0-9.]+ us$" \
  "$work_dir/vipl_pingpong.out"

# The firmware SDK: the EDF example variant built outside the tree with the
# package's CMake function and with pkg-config and make, the same objects
# both ways, then a small experiment run on both by the installed lanai-emu.
edf_source="$here/../../firmware/examples/edf-scheduler"
echo "== building the EDF variant (find_package(LanaiEmu COMPONENTS firmware))"
"$cmake_bin" -S "$edf_source" -B "$work_dir/edf-cmake" "${generator_args[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix"
"$cmake_bin" --build "$work_dir/edf-cmake"
echo "== building the EDF variant (pkg-config lanai-emu-firmware, make)"
firmware_pc=$(find "$prefix" -name lanai-emu-firmware.pc -path '*/pkgconfig/*' | head -n 1)
if [[ -z "$firmware_pc" ]]; then
  echo "lanai-emu-firmware.pc was not installed under $prefix" >&2
  exit 1
fi
PKG_CONFIG_PATH="$(dirname "$firmware_pc")" make -f "$edf_source/Makefile" OUT="$work_dir/edf-make"
cmp "$work_dir/edf-cmake/edf/objects.txt" "$work_dir/edf-make/edf/objects.txt"
while read -r object; do
  cmp "$work_dir/edf-cmake/edf/$object" "$work_dir/edf-make/edf/$object"
done < "$work_dir/edf-cmake/edf/objects.txt"
echo "== running an experiment on the variant"
cp "$here/data/edf-experiment.toml" "$work_dir/"
"$prefix/bin/lanai-emu" run "$work_dir/edf-experiment.toml" --out "$work_dir/edf-results" \
  > "$work_dir/edf-results.out"
cat "$work_dir/edf-results.out"
results="$work_dir/edf-results/results.csv"
for label in qosvia edf edf-make; do
  grep -q "^[0-9]*,$label,[0-9.]*,32MBps," "$results" || {
    echo "$results has no row of $label" >&2
    exit 1
  }
done
# The same objects give the same figures, whatever the label.
if [[ "$(grep ',edf,' "$results" | cut -d, -f3-)" != "$(grep ',edf-make,' "$results" | cut -d, -f3-)" ]]; then
  echo "the two builds of the variant gave different results" >&2
  exit 1
fi

echo "== install check passed"
