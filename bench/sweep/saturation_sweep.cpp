#include "bench/sweep/saturation_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bench/sweep/plots.hpp"
#include "bench/sweep/result_files.hpp"
#include "bench/sweep/sweep_record_codec.hpp"
#include "emulator/text/json_text.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/firmware_parts.hpp"
#include "tools/analytic/throughput_bound.hpp"

namespace lanai::bench {

namespace {

using text::json_string;

struct PointIndex {
  std::size_t firmware, size, receivers, drop;
};

std::size_t drops(const SaturationSetup& s) {
  return s.drop_probabilities.empty() ? 1 : s.drop_probabilities.size();
}

PointIndex point_index(const SaturationSetup& s, std::size_t i) {
  const std::size_t d = drops(s), r = s.receivers.size() * d, per_firmware = s.sizes.size() * r;
  return {i / per_firmware, (i % per_firmware) / r, (i % r) / d, i % d};
}

bool drop_axis(const SaturationSweep& sweep) {
  return !sweep.experiment.saturation.drop_probabilities.empty();
}

double per_message(std::uint64_t n, std::uint64_t messages) {
  return messages > 0 ? static_cast<double>(n) / static_cast<double>(messages) : 0.0;
}

std::string busy(double v) { return fmt::format("{:.4f}", v); }

std::string results_csv(const SaturationSweep& sweep) {
  const bool axis = drop_axis(sweep);
  std::string out =
      fmt::format("firmware,message_bytes,receivers,{}throughput_MBps,bound_MBps,"
                  "sender_lanai_busy,sender_hdma_busy,sender_nsdma_busy,receiver_hdma_busy,"
                  "messages,lost,corrupted{}\n",
                  axis ? "drop_probability," : "", axis ? ",retransmissions_per_message" : "");
  for (const auto& rec : sweep.records) {
    if (!rec || !rec->ok())
      continue;
    const SaturationResult& r = rec->result;
    out += fmt::format("{},{},{},{}{:.3f},{:.3f},{},{},{},{},{},{},{}{}\n",
                       sweep.experiment.firmwares[rec->firmware].label, rec->message_bytes,
                       rec->receivers, axis ? fmt::format("{},", rec->drop_probability) : "",
                       r.throughput_mbytes_per_s, rec->bound_mbytes_per_s, busy(r.sender.lanai),
                       busy(r.sender.hdma), busy(r.sender.nsdma), busy(rec->receiver_hdma_busy()),
                       r.messages, r.lost, r.corrupted,
                       axis ? fmt::format(",{:.4f}", per_message(r.retransmissions, r.sent)) : "");
  }
  return out;
}

std::string card_json(const CardUtilisation& u) {
  return fmt::format("{{\"lanai\":{},\"hdma\":{},\"nsdma\":{},\"nrdma\":{}}}", busy(u.lanai),
                     busy(u.hdma), busy(u.nsdma), busy(u.nrdma));
}

std::string summary_json(const SaturationSweep& sweep) {
  const Experiment& e = sweep.experiment;
  std::string out = summary_json_head(e, "saturation");
  out += fmt::format(
      "  \"description\": {},\n"
      "  \"profile\": {},\n  \"reliability\": {},\n  \"seed\": {},\n  \"warmup_ms\": {:.6f},\n"
      "  \"duration_ms\": {:.6f},\n"
      "  \"points_total\": {},\n  \"points_kept\": {},\n  \"points_failed\": {},\n"
      "  \"interrupted\": {},\n  \"points\": [",
      json_string(e.description), json_string(e.profile.name),
      json_string(reliability_name(e.saturation.reliability)), e.seed, e.warmup_ms, e.duration_ms,
      sweep.records.size(), sweep.kept(), sweep.failed(), sweep.interrupted);
  bool first = true;
  for (const auto& rec : sweep.records) {
    if (!rec)
      continue;
    const SaturationResult& r = rec->result;
    std::string receivers;
    for (const CardUtilisation& u : r.receivers) {
      if (!receivers.empty())
        receivers += ',';
      receivers += card_json(u);
    }
    out += fmt::format(
        "{}\n    {{\"point\":{},\"firmware\":{},\"message_bytes\":{},\"receivers\":{},"
        "\"outcome\":{},\"detail\":{},\"throughput_MBps\":{:.3f},\"bound_MBps\":{:.3f},"
        "\"share_of_bound\":{:.4f},\"messages\":{},\"sent\":{},\"lost\":{},\"corrupted\":{},"
        "\"end_us\":{:.3f},\"sender\":{},\"receiver_cards\":[{}]{}{}}}",
        first ? "" : ",", rec->index, json_string(e.firmwares[rec->firmware].label),
        rec->message_bytes, rec->receivers, json_string(rec->outcome), json_string(rec->detail),
        r.throughput_mbytes_per_s, rec->bound_mbytes_per_s,
        rec->bound_mbytes_per_s > 0 ? r.throughput_mbytes_per_s / rec->bound_mbytes_per_s : 0.0,
        r.messages, r.sent, r.lost, r.corrupted, r.end_us, card_json(r.sender), receivers,
        drop_axis(sweep) ? fmt::format(",\"drop_probability\":{},\"retransmissions\":{}",
                                       rec->drop_probability, r.retransmissions)
                         : "",
        e.profile.faults.any() || drop_axis(sweep) ? ",\"faults\":" + fault_counts_json(r.faults)
                                                   : "");
    first = false;
  }
  return out + "\n  ]\n}\n";
}

} // namespace

double SaturationRecord::receiver_hdma_busy() const {
  double most = 0;
  for (const CardUtilisation& u : result.receivers)
    most = std::max(most, u.hdma);
  return most;
}

std::size_t SaturationSweep::failed() const {
  return static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const auto& r) { return r && !r->ok(); }));
}

