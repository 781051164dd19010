// `lanai-emu pingbulk`: average 1-way latency per message when windows of W
// messages go each way, per size and window, and the best window.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/commands/bench_commands.hpp"
#include "bench/commands/command_options.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "bench/workloads/pingbulk.hpp"

namespace lanai::bench {

namespace {

struct PingbulkOptions {
  std::string firmware = "svia";
  std::string sizes = "4,1K,4K,16K";
  std::string windows = "1,2,4,8,16,32";
  std::uint32_t rounds = 20;
  std::uint32_t recv_depth = 0;
  bool flow_control = false;
  std::string reliability = "unreliable";
  std::string format = "table";
  std::string profile = default_bench_profile;
  std::uint64_t seed = 1;
};

struct BulkSizeResult {
  std::uint32_t size;
  std::vector<std::pair<std::uint32_t, std::optional<double>>> by_window; // nullopt: overrun
  std::uint32_t best_window = 0;
  double best_us = 0;
};

std::string cell(const std::optional<double>& v) {
  return v ? fmt::format("{:.2f}", *v) : std::string("overrun");
}

std::string render(const PingbulkOptions& o, const std::string& profile, OutputFormat format,
                   const std::vector<BulkSizeResult>& results) {
  std::string out;
  switch (format) {
  case OutputFormat::table:
    out =
        fmt::format("# lanai-emu pingbulk: firmware {}, profile {}, {} timed rounds per point{}{}\n"
                    "# average 1-way latency per message (us) by window W\n",
                    o.firmware, profile, o.rounds, o.flow_control ? ", credit flow control" : "",
                    reliability_suffix(o.reliability));
    out += fmt::format("{:>10}", "size(B)");
    for (const auto& [w, v] : results.front().by_window)
      out += fmt::format(" {:>9}", fmt::format("W={}", w));
    out += fmt::format(" {:>7} {:>9}\n", "best W", "best");
    for (const BulkSizeResult& r : results) {
      out += fmt::format("{:>10}", r.size);
      for (const auto& [w, v] : r.by_window)
        out += fmt::format(" {:>9}", cell(v));
      out += r.best_window ? fmt::format(" {:>7} {:>9.2f}\n", r.best_window, r.best_us)
                           : fmt::format(" {:>7} {:>9}\n", "-", "-");
    }
    break;
  case OutputFormat::csv:
    out = "firmware,size,window,one_way_us,overrun\n";
    for (const BulkSizeResult& r : results)
      for (const auto& [w, v] : r.by_window)
        out += fmt::format("{},{},{},{},{}\n", o.firmware, r.size, w,
                           v ? fmt::format("{:.3f}", *v) : "", v ? 0 : 1);
    break;
  case OutputFormat::json:
    out =
        fmt::format("{{\"firmware\":\"{}\",\"profile\":\"{}\",\"rounds\":{},"
                    "\"flow_control\":{},{}\"results\":[",
                    o.firmware, profile, o.rounds, o.flow_control, reliability_json(o.reliability));
    for (std::size_t i = 0; i < results.size(); ++i) {
      const BulkSizeResult& r = results[i];
      std::string by, overrun;
      for (const auto& [w, v] : r.by_window) {
        by += fmt::format("{}\"{}\":{}", by.empty() ? "" : ",", w,
                          v ? fmt::format("{:.3f}", *v) : "null");
        if (!v)
          overrun += fmt::format("{}{}", overrun.empty() ? "" : ",", w);
      }
      out += fmt::format(
          "{}\n  {{\"size\":{},\"best_window\":{},\"best_us\":{:.3f},\"by_window\":{{{}}},"
          "\"overrun_windows\":[{}]}}",
          i ? "," : "", r.size, r.best_window, r.best_us, by, overrun);
    }
    out += "\n]}\n";
    break;
  }
  return out;
}

int run_pingbulk(const PingbulkOptions& given) {
  // Output names the firmware by its label: a shipped name or a folder's own.
  const loader::FirmwareSource firmware = loader::find_firmware(given.firmware);
  PingbulkOptions o = given;
  o.firmware = firmware.label;
  const OutputFormat format = parse_format(o.format);
  const auto sizes = parse_sizes(o.sizes);
  const auto windows = parse_counts(o.windows, "window");
  PingBulkSpec spec;
  spec.setup.profile = profile::find_profile(o.profile);
  spec.setup.firmware = firmware.value();
  spec.setup.seed = o.seed;
  spec.rounds = o.rounds;
  spec.recv_depth = o.recv_depth;
  spec.flow_control = o.flow_control;
  spec.reliability = parse_reliability(o.reliability);
  std::vector<BulkSizeResult> results;
  int status = 0;
  for (const std::uint32_t size : sizes) {
    BulkSizeResult sr{size, {}, 0, 0};
    for (const std::uint32_t w : windows) {
      spec.size = size;
      spec.window = w;
      const PingBulkResult r = run_pingbulk(spec);
      if (r.ok()) {
        sr.by_window.emplace_back(w, r.one_way_us);
        if (sr.best_window == 0 || r.one_way_us < sr.best_us)
          sr.best_window = w, sr.best_us = r.one_way_us;
      } else {
        sr.by_window.emplace_back(w, std::nullopt);
        if (!r.overrun) {
          fmt::print(stderr, "lanai-emu pingbulk: {} bytes, window {}: {}\n", size, w, r.failure);
          status = 2;
        }
      }
    }
    results.push_back(std::move(sr));
  }
  fmt::print("{}", render(o, spec.setup.profile.name, format, results));
  return status;
}

} // namespace

void add_pingbulk_command(cli::Command& app, int& exit_status) {
  auto options = std::make_shared<PingbulkOptions>();
  cli::Command* cmd = app.add_subcommand(
      "pingbulk", "windows of W messages each way between two nodes: 1-way latency per message");
  cmd->add_option("--firmware", options->firmware,
                  "firmware on both nodes: a shipped name or a firmware folder's path (containing "
                  "'/')")
      ->capture_default_str();
  cmd->add_option("--sizes", options->sizes, "message sizes in bytes, K and M suffixes allowed")
      ->capture_default_str();
  cmd->add_option("--windows", options->windows, "windows W to try (1..64)")->capture_default_str();
  cmd->add_option("--rounds", options->rounds, "timed rounds per point")
      ->check_range(1u, 1'000'000u)
      ->capture_default_str();
  cmd->add_option("--recv-depth", options->recv_depth,
                  "receives the echoing node posts per round (0: the window); a smaller depth "
                  "overruns it, as VIA has no flow control")
      ->capture_default_str();
  cmd->add_flag("--flow-control", options->flow_control,
                "credit flow control on both VIs: the echoing node keeps --recv-depth receives "
                "posted, posting each again as it is taken, and the sender's card waits for "
                "credits instead of overrunning it");
  cmd->add_option("--reliability", options->reliability, reliability_help)
      ->check_member(reliability_names)
      ->capture_default_str();
  cmd->add_option("--format", options->format, "table, csv or json")->capture_default_str();
  cmd->add_option("--profile", options->profile, "hardware profile: shipped name or TOML file")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "random seed of the run")->capture_default_str();
  cmd->callback([options, &exit_status] { exit_status = run_pingbulk(*options); });
}

} // namespace lanai::bench
