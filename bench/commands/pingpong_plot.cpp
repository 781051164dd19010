#include "bench/commands/pingpong_plot.hpp"

#include <fmt/format.h>

#include <set>

#include "bench/commands/command_options.hpp"
#include "bench/sweep/plots.hpp"

namespace lanai::bench {

std::vector<std::filesystem::path> plot_latency_drops(const std::filesystem::path& dir,
                                                      const std::string& title,
                                                      const std::vector<DropLatency>& rows,
                                                      std::string& warning) {
  std::set<std::uint32_t> sizes;
  std::set<double> drops;
  for (const DropLatency& r : rows)
    if (r.drop > 0) {
      sizes.insert(r.size);
      drops.insert(r.drop);
    }
  if (drops.empty()) {
    warning = "no drop probability above 0: nothing to plot on a log scale";
    return {};
  }
  std::filesystem::create_directories(dir / "plots");
  std::string data;
  for (const std::uint32_t size : sizes) {
    data += fmt::format("# {} bytes: drop_probability median_us mean_us p99_us\n", size);
    for (const DropLatency& r : rows)
      if (r.size == size && r.drop > 0)
        data += fmt::format("{} {:.3f} {:.3f} {:.3f}\n", r.drop, r.median, r.mean, r.p99);
    data += "\n\n";
  }
  write_text_file(dir / "plots" / "latency-drops.dat", data);
  std::string script =
      gnuplot_header("latency-drops", 460 * sizes.size() + 60, 440) +
      fmt::format("set grid\nset key top left\nset logscale x 10\nset format x '1e%L'\n"
                  "set logscale y 10\nset xrange [{}:{}]\n"
                  "set xlabel 'drop probability per packet per link'\n"
                  "set ylabel '1-way latency (us)'\n"
                  "set multiplot layout 1,{} title '{}'\n",
                  *drops.begin() / 1.5, *drops.rbegin() * 1.5, sizes.size(), title);
  std::size_t block = 0;
  for (const std::uint32_t size : sizes) {
    script += fmt::format("set title '{} B messages'\n", size);
    script += fmt::format("plot 'latency-drops.dat' index {0} using 1:2 with linespoints pt 7 "
                          "title 'median', \\\n     'latency-drops.dat' index {0} using 1:3 with "
                          "linespoints pt 5 title 'mean', \\\n     'latency-drops.dat' index {0} "
                          "using 1:4 with linespoints pt 9 title '99th percentile'\n",
                          block++);
  }
  script += "unset multiplot\n";
  const std::filesystem::path gp = dir / "plots" / "latency-drops.gp";
  write_text_file(gp, script);
  return render_plots({{gp}, {}}, warning);
}

} // namespace lanai::bench
