// `lanai-emu pingpong --drop-probabilities ... --plot DIR`: the 1-way
// latency against the drop probability, drawn by gnuplot.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lanai::bench {

// One size's 1-way latency (us) at one drop probability.
struct DropLatency {
  double drop = 0;
  std::uint32_t size = 0;
  double median = 0, mean = 0, p99 = 0;
};

// Writes DIR/plots/latency-drops.dat and latency-drops.gp and renders
// DIR/latency-drops.png: one panel per size, the median, mean and 99th
// percentile against the drop probability (log scale, so the fault-free
// points are left out). `title` names the run. Returns the image drawn;
// without gnuplot (or with no positive drop probability) fills `warning`
// and draws nothing.
std::vector<std::filesystem::path> plot_latency_drops(const std::filesystem::path& dir,
                                                      const std::string& title,
                                                      const std::vector<DropLatency>& rows,
                                                      std::string& warning);

} // namespace lanai::bench