std::size_t SaturationSweep::kept() const {
  return static_cast<std::size_t>(
      std::count_if(records.begin(), records.end(), [](const auto& r) { return r.has_value(); }));
}

bool sequential_firmware(const std::string& firmware) {
  return loader::has_part(loader::find_firmware(firmware).folder, "svia");
}

SaturationSweep run_saturation_experiment(const Experiment& experiment,
                                          const SaturationRunOptions& options) {
  SaturationSweep sweep;
  sweep.experiment = experiment;
  const SaturationSetup& s = experiment.saturation;
  const std::size_t count =
      experiment.firmwares.size() * s.sizes.size() * s.receivers.size() * drops(s);
  // What a point is before it runs: its place in the sweep and its bound.
  const auto blank = [&](std::size_t i) {
    const PointIndex p = point_index(s, i);
    SaturationRecord rec;
    rec.index = i;
    rec.firmware = p.firmware;
    rec.message_bytes = s.sizes[p.size];
    rec.receivers = s.receivers[p.receivers];
    rec.drop_probability = s.drop_probabilities.empty() ? experiment.profile.faults.drop_probability
                                                        : s.drop_probabilities[p.drop];
    const models::ThroughputBound bound =
        models::throughput_bound(experiment.profile, rec.message_bytes);
    rec.bound_mbytes_per_s = sequential_firmware(experiment.firmwares[p.firmware].source)
                                 ? bound.serial_mbytes_per_s
                                 : bound.pipelined_mbytes_per_s;
    return rec;
  };
  const std::function<std::optional<SaturationRecord>(std::size_t)> point = [&](std::size_t i) {
    SaturationRecord rec = blank(i);
    try {
      SaturationSpec spec;
      spec.profile = experiment.profile;
      spec.profile.faults.drop_probability = rec.drop_probability;
      spec.firmware = experiment.firmwares[rec.firmware].source;
      spec.message_bytes = rec.message_bytes;
      spec.receivers = rec.receivers;
      spec.reliability = s.reliability;
      spec.warmup = kernel::SimTime::from_ps(static_cast<std::int64_t>(experiment.warmup_ms * 1e9));
      spec.duration =
          kernel::SimTime::from_ps(static_cast<std::int64_t>(experiment.duration_ms * 1e9));
      spec.seed = experiment.seed;
      if (i == options.trace_point) {
        spec.trace = options.trace;
        spec.profiler = options.profiler;
      }
      rec.result = run_saturation_point(spec, options.stop);
      if (rec.result.stopped)
        return std::optional<SaturationRecord>{};
      rec.outcome = rec.result.detail.empty() ? "finished" : "failed";
      rec.detail = rec.result.detail;
    } catch (const std::exception& e) {
      if (options.stop && options.stop->load())
        return std::optional<SaturationRecord>{};
      rec.outcome = "error";
      rec.detail = e.what();
    }
    return std::optional<SaturationRecord>(std::move(rec));
  };
  SweepOptions sweep_options = options;
  if (options.trace || options.profiler)
    sweep_options.leader_point =
        recorded_point(options.trace_point, count, options.trace ? "trace" : "profile");
  // A point an MPI rank took and never gave back is a failed point.
  const auto lost = [&](std::size_t i, const std::string& why) {
    SaturationRecord rec = blank(i);
    rec.outcome = "error";
    rec.detail = why;
    return rec;
  };
  sweep.records = run_sweep(count, point, sweep_options, lost,
                            interrupted_copy(sweep, &SaturationSweep::records, options.at_stop));
  sweep.interrupted = options.stop && options.stop->load();
  return sweep;
}

