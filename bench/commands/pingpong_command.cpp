// `lanai-emu pingpong`: 1-way latency per message size over one VI between
// two nodes, with the perftest-style columns and, on request, the
// per-operation breakdown of the published latency table.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bench/commands/bench_commands.hpp"
#include "bench/commands/command_options.hpp"
#include "bench/commands/pingpong_plot.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "emulator/trace/chrome_trace.hpp"
#include "bench/workloads/pingpong.hpp"

namespace lanai::bench {

namespace {

struct PingpongOptions {
  std::string firmware = "svia";
  std::string sizes = "4,1K,4K,16K";
  std::uint32_t iters = 100;
  std::uint32_t warmup = 1;
  bool breakdown = false;
  std::string receives = "on-arrival";
  std::string reliability = "unreliable";
  std::string format = "table";
  std::string profile = default_bench_profile;
  std::uint64_t seed = 1;
  std::string trace;
  std::string firmware_profile;
  std::string drop_probabilities; // empty: the profile's own
  std::string plot;
};

struct SizeResult {
  std::uint32_t size;
  LatencySummary one_way;
  std::optional<Breakdown> breakdown;
  std::optional<double> drop; // with --drop-probabilities
};

// The rows of the published table, in its order: label, JSON key, value.
struct Row {
  const char* label;
  const char* key;
  double value;
};
std::vector<Row> send_rows(const SendBreakdown& s) {
  return {{"send: HDMA prog (desc)", "hdma_prog_desc", s.hdma_prog_desc},
          {"send: desc down", "desc_down", s.desc_down},
          {"send: HDMA prog (data)", "hdma_prog_data", s.hdma_prog_data},
          {"send: data down", "data_down", s.data_down},
          {"send: NSDMA done", "nsdma_done", s.nsdma_done},
          {"send: HDMA prog (status)", "hdma_prog_status", s.hdma_prog_status},
          {"send: status done", "status_done", s.status_done}};
}
std::vector<Row> recv_rows(const RecvBreakdown& r) {
  return {{"recv: HDMA prog (desc)", "hdma_prog_desc", r.hdma_prog_desc},
          {"recv: desc down", "desc_down", r.desc_down},
          {"recv: HDMA prog (data)", "hdma_prog_data", r.hdma_prog_data},
          {"recv: data up", "data_up", r.data_up},
          {"recv: HDMA prog (status)", "hdma_prog_status", r.hdma_prog_status},
          {"recv: status done", "status_done", r.status_done}};
}

std::string render_table(const PingpongOptions& o, const std::string& profile_name,
                         const std::vector<SizeResult>& results) {
  std::string out = fmt::format(
      "# lanai-emu pingpong: firmware {}, profile {}, {} timed round trips per size after {} "
      "warm-up, receives posted {}{}\n# 1-way latency (us), half the round trip\n",
      o.firmware, profile_name, o.iters, o.warmup, o.receives, reliability_suffix(o.reliability));
  const bool drops = !results.empty() && results.front().drop;
  if (drops)
    out += fmt::format("{:>8} ", "drop");
  out += fmt::format("{:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "size(B)", "t_min",
                     "t_median", "t_avg", "t_stdev", "t_p99", "t_p999");
  for (const SizeResult& r : results)
    out += (drops ? fmt::format("{:>8} ", *r.drop) : std::string()) +
           fmt::format("{:>10} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}\n",
                       r.size, r.one_way.min, r.one_way.median, r.one_way.avg, r.one_way.stdev,
                       r.one_way.p99, r.one_way.p999);
  if (!o.breakdown)
    return out;
  out += "\n# breakdown (us), receives posted ahead: send side from the send doorbell, "
         "receive side from the message's arrival at the NIC\n";
  out += fmt::format("{:<26}", "operation");
  for (const SizeResult& r : results)
    out += fmt::format(" {:>9}", r.size);
  out += "\n";
  auto rows = [&](auto pick) {
    const std::size_t n = pick(results.front()).size();
    for (std::size_t i = 0; i < n; ++i) {
      out += fmt::format("{:<26}", pick(results.front())[i].label);
      for (const SizeResult& r : results)
        out += fmt::format(" {:>9.1f}", pick(r)[i].value);
      out += "\n";
    }
  };
  rows([](const SizeResult& r) { return send_rows(r.breakdown->send); });
  rows([](const SizeResult& r) { return recv_rows(r.breakdown->recv); });
  out += fmt::format("{:<26}", "1-way latency (median)");
  for (const SizeResult& r : results)
    out += fmt::format(" {:>9.1f}", r.one_way.median);
  out += "\n";
  return out;
}

std::string render_csv(const PingpongOptions& o, const std::vector<SizeResult>& results) {
  const bool drops = !results.empty() && results.front().drop;
  std::string out = drops
                        ? "firmware,drop_probability,size,t_min,t_median,t_avg,t_stdev,t_p99,t_p999"
                        : "firmware,size,t_min,t_median,t_avg,t_stdev,t_p99,t_p999";
  if (o.breakdown) {
    for (const Row& row : send_rows({}))
      out += fmt::format(",send_{}", row.key);
    for (const Row& row : recv_rows({}))
      out += fmt::format(",recv_{}", row.key);
  }
  out += "\n";
  for (const SizeResult& r : results) {
    out += fmt::format("{},{}{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}", o.firmware,
                       drops ? fmt::format("{},", *r.drop) : std::string(), r.size, r.one_way.min,
                       r.one_way.median, r.one_way.avg, r.one_way.stdev, r.one_way.p99,
                       r.one_way.p999);
    if (o.breakdown) {
      for (const Row& row : send_rows(r.breakdown->send))
        out += fmt::format(",{:.3f}", row.value);
      for (const Row& row : recv_rows(r.breakdown->recv))
        out += fmt::format(",{:.3f}", row.value);
    }
    out += "\n";
  }
  return out;
}

std::string render_json(const PingpongOptions& o, const std::string& profile_name,
                        const std::vector<SizeResult>& results) {
  auto object = [](const std::vector<Row>& rows) {
    std::string s = "{";
    for (std::size_t i = 0; i < rows.size(); ++i)
      s += fmt::format("{}\"{}\":{:.3f}", i ? "," : "", rows[i].key, rows[i].value);
    return s + "}";
  };
  std::string out = fmt::format(
      "{{\"firmware\":\"{}\",\"profile\":\"{}\",\"iters\":{},\"receives\":\"{}\",{}\"results\":[",
      o.firmware, profile_name, o.iters, o.receives, reliability_json(o.reliability));
  for (std::size_t i = 0; i < results.size(); ++i) {
    const SizeResult& r = results[i];
    const LatencySummary& s = r.one_way;
    out += fmt::format("{}\n  {{{}\"size\":{},\"one_way_us\":{{\"min\":{:.3f},\"median\":{:.3f},"
                       "\"avg\":{:.3f},\"stdev\":{:.3f},\"p99\":{:.3f},\"p999\":{:.3f}}}",
                       i ? "," : "",
                       r.drop ? fmt::format("\"drop_probability\":{},", *r.drop) : std::string(),
                       r.size, s.min, s.median, s.avg, s.stdev, s.p99, s.p999);
    if (r.breakdown)
      out +=
          fmt::format(",\"breakdown\":{{\"send\":{},\"recv\":{}}}",
                      object(send_rows(r.breakdown->send)), object(recv_rows(r.breakdown->recv)));
    out += "}";
  }
  return out + "\n]}\n";
}

int run_pingpong(const PingpongOptions& given) {
  // Output names the firmware by its label: a shipped name or a folder's own.
  const loader::FirmwareSource firmware = loader::find_firmware(given.firmware);
  PingpongOptions o = given;
  o.firmware = firmware.label;
  const OutputFormat format = parse_format(o.format);
  const std::vector<std::uint32_t> sizes = parse_sizes(o.sizes);
  PingPongSpec spec;
  spec.setup.profile = profile::find_profile(o.profile);
  spec.setup.firmware = firmware.value();
  spec.setup.seed = o.seed;
  spec.iters = o.iters;
  spec.warmup = o.warmup;
  spec.receives = parse_receive_posting(o.receives);
  spec.reliability = parse_reliability(o.reliability);
  // The breakdown is taken in the published table's loop; if the 1-way
  // figures come from the other loop, by a second run.
  const bool own_breakdown_run = o.breakdown && spec.receives != kBreakdownReceives;
  spec.breakdown = o.breakdown && !own_breakdown_run;
  trace::Recorder recorder;
  if (!o.trace.empty())
    spec.trace = &recorder;
  host::FirmwareProfiler profiler;
  if (!o.firmware_profile.empty())
    spec.profiler = &profiler;
  // Each drop probability on every link in turn, or the profile's own.
  std::vector<std::optional<double>> drops{std::nullopt};
  if (!o.drop_probabilities.empty()) {
    drops.clear();
    for (const double p : parse_probabilities(o.drop_probabilities))
      drops.emplace_back(p);
  }
  if (!o.plot.empty() && o.drop_probabilities.empty())
    throw std::invalid_argument("--plot draws the latency against --drop-probabilities: give them");
  if (o.breakdown && !o.drop_probabilities.empty())
    throw std::invalid_argument("--breakdown and --drop-probabilities do not go together");
  std::vector<SizeResult> results;
  for (const std::optional<double> drop : drops)
    for (const std::uint32_t size : sizes) {
      if (drop)
        spec.setup.profile.faults.drop_probability = *drop;
      spec.size = size;
      const PingPongResult r = run_pingpong(spec);
      if (!r.ok()) {
        fmt::print(stderr, "lanai-emu pingpong: {} at {} bytes{}: {}\n", o.firmware, size,
                   drop ? fmt::format(", drop probability {}", *drop) : std::string(), r.failure);
        return 2;
      }
      std::optional<Breakdown> breakdown = r.breakdown;
      if (own_breakdown_run) {
        PingPongSpec ahead = spec;
        ahead.receives = kBreakdownReceives;
        ahead.breakdown = true;
        ahead.trace = nullptr;
        ahead.profiler = nullptr;
        const PingPongResult b = run_pingpong(ahead);
        if (!b.ok()) {
          fmt::print(stderr, "lanai-emu pingpong: {} at {} bytes, receives posted ahead: {}\n",
                     o.firmware, size, b.failure);
          return 2;
        }
        breakdown = b.breakdown;
      }
      results.push_back({size, summarize(r.one_way_us), breakdown, drop});
    }
  if (!o.plot.empty()) {
    std::vector<DropLatency> rows;
    for (const SizeResult& r : results)
      rows.push_back({*r.drop, r.size, r.one_way.median, r.one_way.avg, r.one_way.p99});
    std::string warning;
    plot_latency_drops(o.plot,
                       fmt::format("{} on {}{}", o.firmware, spec.setup.profile.name,
                                   reliability_suffix(o.reliability)),
                       rows, warning);
    if (!warning.empty())
      fmt::print(stderr, "lanai-emu pingpong: {}\n", warning);
  }
  if (!o.trace.empty()) {
    std::ofstream out(o.trace, std::ios::binary);
    trace::write_chrome_trace(out, recorder.events());
    if (!out)
      throw std::runtime_error(fmt::format("{}: cannot write the trace", o.trace));
  }
  if (!o.firmware_profile.empty())
    write_firmware_profile(o.firmware_profile, profiler);
  const std::string& profile_name = spec.setup.profile.name;
  switch (format) {
  case OutputFormat::table:
    fmt::print("{}", render_table(o, profile_name, results));
    break;
  case OutputFormat::csv:
    fmt::print("{}", render_csv(o, results));
    break;
  case OutputFormat::json:
    fmt::print("{}", render_json(o, profile_name, results));
    break;
  }
  return 0;
}

} // namespace

void add_pingpong_command(cli::Command& app, int& exit_status) {
  auto options = std::make_shared<PingpongOptions>();
  cli::Command* cmd = app.add_subcommand(
      "pingpong", "1-way latency over one VI between two nodes, per message size");
  cmd->add_option("--firmware", options->firmware,
                  "firmware on both nodes: a shipped name (svia, pvia, qosvia, ...) or a firmware "
                  "folder's path (containing '/')")
      ->capture_default_str();
  cmd->add_option("--sizes", options->sizes, "message sizes in bytes, K and M suffixes allowed")
      ->capture_default_str();
  cmd->add_option("--iters", options->iters, "timed round trips per size")
      ->check_range(1u, 10'000'000u)
      ->capture_default_str();
  cmd->add_option("--warmup", options->warmup, "untimed round trips first")->capture_default_str();
  cmd->add_flag("--breakdown", options->breakdown,
                "add the per-operation times of the published latency table");
  cmd->add_option("--receives", options->receives,
                  "when receives are posted: on-arrival (reposted as each message arrives, "
                  "before the answer) or ahead (two rounds ahead, while waiting); the breakdown "
                  "always comes from a run with receives ahead")
      ->check_member({receive_posting_name(ReceivePosting::on_arrival),
                      receive_posting_name(ReceivePosting::ahead)})
      ->capture_default_str();
  cmd->add_option("--reliability", options->reliability, reliability_help)
      ->check_member(reliability_names)
      ->capture_default_str();
  cmd->add_option("--drop-probabilities", options->drop_probabilities,
                  "run every size again at each of these per-packet drop probabilities on every "
                  "link (the profile's [faults] drop_probability), ascending, e.g. 0,1e-3,1e-2; a "
                  "lost message on an unreliable VI ends the run");
  cmd->add_option("--plot", options->plot,
                  "with --drop-probabilities: draw the median, mean and 99th percentile against "
                  "the drop probability into DIR/latency-drops.png (data and gnuplot script in "
                  "DIR/plots)");
  cmd->add_option("--format", options->format, "table, csv or json")->capture_default_str();
  cmd->add_option("--profile", options->profile, "hardware profile: shipped name or TOML file")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "random seed of the run")->capture_default_str();
  cmd->add_option("--trace", options->trace,
                  "write a Chrome/Perfetto trace of the runs that give the 1-way figures to FILE");
  cmd->add_option("--firmware-profile", options->firmware_profile,
                  "write the LANai cycles each node's firmware spent in each function, summed "
                  "over the runs that give the 1-way figures, to FILE (CSV)");
  cmd->callback([options, &exit_status] { exit_status = run_pingpong(*options); });
}

} // namespace lanai::bench
