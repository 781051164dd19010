// Derived rates of the simulator speed benchmark and their rendering as a
// table for people and as JSON for scripts that track the figures.
#include "bench/speed_report.hpp"

#include "emulator/text/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lanai::bench {

namespace {

// A run that finished within the clock's resolution must not divide by zero
// (and JSON has no infinity).
double positive(double seconds) { return std::max(seconds, 1e-9); }

std::string run_json(const EmulatedRun& run, double clock_mhz) {
  return fmt::format("{{\"instructions\":{},\"cycles\":{},\"wall_s\":{},\"cpu_s\":{},"
                     "\"minstr_per_s\":{},\"mcycles_per_s\":{},\"realtime_ratio\":{}}}",
                     run.instructions, run.cycles, run.wall_s, run.cpu_s, minstr_per_s(run),
                     mcycles_per_s(run), realtime_ratio(run, clock_mhz));
}

} // namespace

double minstr_per_s(const EmulatedRun& run) {
  return static_cast<double>(run.instructions) / positive(run.wall_s) / 1e6;
}

double mcycles_per_s(const EmulatedRun& run) {
  return static_cast<double>(run.cycles) / positive(run.wall_s) / 1e6;
}

double realtime_ratio(const EmulatedRun& run, double clock_mhz) {
  return mcycles_per_s(run) / clock_mhz;
}

const EmulatedRun& best_run(const SpeedReport& report) {
  return *std::max_element(
      report.runs.begin(), report.runs.end(),
      [](const EmulatedRun& a, const EmulatedRun& b) { return minstr_per_s(a) < minstr_per_s(b); });
}

double best_native_wall_s(const SpeedReport& report) {
  return positive(*std::min_element(report.native_wall_s.begin(), report.native_wall_s.end()));
}

double slowdown(const SpeedReport& report) {
  return positive(best_run(report).wall_s) / best_native_wall_s(report);
}

bool goal_met(const SpeedReport& report) {
  return minstr_per_s(best_run(report)) >= goal_minstr_per_s;
}

bool checksums_match(const SpeedReport& report) {
  return report.emulated_checksum == report.native_checksum;
}

std::string format_table(const SpeedReport& r) {
  std::string out =
      fmt::format("ISS speed: compute_kernels firmware, scale {}, profile '{}' (LANai at {} MHz)\n",
                  r.scale, r.profile_name, r.clock_mhz);
  if (r.load_average)
    out += fmt::format("host load average (1 min): {:.2f}; a busy host makes the times noisy\n",
                       *r.load_average);
  out += fmt::format("{:>3}  {:>12}  {:>12}  {:>8}  {:>8}  {:>10}  {:>10}  {:>11}\n", "run",
                     "instructions", "cycles", "wall s", "cpu s", "M instr/s", "M cycles/s",
                     "x real time");
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const auto& run = r.runs[i];
    out +=
        fmt::format("{:>3}  {:>12}  {:>12}  {:>8.3f}  {:>8.3f}  {:>10.1f}  {:>10.1f}  {:>11.2f}\n",
                    i + 1, run.instructions, run.cycles, run.wall_s, run.cpu_s, minstr_per_s(run),
                    mcycles_per_s(run), realtime_ratio(run, r.clock_mhz));
  }
  // Rates are per wall second; a run that got much less than a core says
  // more about the host's other work than about the simulator.
  const auto& best = best_run(r);
  if (best.cpu_s < 0.9 * best.wall_s)
    out += fmt::format("note: the best run got {:.0f}% of a core (cpu s / wall s); per "
                       "processor second it ran {:.1f} M instr/s\n",
                       100.0 * best.cpu_s / positive(best.wall_s),
                       static_cast<double>(best.instructions) / positive(best.cpu_s) / 1e6);
  out += fmt::format("native baseline (same C source, host -O2, best of {}): {:.4f} s\n",
                     r.native_wall_s.size(), best_native_wall_s(r));
  out += fmt::format("slowdown (best emulated wall / best native wall): {:.1f}x\n", slowdown(r));
  out += fmt::format("checksum: emulated 0x{:08x}, native 0x{:08x} ({})\n", r.emulated_checksum,
                     r.native_checksum, checksums_match(r) ? "match" : "MISMATCH");
  out += fmt::format("goal: >= {:.0f} M instructions/s on one core: {} (best run {:.1f})\n",
                     goal_minstr_per_s, goal_met(r) ? "met" : "not met", minstr_per_s(best_run(r)));
  return out;
}

std::string format_json(const SpeedReport& r) {
  std::string runs;
  for (const auto& run : r.runs) {
    if (!runs.empty())
      runs += ',';
    runs += run_json(run, r.clock_mhz);
  }
  std::string native;
  for (double s : r.native_wall_s) {
    if (!native.empty())
      native += ',';
    native += fmt::format("{}", s);
  }
  // The profile name comes from a TOML file; quote it as JSON requires.
  const std::string name = text::json_string(r.profile_name);
  return fmt::format(
      "{{\"profile\":{},\"clock_mhz\":{},\"scale\":{},\"load_average\":{},\"runs\":[{}],"
      "\"best\":{},\"native_wall_s\":[{}],\"native_best_wall_s\":{},\"slowdown\":{},"
      "\"emulated_checksum\":{},\"native_checksum\":{},\"checksums_match\":{},"
      "\"goal_minstr_per_s\":{},\"goal_met\":{}}}\n",
      name, r.clock_mhz, r.scale,
      r.load_average ? fmt::format("{}", *r.load_average) : std::string("null"), runs,
      run_json(best_run(r), r.clock_mhz), native, best_native_wall_s(r), slowdown(r),
      r.emulated_checksum, r.native_checksum, checksums_match(r), goal_minstr_per_s, goal_met(r));
}

} // namespace lanai::bench