void write_saturation_files(const std::filesystem::path& dir, const SaturationSweep& sweep) {
  write_text_file(dir / "results.csv", results_csv(sweep));
  write_text_file(dir / "summary.json", summary_json(sweep));
  write_text_file(dir / "experiment.toml", resolved_experiment(sweep.experiment));
  write_text_file(dir / "profile.toml", profile::dump_profile(sweep.experiment.profile));
}

std::string saturation_table(const SaturationSweep& sweep) {
  const bool axis = drop_axis(sweep);
  std::string out = fmt::format(
      "{:<12} {:>8} {:>4} {}{:>10} {:>10} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6}{}\n", "firmware",
      "bytes", "rcv", axis ? fmt::format("{:>8} ", "drop") : "", "MB/s", "bound", "share", "LANai",
      "HDMA", "NSDMA", "rHDMA", "lost", axis ? fmt::format(" {:>7}", "rtx/msg") : "");
  for (const auto& rec : sweep.records) {
    if (!rec)
      continue;
    const std::string& fw = sweep.experiment.firmwares[rec->firmware].label;
    const std::string drop = axis ? fmt::format("{:>8} ", rec->drop_probability) : "";
    if (!rec->ok()) {
      out += fmt::format("{:<12} {:>8} {:>4} {} failed: {}\n", fw, rec->message_bytes,
                         rec->receivers, drop, rec->detail);
      continue;
    }
    const SaturationResult& r = rec->result;
    out += fmt::format(
        "{:<12} {:>8} {:>4} {}{:>10.1f} {:>10.1f} {:>6.1f}% {:>6.2f} {:>6.2f} {:>6.2f} "
        "{:>6.2f} {:>6}{}\n",
        fw, rec->message_bytes, rec->receivers, drop, r.throughput_mbytes_per_s,
        rec->bound_mbytes_per_s, 100.0 * r.throughput_mbytes_per_s / rec->bound_mbytes_per_s,
        r.sender.lanai, r.sender.hdma, r.sender.nsdma, rec->receiver_hdma_busy(), r.lost,
        axis ? fmt::format(" {:>7.3f}", per_message(r.retransmissions, r.sent)) : "");
  }
  return out;
}

namespace {

// goodput.png: one panel per message size, throughput against the drop
// probability (log scale, so the fault-free points are left out; no plot
// if there are no others).
std::filesystem::path goodput_script(const std::filesystem::path& dir,
                                     const SaturationSweep& sweep) {
  const Experiment& e = sweep.experiment;
  const SaturationSetup& s = e.saturation;
  std::vector<double> positive;
  for (const double p : s.drop_probabilities)
    if (p > 0)
      positive.push_back(p);
  if (positive.empty())
    return {};
  std::string data;
  for (const std::uint32_t size : s.sizes)
    for (std::size_t f = 0; f < e.firmwares.size(); ++f)
      for (const std::uint32_t receivers : s.receivers) {
        data += fmt::format("# {} bytes, {} to {} receiver(s): drop_probability throughput_MBps "
                            "retransmissions_per_message\n",
                            size, e.firmwares[f].label, receivers);
        for (const auto& rec : sweep.records)
          if (rec && rec->ok() && rec->firmware == f && rec->message_bytes == size &&
              rec->receivers == receivers && rec->drop_probability > 0)
            data += fmt::format("{} {:.3f} {:.4f}\n", rec->drop_probability,
                                rec->result.throughput_mbytes_per_s,
                                per_message(rec->result.retransmissions, rec->result.sent));
        data += "\n\n";
      }
  write_text_file(dir / "plots" / "goodput.dat", data);
  std::string script =
      gnuplot_header("goodput", 460 * s.sizes.size() + 60, 440) +
      fmt::format("set grid\nset key bottom left\nset logscale x 10\nset format x '1e%L'\n"
                  "set xrange [{}:{}]\n"
                  "set xlabel 'drop probability per packet per link'\nset ylabel 'goodput (MB/s)'\n"
                  "set yrange [0:*]\n"
                  "set multiplot layout 1,{} title '{} ({}): messages delivered intact, in order "
                  "and once'\n",
                  positive.front() / 1.5, positive.back() * 1.5, s.sizes.size(), e.name,
                  e.profile.name);
  const std::size_t lines = e.firmwares.size() * s.receivers.size();
  for (std::size_t z = 0; z < s.sizes.size(); ++z) {
    script += fmt::format("set title '{} B messages'\nplot ", s.sizes[z]);
    for (std::size_t l = 0; l < lines; ++l) {
      const std::size_t f = l / s.receivers.size(), r = l % s.receivers.size();
      script += fmt::format("{}'goodput.dat' index {} using 1:2 with linespoints pt 7 lc {} title "
                            "'{}{}'",
                            l == 0 ? "" : ", \\\n     ", z * lines + l, f + 1, e.firmwares[f].label,
                            s.receivers.size() > 1 ? fmt::format(", {} rcv", s.receivers[r]) : "");
    }
    script += "\n";
  }
  script += "unset multiplot\n";
  const std::filesystem::path gp = dir / "plots" / "goodput.gp";
  write_text_file(gp, script);
  return gp;
}

} // namespace

