// How fast the emulator runs the queueing twin: the NIC send-path model at
// the busiest published rate (0.011 doorbells per us, host DMA ~98% busy)
// run until the host DMA's mean queue is known to +-5% (95% batch-means
// interval), or for a fixed number of doorbells (--doorbells, to compare
// with a hand-written simulation of the same network), with the wall time
// it took and the model's answer beside it. Given another program after
// "--" (that simulation), it runs rounds of both in alternating order and
// prints the ratio of their processor times. A benchmark that prints
// figures, not a test.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "emulator/cli/command_line.hpp"
#include "emulator/iss/cpu.hpp"
#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_solver.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "bench/queueing/twin_point.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "bench/timed_process.hpp"
#include "emulator/text/json_text.hpp"

namespace {

double median(const std::vector<double>& values) { return lanai::bench::summarize(values).median; }

std::string seconds_list(const std::vector<double>& values) {
  std::vector<std::string> items;
  for (const double v : values)
    items.push_back(fmt::format("{:.3f}", v));
  return fmt::format("[{}]", fmt::join(items, ", "));
}

} // namespace

int main(int argc, char** argv) {
  using namespace lanai;
  // Everything after "--" is the program to measure against.
  int split = 1;
  while (split < argc && std::strcmp(argv[split], "--") != 0)
    ++split;
  const std::vector<std::string> baseline(argv + std::min(split + 1, argc), argv + argc);
  cli::Command app{"Queueing-twin speed: wall time to a +-5% interval on the host DMA queue; "
                   "with -- PROGRAM [ARGS...], processor time against that program's"};
  std::string model_file = BENCH_NIC_SEND_MODEL;
  std::string profile_file = BENCH_PROFILE;
  double rate = 0.011;
  double target = 5.0;
  double max_s = 1000.0;
  bool pooled = false;
  std::uint64_t doorbells = 0;
  bool json = false;
  bool no_fast_forward = false;
  app.add_option("--model", model_file, "QNA model file")->capture_default_str();
  app.add_option("--profile", profile_file, "base hardware profile")->capture_default_str();
  app.add_option("--rate", rate, "doorbells per us")->capture_default_str();
  app.add_option("--target", target, "95% half-width to reach, percent of the mean")
      ->capture_default_str();
  app.add_option("--max-seconds", max_s, "most virtual time measured (s)")->capture_default_str();
  app.add_flag("--pooled", pooled, "one pooled LANai queue instead of cyclic polling");
  app.add_option("--doorbells", doorbells,
                 "ring exactly this many doorbells, however precise the estimate gets "
                 "(--target and --max-seconds then do not apply)")
      ->check_range(std::uint64_t{1}, std::numeric_limits<std::uint64_t>::max());
  app.add_flag("--json", json, "print the figures as one JSON object");
  app.add_flag("--no-fast-forward", no_fast_forward,
               "execute every polling cycle instead of skipping idle loops (same results)");
  unsigned rounds = 5;
  auto* rounds_option =
      app.add_option("--rounds", rounds,
                     "with a program after --: rounds of it and of the twin, in alternating "
                     "order (medians compared)")
          ->check_range(1u, 1000u)
          ->capture_default_str();
  if (const std::optional<int> status = app.parse(split, argv, "queue_twin_speed"))
    return *status;
  iss::set_default_fast_forward(!no_fast_forward);
  if (split < argc && baseline.empty()) {
    fmt::print(stderr, "queue_twin_speed: expected a program to measure against after --\n");
    return 1;
  }
  if (baseline.empty() && rounds_option->count() > 0) {
    fmt::print(stderr, "queue_twin_speed: --rounds needs a program to measure against (-- "
                       "PROGRAM [ARGS...])\n");
    return 1;
  }
  if (baseline.empty())
    rounds = 1;

  try {
    models::QnaNetwork model = models::load_qna_model(model_file);
    bench::TwinPointSpec spec;
    spec.profile = profile::load_profile(profile_file);
    spec.services = bench::twin_services(model);
    spec.pooled = pooled;
    spec.rate_per_us = rate;
    spec.warmup = kernel::milliseconds(50);
    spec.min_duration = kernel::milliseconds(200);
    spec.max_duration = kernel::SimTime::from_ps(static_cast<std::int64_t>(max_s * 1e12));
    spec.batches = 20;
    spec.target_precision = target / 100.0;
    if (doorbells != 0) {
      spec.max_doorbells = doorbells;
      spec.target_precision = 0;
      spec.max_duration = kernel::SimTime::from_ps(std::numeric_limits<std::int64_t>::max() / 2);
    }
    // Each round runs the twin afresh, and must give the same figures.
    std::optional<bench::TwinPointResult> first;
    std::vector<double> twin_cpu, baseline_cpu;
    std::string baseline_output;
    const auto run_baseline = [&] {
      bench::TimedProcess p = bench::run_timed_process(baseline);
      baseline_cpu.push_back(p.cpu_s);
      baseline_output = std::move(p.output);
    };
    for (unsigned round = 0; round < rounds; ++round) {
      const bool baseline_first = round % 2 == 0;
      if (!baseline.empty() && baseline_first)
        run_baseline();
      const double before = bench::own_cpu_seconds();
      bench::TwinPointResult twin = bench::run_twin_point(spec);
      twin_cpu.push_back(bench::own_cpu_seconds() - before);
      if (twin.status != bench::TwinStatus::ok) {
        fmt::print(stderr, "queue_twin_speed: {}\n", twin.detail);
        return 1;
      }
      if (!first) {
        first = std::move(twin);
      } else {
        twin.wall_seconds = first->wall_seconds;
        if (!(twin == *first)) {
          fmt::print(stderr, "queue_twin_speed: round {} gave other figures than round 1\n",
                     round + 1);
          return 1;
        }
      }
      if (!baseline.empty() && !baseline_first)
        run_baseline();
    }
    const bench::TwinPointResult& r = *first;
    if (!baseline.empty() && !(median(baseline_cpu) > 0)) {
      fmt::print(stderr, "queue_twin_speed: {} took no measurable processor time\n",
                 baseline.front());
      return 1;
    }
    model.rate_per_us = rate;
    const models::QnaResult qna = models::solve_qna(model);
    double qna_hdma = 0;
    for (const auto& s : qna.stations)
      if (s.name == "hdma")
        qna_hdma = s.queue;
    const bench::StationEstimate* hdma = nullptr;
    for (const auto& s : r.stations)
      if (s.station == "hdma")
        hdma = &s;
    if (!hdma) {
      fmt::print(stderr, "queue_twin_speed: the model has no host DMA station\n");
      return 1;
    }
    // The emulator's work per doorbell, the same on every host.
    const auto per_doorbell = [&](std::uint64_t count) {
      return static_cast<double>(count) / static_cast<double>(r.messages);
    };
    if (json) {
      fmt::print("{{\"wall_s\": {:.3f}, \"doorbells\": {}, \"virtual_s\": {:.6f}, "
                 "\"doorbells_per_wall_s\": {:.0f}, \"rate_per_us\": {}, \"pooled\": {}, "
                 "\"hdma_mean_queue\": {:.4f}, \"hdma_mean_queue_ci95\": {:.4f}, "
                 "\"qna_hdma_mean_queue\": {:.4f}, \"fast_forward\": {}, "
                 "\"skipped_cycles\": {}, \"lanai_instructions_per_doorbell\": {:.1f}, "
                 "\"events_per_doorbell\": {:.2f}, \"slices_per_doorbell\": {:.2f}",
                 r.wall_seconds, r.messages, r.virtual_seconds,
                 static_cast<double>(r.messages) / r.wall_seconds, rate, pooled, hdma->mean_queue,
                 hdma->mean_queue_ci95, qna_hdma, r.fast_forward, r.skipped_cycles,
                 per_doorbell(r.executed_instructions), per_doorbell(r.kernel_events),
                 per_doorbell(r.core_slices));
      if (!baseline.empty()) {
        fmt::print(", \"rounds\": {}, \"baseline_command\": {}, \"twin_cpu_s\": {}, "
                   "\"baseline_cpu_s\": {}, \"twin_cpu_s_median\": {:.3f}, "
                   "\"baseline_cpu_s_median\": {:.3f}, \"cpu_ratio_median\": {:.2f}, "
                   "\"baseline_output\": {}",
                   rounds, text::json_string(fmt::format("{}", fmt::join(baseline, " "))),
                   seconds_list(twin_cpu), seconds_list(baseline_cpu), median(twin_cpu),
                   median(baseline_cpu), median(twin_cpu) / median(baseline_cpu),
                   text::json_string(baseline_output));
      }
      fmt::print("}}\n");
      return 0;
    }
    fmt::print("queueing twin at {} per us ({}), profile '{}'\n", rate,
               pooled ? "pooled" : "cyclic", spec.profile.name);
    fmt::print(
        "host DMA: utilisation {:.4f}, mean queue {:.3f} +- {:.3f} (95%, {:.1f}%); QNA {:.3f}\n",
        hdma->utilization, hdma->mean_queue, hdma->mean_queue_ci95,
        100 * hdma->mean_queue_ci95 / hdma->mean_queue, qna_hdma);
    if (doorbells != 0)
      fmt::print("doorbells: {} rung, as asked\n", r.messages);
    else
      fmt::print("target +-{}%: {}\n", target,
                 r.precision_met ? "reached" : "NOT reached (time limit)");
    fmt::print("virtual time: {:.1f} s run, {:.1f} s measured; doorbells: {}\n", r.virtual_seconds,
               r.measured_ms / 1e3, r.messages);
    fmt::print("wall time: {:.1f} s ({:.2f} virtual s per wall s, {:.0f} doorbells per wall s)\n",
               r.wall_seconds, r.virtual_seconds / r.wall_seconds,
               static_cast<double>(r.messages) / r.wall_seconds);
    fmt::print("fast-forward: {}, {} idle LANai cycles skipped\n", r.fast_forward ? "on" : "off",
               r.skipped_cycles);
    fmt::print("work per doorbell: {:.1f} LANai instructions executed, {:.2f} kernel events and "
               "task runs, {:.2f} core slices\n",
               per_doorbell(r.executed_instructions), per_doorbell(r.kernel_events),
               per_doorbell(r.core_slices));
    if (!baseline.empty()) {
      fmt::print("\nagainst `{}`, processor time, {} rounds in alternating order:\n",
                 fmt::join(baseline, " "), rounds);
      for (unsigned round = 0; round < rounds; ++round)
        fmt::print("  round {}: {} {:.3f} s, then {} {:.3f} s\n", round + 1,
                   round % 2 == 0 ? "baseline" : "twin",
                   round % 2 == 0 ? baseline_cpu[round] : twin_cpu[round],
                   round % 2 == 0 ? "twin" : "baseline",
                   round % 2 == 0 ? twin_cpu[round] : baseline_cpu[round]);
      fmt::print("  medians: twin {:.3f} s, baseline {:.3f} s: the twin takes {:.2f} times the "
                 "baseline's time (every round's twin gave the same figures)\n",
                 median(twin_cpu), median(baseline_cpu), median(twin_cpu) / median(baseline_cpu));
      fmt::print("the baseline's output (last round):\n{}", baseline_output);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "queue_twin_speed: {}\n", e.what());
    return 1;
  }
  return 0;
}
