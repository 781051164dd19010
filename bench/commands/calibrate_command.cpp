// `lanai-emu calibrate`: fits chosen keys of a hardware profile so that the
// emulator's ping-pong latencies match a table of published ones (least
// squares on relative errors), then prints the fitted profile and how well
// every cell matches. Without --fit it only evaluates the profile.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <set>
#include <string>

#include "bench/calibration/calibration_report.hpp"
#include "bench/calibration/fit_keys.hpp"
#include "bench/calibration/latency_model.hpp"
#include "bench/calibration/least_squares_fit.hpp"
#include "bench/calibration/target_table.hpp"
#include "bench/commands/bench_commands.hpp"
#include "bench/commands/command_options.hpp"

namespace lanai::bench {

namespace {

struct CalibrateOptions {
  std::string table;
  std::string profile = default_bench_profile;
  std::string fit;
  std::uint32_t iters = 50;
  int max_rounds = 20;
  std::string out;
  std::string name;
  unsigned threads = 0;
  std::uint64_t seed = 1;
  std::string reliability = "unreliable";
  bool check = false;
  double median_limit = 15;
  double one_way_limit = 20;
};

// Every firmware of the table must exist before hours of fitting start.
void check_firmwares(const std::vector<TargetCell>& cells, const profile::HardwareProfile& profile,
                     const std::string& table) {
  std::set<std::string> checked;
  for (const TargetCell& c : cells) {
    if (!checked.insert(c.firmware).second)
      continue;
    ClusterSetup setup;
    setup.profile = profile;
    setup.firmware = c.firmware;
    try {
      (void)cluster_config(setup);
    } catch (const std::exception& e) {
      throw CalibrationError(fmt::format("{}:{}: {}", table, c.line, e.what()));
    }
  }
}

std::string describe(const std::vector<FitParameter>& keys, const std::vector<double>& values) {
  std::string s;
  for (std::size_t j = 0; j < keys.size(); ++j)
    s += fmt::format(" {}={}", keys[j].name,
                     keys[j].integer ? fmt::format("{}", std::llround(values[j]))
                                     : fmt::format("{:.4g}", values[j]));
  return s;
}

int run_calibrate(const CalibrateOptions& o) {
  const std::vector<TargetCell> cells = read_target_table(o.table);
  profile::HardwareProfile base = profile::find_profile(o.profile);
  const std::vector<FitParameter> keys = parse_fit_keys(o.fit, base);
  check_firmwares(cells, base, o.table);

  LatencyModel model(cells, {o.iters, 1, o.seed, o.threads, parse_reliability(o.reliability)});
  auto residuals_at = [&](const profile::HardwareProfile& p) {
    const std::vector<double> values = model.evaluate(p);
    std::vector<double> r;
    for (std::size_t i = 0; i < cells.size(); ++i)
      r.push_back(relative_error(values[i], cells[i].target_us));
    return r;
  };

  profile::HardwareProfile fitted = base;
  if (!keys.empty()) {
    FitOptions fit_options;
    fit_options.max_rounds = o.max_rounds;
    fit_options.on_round = [&](const FitRound& round) {
      fmt::print(stderr, "calibrate: {:<7} {:>2}  cost {:.5f}  rms {:.2f}%{}\n", round.phase,
                 round.round, round.cost,
                 100 * std::sqrt(round.cost / static_cast<double>(cells.size())),
                 describe(keys, round.values));
    };
    const FitResult result = fit_least_squares(
        keys, [&](const std::vector<double>& x) { return residuals_at(apply_fit(base, keys, x)); },
        fit_options);
    fitted = apply_fit(base, keys, result.values);
    fmt::print(stderr, "calibrate: done after {} evaluations, cost {:.5f}\n", result.evaluations,
               result.cost);
    if (!o.name.empty())
      fitted.name = o.name;
    const std::string text = profile::dump_profile(fitted);
    if (o.out.empty())
      fmt::print("{}\n", text);
    else
      write_text_file(o.out, text);
  }

  const std::vector<double> values = model.evaluate(fitted);
  const CalibrationSummary summary = summarize_fit(cells, values);
  fmt::print("# profile {}, {} timed round trips per ping-pong{}\n", fitted.name, o.iters,
             reliability_suffix(o.reliability));
  fmt::print("{}\n", render_cells(cells, values));
  const double median_limit = o.median_limit / 100, one_way_limit = o.one_way_limit / 100;
  fmt::print("{}", render_summary(cells, summary, median_limit, one_way_limit));
  return o.check && !meets(summary, median_limit, one_way_limit) ? 3 : 0;
}

} // namespace

void add_calibrate_command(cli::Command& app, int& exit_status) {
  auto options = std::make_shared<CalibrateOptions>();
  cli::Command* cmd = app.add_subcommand(
      "calibrate", "fit hardware-profile keys to a table of published ping-pong latencies");
  cmd->add_option("table", options->table,
                  "target CSV: firmware,size,quantity,target_us (e.g. "
                  "bench/calibration/published-latency.csv)")
      ->required();
  cmd->add_option("--profile", options->profile, "starting profile: shipped name or TOML file")
      ->capture_default_str();
  cmd->add_option("--fit", options->fit,
                  "profile keys to fit, comma-separated, each optionally KEY=LO:HI; "
                  "none: evaluate the profile only");
  cmd->add_option("--iters", options->iters, "timed round trips per ping-pong (median 1-way)")
      ->check_range(1u, 1'000'000u)
      ->capture_default_str();
  cmd->add_option("--max-rounds", options->max_rounds, "Levenberg-Marquardt rounds at most")
      ->check_range(0, 1000)
      ->capture_default_str();
  cmd->add_option("--out", options->out, "write the fitted profile to FILE instead of stdout");
  cmd->add_option("--name", options->name,
                  "name of the fitted profile (default: the starting one's)");
  cmd->add_option("--threads", options->threads, "worker threads (0: one per hardware thread)")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "random seed of the runs")->capture_default_str();
  cmd->add_option("--reliability", options->reliability, reliability_help)
      ->check_member(reliability_names)
      ->capture_default_str();
  cmd->add_flag("--check", options->check,
                "exit with status 3 unless the limits below are met and the 1-way latencies are "
                "ordered SVIA < PVIA <= QoS-VIA");
  cmd->add_option("--median-limit", options->median_limit,
                  "limit on the median absolute error over all cells (%)")
      ->capture_default_str();
  cmd->add_option("--one-way-limit", options->one_way_limit, "limit on every 1-way error (%)")
      ->capture_default_str();
  cmd->callback([options, &exit_status] { exit_status = run_calibrate(*options); });
}

} // namespace lanai::bench
