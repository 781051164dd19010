// Plots of a jitter sweep, drawn by gnuplot: theta.png and jittered.png
// (one panel per QoS class, total load on x, one line per firmware) and
// be-latency.png (mean best-effort latency against load). The data files
// and gnuplot scripts stay in DIR/plots so users can restyle and re-render;
// every script the bench writes starts with gnuplot_header's lines.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "bench/sweep/jitter_results.hpp"

namespace lanai::bench {

struct PlotFiles {
  std::vector<std::filesystem::path> scripts; // DIR/plots/*.gp
  std::vector<std::filesystem::path> images;  // DIR/*.png, once rendered
};

// Writes DIR/plots/<firmware>.dat and the scripts; renders nothing.
PlotFiles write_plot_scripts(const std::filesystem::path& dir, const JitterSweep& sweep);

// The first lines of every gnuplot script the bench writes into DIR/plots:
// how to re-render it, and the PNG DIR/<image>.png of width x height.
std::string gnuplot_header(const std::string& image, std::size_t width, std::size_t height);

// Runs gnuplot on each script (in DIR/plots). Returns the images drawn; on
// failure (e.g. no gnuplot on the PATH) fills `warning` and draws what it can.
std::vector<std::filesystem::path> render_plots(const PlotFiles& files, std::string& warning);

} // namespace lanai::bench
