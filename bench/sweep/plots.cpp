// Gnuplot data files and scripts for a jitter sweep, and running gnuplot.
#include "bench/sweep/plots.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sweep/result_files.hpp"

namespace lanai::bench {

namespace {

constexpr const char* missing = "?";

std::string value_or_missing(bool present, double v) {
  return present ? fmt::format("{:.6f}", v) : std::string(missing);
}

// One data file per firmware: total load, then theta and jittered share per
// class, then best-effort mean and p99 latency.
std::string data_file(const JitterSweep& sweep, std::size_t firmware) {
  const Experiment& e = sweep.experiment;
  std::string out = "# total_load_MBps";
  for (const auto& c : e.jitter.classes)
    out += fmt::format(" theta_{0} jittered_{0}", c.name);
  out += " be_mean_us be_p99_us\n";
  for (const auto& rec : sweep.records) {
    if (!rec || rec->firmware != firmware || rec->status != PointStatus::ok)
      continue;
    out += fmt::format("{:.3f}", rec->total_mbytes_per_s);
    for (const auto& m : rec->classes) {
      const bool measured = m.jitter.intervals > 0;
      out += fmt::format(" {} {}", value_or_missing(measured, m.jitter.theta()),
                         value_or_missing(measured, m.jitter.jittered_fraction()));
    }
    const bool be = rec->best_effort && rec->best_effort->latency_us.count > 0;
    out += fmt::format(" {} {}\n", value_or_missing(be, be ? rec->best_effort->latency_us.avg : 0),
                       value_or_missing(be, be ? rec->best_effort->latency_us.p99 : 0));
  }
  return out;
}

std::string preamble(const std::string& image, int width, const std::string& title) {
  return gnuplot_header(image, static_cast<std::size_t>(width), 420) +
         fmt::format("set datafile missing '{0}'\n"
                     "set key below horizontal\n"
                     "set grid\n"
                     "set xlabel 'total injected load (MB/s)'\n"
                     "# {1}\n",
                     missing, title);
}

bool has_data(const JitterSweep& sweep, std::size_t firmware) {
  for (const auto& rec : sweep.records)
    if (rec && rec->firmware == firmware && rec->status == PointStatus::ok)
      return true;
  return false;
}

// One line per firmware with data, from `column` of its data file (1 is the
// load, then two per class, then the best-effort latencies).
std::string class_plot(const JitterSweep& sweep, std::size_t column) {
  std::string plot = "plot ";
  bool first = true;
  for (std::size_t f = 0; f < sweep.experiment.firmwares.size(); ++f) {
    if (!has_data(sweep, f))
      continue;
    const auto& name = sweep.experiment.firmwares[f].label;
    plot += fmt::format("{}'{}.dat' using 1:{} with linespoints title '{}'",
                        first ? "" : ", \\\n     ", name, column, name);
    first = false;
  }
  return plot + "\n";
}

// A dashed vertical line at each firmware's knee, in its line's colour, on
// every panel that follows, labelled near the top (the key is below the
// panels, out of the labels' way).
std::string knee_marks(const JitterSweep& sweep) {
  std::string s;
  int line = 0;
  for (std::size_t f = 0; f < sweep.experiment.firmwares.size(); ++f) {
    if (!has_data(sweep, f))
      continue;
    ++line;
    const auto knee = sweep.knee_mbytes_per_s(f);
    if (!knee)
      continue;
    s += fmt::format("set arrow from {0:.3f}, graph 0 to {0:.3f}, graph 1 nohead dt 2 lt {1}\n",
                     *knee, line);
    s += fmt::format("set label 'knee {0}' at {1:.3f}, graph {2:.2f} left offset 0.5,0 "
                     "tc lt {3} font ',8'\n",
                     sweep.experiment.firmwares[f].label, *knee, 0.95 - 0.06 * (line - 1), line);
  }
  return s;
}

std::string per_class_script(const JitterSweep& sweep, const std::string& image,
                             const std::string& ylabel, std::size_t offset, bool knees) {
  const auto& classes = sweep.experiment.jitter.classes;
  const int width = static_cast<int>(450 * classes.size());
  std::string s = preamble(image, width, ylabel + " per QoS class against load");
  s += fmt::format("set ylabel '{}'\n", ylabel);
  // One load axis for every panel: a class that has no channel at the
  // lowest loads would otherwise start its axis later, past a knee.
  if (!sweep.loads.empty()) {
    const auto [lo, hi] = std::minmax_element(sweep.loads.begin(), sweep.loads.end(),
                                              [](const LoadPoint& a, const LoadPoint& b) {
                                                return a.total_mbytes_per_s < b.total_mbytes_per_s;
                                              });
    const double pad = std::max(1.0, 0.05 * (hi->total_mbytes_per_s - lo->total_mbytes_per_s));
    s += fmt::format("set xrange [{:.3f}:{:.3f}]\n", lo->total_mbytes_per_s - pad,
                     hi->total_mbytes_per_s + pad);
  }
  if (knees)
    s += knee_marks(sweep);
  s += fmt::format("set multiplot layout 1,{} title '{}: {}'\n", classes.size(),
                   sweep.experiment.name, ylabel);
  for (std::size_t ci = 0; ci < classes.size(); ++ci) {
    s += fmt::format("set title '{}'\n", classes[ci].name);
    s += class_plot(sweep, 2 + 2 * ci + offset);
  }
  return s + "unset multiplot\n";
}

std::string be_script(const JitterSweep& sweep) {
  const std::size_t column = 2 + 2 * sweep.experiment.jitter.classes.size();
  std::string s = preamble("be-latency", 640, "best-effort 1-way latency against load");
  s += "set ylabel 'best-effort mean 1-way latency (us)'\n";
  s += fmt::format("set title '{}: best-effort latency'\n", sweep.experiment.name);
  return s + class_plot(sweep, column);
}

// Runs `gnuplot script` in `dir`; returns its exit status (127: not found).
int run_gnuplot(const std::filesystem::path& dir, const std::filesystem::path& script) {
  const pid_t child = fork();
  if (child < 0)
    return -1;
  if (child == 0) {
    if (chdir(dir.c_str()) != 0)
      _exit(126);
    execlp("gnuplot", "gnuplot", script.filename().c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (waitpid(child, &status, 0) < 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

PlotFiles write_plot_scripts(const std::filesystem::path& dir, const JitterSweep& sweep) {
  const auto plots = dir / "plots";
  std::filesystem::create_directories(plots);
  PlotFiles files;
  for (std::size_t f = 0; f < sweep.experiment.firmwares.size(); ++f)
    write_text_file(plots / (sweep.experiment.firmwares[f].label + ".dat"), data_file(sweep, f));
  bool any = false;
  for (std::size_t f = 0; f < sweep.experiment.firmwares.size(); ++f)
    any |= has_data(sweep, f);
  if (!any)
    return files;
  auto script = [&](const std::string& name, const std::string& text) {
    write_text_file(plots / (name + ".gp"), text);
    files.scripts.push_back(plots / (name + ".gp"));
  };
  script("theta", per_class_script(sweep, "theta", "jitter fraction theta", 0, true));
  script("jittered", per_class_script(sweep, "jittered", "share of messages jittered", 1, false));
  if (sweep.experiment.jitter.best_effort)
    script("be-latency", be_script(sweep));
  return files;
}

std::string gnuplot_header(const std::string& image, std::size_t width, std::size_t height) {
  return fmt::format("# Re-render with: gnuplot {0}.gp (in this folder)\n"
                     "set terminal pngcairo size {1},{2} noenhanced\n"
                     "set output '../{0}.png'\n",
                     image, width, height);
}

std::vector<std::filesystem::path> render_plots(const PlotFiles& files, std::string& warning) {
  std::vector<std::filesystem::path> images;
  for (const auto& script : files.scripts) {
    const int status = run_gnuplot(script.parent_path(), script);
    if (status == 127) {
      warning = "gnuplot not found: plots skipped (data and scripts are in " +
                script.parent_path().string() + ")";
      return images;
    }
    if (status != 0) {
      warning = fmt::format("gnuplot failed on {} (status {})", script.string(), status);
      continue;
    }
    images.push_back(script.parent_path().parent_path() / (script.stem().string() + ".png"));
  }
  return images;
}

} // namespace lanai::bench
