// bench_iss_speed: how fast the instruction-set simulator runs compute-heavy
// firmware, measured against the same C source compiled for the host. Wall
// clocks are used here and nowhere else in the emulator: this is a benchmark.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

#include "emulator/cli/command_line.hpp"
#include "emulator/machine/standalone_machine.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "bench/speed_report.hpp"

// The native build of bench/compute_kernels/compute_kernels.c (main renamed).
extern "C" int compute_kernels_main(void);
extern "C" std::uint32_t bench_scale;

namespace {

using namespace lanai;

struct Options {
  unsigned repeat = 3;
  bool quick = false;
  bool json = false;
  bool no_blocks = false;
  std::uint32_t scale = 0; // 0: the firmware's own default
  std::string profile;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Processor time of this (single-threaded) process, to tell a slow
// simulator from a busy host.
double cpu_seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

std::optional<double> load_average() {
  double load[1];
  if (getloadavg(load, 1) != 1)
    return std::nullopt;
  return load[0];
}

int run_benchmark(const Options& o) {
  const auto profile =
      o.profile.empty() ? profile::default_profile() : profile::load_profile(o.profile);
  const auto objects = machine::objects_in_manifest(BENCH_FIRMWARE_DIR);
  if (objects.empty())
    throw std::runtime_error("no firmware objects in " BENCH_FIRMWARE_DIR "/objects.txt");
  const auto image = machine::link_program(objects, profile);

  // Both builds start from the same initialised value, so the native one
  // tells the firmware's default; quick is a hundredth of it.
  const std::uint32_t full_scale = bench_scale;
  const std::uint32_t scale = o.quick   ? std::max<std::uint32_t>(1, full_scale / 100)
                              : o.scale ? o.scale
                                        : full_scale;
  // A guard against a runaway program: each round needs about 4.4 M cycles.
  const std::uint64_t max_cycles = 100'000'000ull * scale;

  bench::SpeedReport report;
  report.profile_name = profile.name;
  report.clock_mhz = profile.lanai.clock_mhz;
  report.scale = scale;
  report.load_average = load_average();
  for (unsigned i = 0; i < o.repeat; ++i) {
    // A fresh machine each run, so every run decodes the code from scratch
    // as a newly loaded firmware would; only run() is timed.
    machine::StandaloneMachine m(profile, image);
    m.cpu().write_word(m.symbol("bench_scale"), scale);
    if (o.no_blocks)
      m.cpu().set_blocks(false);
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const auto r = m.run(max_cycles);
    const double cpu = cpu_seconds_since(cpu_start);
    const double wall = seconds_since(start);
    if (r.stop != machine::ExecStop::exited) {
      fmt::print(stderr, "bench_iss_speed: the firmware did not exit: {}\n",
                 r.stop == machine::ExecStop::fault ? r.fault_report : "cycle limit reached");
      return 2;
    }
    const auto checksum = static_cast<std::uint32_t>(r.exit_code);
    if (i > 0 && checksum != report.emulated_checksum) {
      fmt::print(stderr, "bench_iss_speed: run {} gave checksum 0x{:08x}, run 1 0x{:08x}\n", i + 1,
                 checksum, report.emulated_checksum);
      return 1;
    }
    report.emulated_checksum = checksum;
    report.runs.push_back({r.instructions, r.cycles, wall, cpu});

    bench_scale = scale;
    const auto native_start = std::chrono::steady_clock::now();
    report.native_checksum = static_cast<std::uint32_t>(compute_kernels_main());
    report.native_wall_s.push_back(seconds_since(native_start));
  }
  fmt::print("{}", o.json ? bench::format_json(report) : bench::format_table(report));
  return bench::checksums_match(report) ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  lanai::cli::Command app{"Measures the LANai instruction-set simulator's speed on compute-heavy "
                          "firmware against the same program run natively"};
  Options o;
  app.add_option("--repeat", o.repeat, "number of timed runs (default 3)")->check_range(1u, 1000u);
  app.add_flag("--quick", o.quick, "run a hundredth of the work (smoke test; times mean little)");
  app.add_option("--scale", o.scale, "rounds of each kernel (default: the firmware's, 100)")
      ->check_range(1u, 100000u)
      ->excludes("--quick");
  app.add_flag("--json", o.json, "print one JSON object instead of the table");
  app.add_flag("--no-blocks", o.no_blocks,
               "step every instruction instead of running predecoded blocks (the reference path)");
  app.add_option("--profile", o.profile,
                 "hardware profile (TOML); its clock sets the "
                 "real-time ratio")
      ->check_existing_file();
  if (const std::optional<int> status = app.parse(argc, argv, "bench_iss_speed"))
    return *status;
  try {
    return run_benchmark(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_iss_speed: {}\n", e.what());
    return 2;
  }
}
