// How fast the emulator runs the queueing twin: the NIC send-path model at
// the busiest published rate (0.011 doorbells per us, host DMA ~98% busy)
// run until the host DMA's mean queue is known to +-5% (95% batch-means
// interval), with the wall time it took and the model's answer beside it.
// A benchmark that prints figures, not a test.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "models/qna_model_file.hpp"
#include "models/qna_solver.hpp"
#include "profile/hardware_profile.hpp"
#include "queueing/twin_point.hpp"

int main(int argc, char** argv) {
  using namespace lanai;
  CLI::App app{"Queueing-twin speed: wall time to a +-5% interval on the host DMA queue"};
  std::string model_file = BENCH_NIC_SEND_MODEL;
  std::string profile_file = BENCH_PROFILE;
  double rate = 0.011;
  double target = 5.0;
  double max_s = 1000.0;
  bool pooled = false;
  app.add_option("--model", model_file, "QNA model file")->capture_default_str();
  app.add_option("--profile", profile_file, "base hardware profile")->capture_default_str();
  app.add_option("--rate", rate, "doorbells per us")->capture_default_str();
  app.add_option("--target", target, "95% half-width to reach, percent of the mean")
      ->capture_default_str();
  app.add_option("--max-seconds", max_s, "most virtual time measured (s)")->capture_default_str();
  app.add_flag("--pooled", pooled, "one pooled LANai queue instead of cyclic polling");
  CLI11_PARSE(app, argc, argv);

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
    const bench::TwinPointResult r = bench::run_twin_point(spec);
    if (r.status != bench::TwinStatus::ok) {
      fmt::print(stderr, "queue_twin_speed: {}\n", r.detail);
      return 1;
    }
    model.rate_per_us = rate;
    const models::QnaResult qna = models::solve_qna(model);
    double qna_hdma = 0;
    for (const auto& s : qna.stations)
      if (s.name == "hdma") qna_hdma = s.queue;
    const bench::StationEstimate* hdma = nullptr;
    for (const auto& s : r.stations)
      if (s.station == "hdma") hdma = &s;
    if (!hdma) {
      fmt::print(stderr, "queue_twin_speed: the model has no host DMA station\n");
      return 1;
    }
    fmt::print("queueing twin at {} per us ({}), profile '{}'\n", rate, pooled ? "pooled" : "cyclic",
               spec.profile.name);
    fmt::print("host DMA: utilisation {:.4f}, mean queue {:.3f} +- {:.3f} (95%, {:.1f}%); QNA {:.3f}\n",
               hdma->utilization, hdma->mean_queue, hdma->mean_queue_ci95,
               100 * hdma->mean_queue_ci95 / hdma->mean_queue, qna_hdma);
    fmt::print("target +-{}%: {}\n", target, r.precision_met ? "reached" : "NOT reached (time limit)");
    fmt::print("virtual time measured: {:.1f} s, messages: {}\n", r.measured_ms / 1e3, r.messages);
    fmt::print("wall time: {:.1f} s ({:.2f} virtual s per wall s, {:.0f} messages per wall s)\n",
               r.wall_seconds, r.measured_ms / 1e3 / r.wall_seconds,
               static_cast<double>(r.messages) / r.wall_seconds);
  } catch (const std::exception& e) {
    fmt::print(stderr, "queue_twin_speed: {}\n", e.what());
    return 1;
  }
  return 0;
}
