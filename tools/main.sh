#!/usr/bin/env bash
# Sets everything up, builds the release configuration and runs the main
# job: ping-pong over one VI between two emulated nodes, for each firmware,
# at the message sizes of the published latency table, printed next to the
# published figures, with a CSV and a plot of latency vs size.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"

out=build/release/main
mkdir -p "$out"
pingpong=build/release/hostlib/examples/pingpong
firmwares=(svia pvia qosvia)
sizes=(4 1024 4096 16384)
# The published 1-way latencies (us) for 4 B, 1 KB, 4 KB and 16 KB.
declare -A published=([svia]="30 53 121 385" [pvia]="69 90 153 423" [qosvia]="73 90 157 426")

echo "firmware,size_bytes,one_way_us,published_us" > "$out/pingpong.csv"
printf '%-9s %-10s %14s %15s\n' firmware "size (B)" "one-way (us)" "published (us)"
for fw in "${firmwares[@]}"; do
  read -r -a paper <<<"${published[$fw]}"
  for i in "${!sizes[@]}"; do
    size=${sizes[$i]}
    line=$("$pingpong" --nodes 2 --firmware "$fw" -- "$size" 50)
    us=$(sed -E 's/.*one-way ([0-9.]+) us$/\1/' <<<"$line")
    printf '%-9s %-10s %14s %15s\n' "$fw" "$size" "$us" "${paper[$i]}"
    echo "$fw,$size,$us,${paper[$i]}" >> "$out/pingpong.csv"
  done
done

plot=""
for fw in "${firmwares[@]}"; do
  grep "^$fw," "$out/pingpong.csv" > "$out/pingpong-$fw.csv"
  plot+="\"$out/pingpong-$fw.csv\" using 2:3 with linespoints title \"lanai-emu $fw\", "
  plot+="\"$out/pingpong-$fw.csv\" using 2:4 with points title \"published $fw\", "
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
set title "Ping-pong 1-way latency, emulated vs published"
plot ${plot%, }
GNUPLOT
echo "table: $out/pingpong.csv"
echo "plot:  $out/pingpong.png"