std::vector<std::filesystem::path> render_saturation_plots(const std::filesystem::path& dir,
                                                           const SaturationSweep& sweep,
                                                           std::string& warning) {
  const Experiment& e = sweep.experiment;
  const SaturationSetup& s = e.saturation;
  std::filesystem::create_directories(dir / "plots");
  // Blocks in firmware-major order, one per (firmware, receivers): size,
  // throughput, bound; at the first drop probability, if there are several.
  std::string data;
  for (std::size_t f = 0; f < e.firmwares.size(); ++f)
    for (const std::uint32_t receivers : s.receivers) {
      data += fmt::format("# {} to {} receiver(s): message_bytes throughput_MBps bound_MBps\n",
                          e.firmwares[f].label, receivers);
      for (const auto& rec : sweep.records)
        if (rec && rec->ok() && rec->firmware == f && rec->receivers == receivers &&
            point_index(s, rec->index).drop == 0)
          data += fmt::format("{} {:.3f} {:.3f}\n", rec->message_bytes,
                              rec->result.throughput_mbytes_per_s, rec->bound_mbytes_per_s);
      data += "\n\n";
    }
  write_text_file(dir / "plots" / "throughput.dat", data);
  // Half a power of two either side of the sizes, so that a single size
  // still has a range to sit in.
  const auto [smallest, largest] = std::minmax_element(s.sizes.begin(), s.sizes.end());
  std::string script =
      gnuplot_header("throughput", 460 * s.receivers.size() + 60, 440) +
      fmt::format(
          "set grid\nset key bottom right\nset logscale x 2\nset format x '%.0b%B'\nset xrange "
          "[{}:{}]\n"
          "set xlabel 'message size (bytes)'\nset ylabel 'throughput (MB/s)'\nset yrange [0:*]\n"
          "set multiplot layout 1,{} title '{} ({}): throughput of one sender, bounds dashed'\n",
          *smallest / 1.5, *largest * 1.5, s.receivers.size(), e.name, e.profile.name);
  for (std::size_t r = 0; r < s.receivers.size(); ++r) {
    script += fmt::format("set title '{} receiver{}'\nplot ", s.receivers[r],
                          s.receivers[r] == 1 ? "" : "s");
    for (std::size_t f = 0; f < e.firmwares.size(); ++f) {
      const std::size_t block = f * s.receivers.size() + r;
      script += fmt::format(
          "{3}'throughput.dat' index {0} using 1:2 with linespoints pt 7 lc {1} title '{2}', \\\n"
          "     'throughput.dat' index {0} using 1:3 with lines dt 2 lc {1} title '{2} bound'",
          block, f + 1, e.firmwares[f].label, f == 0 ? "" : ", \\\n     ");
    }
    script += "\n";
  }
  script += "unset multiplot\n";
  const std::filesystem::path gp = dir / "plots" / "throughput.gp";
  write_text_file(gp, script);
  std::vector<std::filesystem::path> scripts{gp};
  if (drop_axis(sweep))
    if (std::filesystem::path goodput = goodput_script(dir, sweep); !goodput.empty())
      scripts.push_back(goodput);
  return render_plots({scripts, {}}, warning);
}

} // namespace lanai::bench
