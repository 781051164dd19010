#!/usr/bin/env bash
# Sets everything up, builds the release configuration and runs the main
# job: ping-pong over one VI between two emulated nodes running the SVIA
# firmware, at the message sizes of the published latency table, printed
# next to the published figures, with a CSV and a plot of latency vs size.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"

out=build/release/main
mkdir -p "$out"
pingpong=build/release/hostlib/examples/pingpong
# The published SVIA 1-way latencies (us) for 4 B, 1 KB, 4 KB and 16 KB.
declare -A published=([4]=30 [1024]=53 [4096]=121 [16384]=385)

echo "size_bytes,one_way_us,published_us" > "$out/pingpong.csv"
printf '%-10s %14s %14s\n' "size (B)" "one-way (us)" "published (us)"
for size in 4 1024 4096 16384; do
  line=$("$pingpong" --nodes 2 --firmware svia -- "$size" 50)
  us=$(sed -E 's/.*one-way ([0-9.]+) us$/\1/' <<<"$line")
  printf '%-10s %14s %14s\n' "$size" "$us" "${published[$size]}"
  echo "$size,$us,${published[$size]}" >> "$out/pingpong.csv"
done

gnuplot <<GNUPLOT
set terminal png size 800,520
set output "$out/pingpong.png"
set datafile separator ","
set key top left
set logscale x 2
set logscale y
set xlabel "message size (bytes)"
set ylabel "1-way latency (us)"
set title "SVIA ping-pong, emulated vs published"
plot "$out/pingpong.csv" skip 1 using 1:2 with linespoints title "lanai-emu (svia)", \
     "" skip 1 using 1:3 with linespoints title "published SVIA"
GNUPLOT
echo "table: $out/pingpong.csv"
echo "plot:  $out/pingpong.png"
