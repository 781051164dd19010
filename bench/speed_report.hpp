// The figures the simulator speed benchmark measures, the rates derived
// from them, and their two renderings: a text table and one JSON object.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanai::bench {

// The throughput the instruction-set simulator aims for on one host core.
inline constexpr double goal_minstr_per_s = 100.0;

struct EmulatedRun {
  std::uint64_t instructions = 0;
  std::uint64_t cycles = 0;
  double wall_s = 0.0;
  double cpu_s = 0.0; // processor time the run got; below wall_s on a busy host
};

struct SpeedReport {
  std::string profile_name;
  double clock_mhz = 0.0;             // the profile's LANai clock
  std::uint32_t scale = 0;            // rounds of each kernel the firmware ran
  std::optional<double> load_average; // host's 1-minute load, when known
  std::vector<EmulatedRun> runs;
  std::vector<double> native_wall_s; // the same program compiled for the host
  std::uint32_t emulated_checksum = 0;
  std::uint32_t native_checksum = 0;
};

// Emulated instructions (millions) per wall second.
double minstr_per_s(const EmulatedRun& run);
// Emulated cycles (millions) per wall second: the emulation's MHz.
double mcycles_per_s(const EmulatedRun& run);
// How many times faster than a real LANai at clock_mhz (below 1: slower).
double realtime_ratio(const EmulatedRun& run, double clock_mhz);

// The run with the highest instruction rate; the report must have runs.
const EmulatedRun& best_run(const SpeedReport& report);
double best_native_wall_s(const SpeedReport& report);
// Best emulated wall time over best native wall time.
double slowdown(const SpeedReport& report);
bool goal_met(const SpeedReport& report);
bool checksums_match(const SpeedReport& report);

std::string format_table(const SpeedReport& report);
std::string format_json(const SpeedReport& report);

} // namespace lanai::bench
