// Rendering a sweep's records as CSV, JSON and the resolved TOML. Numbers are
// printed with fixed precision so the files are stable byte for byte.
#include "bench/sweep/result_files.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

#include "emulator/text/json_text.hpp"

namespace lanai::bench {

namespace {

using text::json_string;

// TOML basic strings take the same escapes as JSON for what appears here.
std::string toml_string(std::string_view s) { return json_string(s); }

// A TOML float that reads back as a float (and as the same value).
std::string toml_float(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

std::string fixed(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }
std::string json_fixed(bool present, double v, int digits) {
  return present ? fixed(v, digits) : "null";
}

std::string traffic_name(Traffic t) {
  switch (t) {
  case Traffic::cbr:
    return "cbr";
  case Traffic::vbr:
    return "vbr";
  case Traffic::best_effort:
    return "best_effort";
  }
  return "?";
}

} // namespace

std::string results_csv(const JitterSweep& sweep) {
  const Experiment& e = sweep.experiment;
  std::string out = "point,firmware,total_load_MBps,class,channels,theta,jittered_fraction,"
                    "be_latency_mean_us,be_latency_p99_us,messages,lost,corrupted,"
                    "sender_lanai_busy,sender_hdma_busy,sender_nsdma_busy,receiver_hdma_busy\n";
  for (const auto& rec : sweep.records) {
    if (!rec || rec->status != PointStatus::ok)
      continue;
    const std::string head = fmt::format("{},{},{}", rec->index, e.firmwares[rec->firmware].label,
                                         fixed(rec->total_mbytes_per_s, 3));
    // The point's engines, repeated on each of its rows.
    const std::string busy =
        fmt::format("{},{},{},{}", fixed(rec->sender.lanai, 4), fixed(rec->sender.hdma, 4),
                    fixed(rec->sender.nsdma, 4), fixed(rec->receiver_hdma_busy(), 4));
    for (std::size_t ci = 0; ci < rec->classes.size(); ++ci) {
      const ClassMetrics& m = rec->classes[ci];
      const bool measured = m.jitter.intervals > 0;
      out += fmt::format("{},{},{},{},{},,,{},{},{},{}\n", head, e.jitter.classes[ci].name,
                         m.channels, measured ? fixed(m.jitter.theta(), 6) : "",
                         measured ? fixed(m.jitter.jittered_fraction(), 6) : "", m.messages, m.lost,
                         m.corrupted, busy);
    }
    if (const auto& be = rec->best_effort) {
      const bool measured = be->latency_us.count > 0;
      out += fmt::format("{},BE,1,,,{},{},{},{},{},{}\n", head,
                         measured ? fixed(be->latency_us.avg, 3) : "",
                         measured ? fixed(be->latency_us.p99, 3) : "", be->messages, be->lost,
                         be->corrupted, busy);
    }
  }
  return out;
}

std::string summary_json_head(const Experiment& e, std::string_view kind) {
  return fmt::format("{{\n  \"experiment\": {},\n  \"kind\": {},\n  \"lanai_emu\": {},\n",
                     json_string(e.name), json_string(kind), json_string(LANAI_EMU_VERSION));
}

std::string summary_json(const JitterSweep& sweep) {
  const Experiment& e = sweep.experiment;
  std::string out = summary_json_head(e, e.kind);
  out += fmt::format("  \"description\": {},\n", json_string(e.description));
  std::string firmwares;
  for (const auto& f : e.firmwares)
    firmwares += (firmwares.empty() ? "" : ", ") + json_string(f.label);
  out += fmt::format("  \"firmwares\": [{}],\n", firmwares);
  out += fmt::format("  \"profile\": {},\n", json_string(e.profile.name));
  out += fmt::format("  \"seed\": {},\n", e.seed);
  out += fmt::format("  \"warmup_ms\": {},\n", fixed(e.warmup_ms, 6));
  out += fmt::format("  \"duration_ms\": {},\n", fixed(e.duration_ms, 6));
  out += fmt::format("  \"quick\": {},\n", sweep.quick);
  out += fmt::format("  \"points_total\": {},\n", sweep.records.size());
  out += fmt::format("  \"points_kept\": {},\n", sweep.kept());
  out += fmt::format("  \"points_failed\": {},\n", sweep.failed());
  out += fmt::format("  \"interrupted\": {},\n", sweep.interrupted);
  out += fmt::format("  \"knee_theta\": {},\n", fixed(kKneeTheta, 6));
  std::string knees;
  for (std::size_t f = 0; f < e.firmwares.size(); ++f) {
    const auto knee = sweep.knee_mbytes_per_s(f);
    knees += fmt::format("{}{}: {}", knees.empty() ? "" : ", ", json_string(e.firmwares[f].label),
                         json_fixed(knee.has_value(), knee.value_or(0), 3));
  }
  out += fmt::format("  \"knee_MBps\": {{{}}},\n", knees);
  out += "  \"points\": [";
  bool first_point = true;
  for (const auto& rec : sweep.records) {
    if (!rec)
      continue;
    out += first_point ? "\n" : ",\n";
    first_point = false;
    out += "    {\n";
    out += fmt::format("      \"point\": {},\n", rec->index);
    out += fmt::format("      \"firmware\": {},\n", json_string(e.firmwares[rec->firmware].label));
    out += fmt::format("      \"load_point\": {},\n", rec->load);
    out += fmt::format("      \"total_load_MBps\": {},\n", fixed(rec->total_mbytes_per_s, 3));
    out += fmt::format("      \"outcome\": {},\n", json_string(rec->outcome));
    out += fmt::format("      \"detail\": {},\n", json_string(rec->detail));
    out += fmt::format("      \"end_us\": {},\n", fixed(rec->end_us, 3));
    out += fmt::format("      \"lost\": {},\n", rec->lost());
    out += fmt::format("      \"corrupted\": {},\n", rec->corrupted());
    auto card = [](const CardUtilisation& u) {
      return fmt::format("{{\"lanai\": {}, \"hdma\": {}, \"nsdma\": {}, \"nrdma\": {}}}",
                         fixed(u.lanai, 4), fixed(u.hdma, 4), fixed(u.nsdma, 4), fixed(u.nrdma, 4));
    };
    std::string receivers;
    for (const CardUtilisation& u : rec->receivers) {
      if (!receivers.empty())
        receivers += ", ";
      receivers += card(u);
    }
    out += fmt::format("      \"utilisation\": {{\"sender\": {}, \"receivers\": [{}]}},\n",
                       card(rec->sender), receivers);
    if (e.profile.faults.any())
      out += fmt::format("      \"faults\": {},\n", fault_counts_json(rec->faults));
    out += "      \"classes\": [";
    for (std::size_t ci = 0; ci < rec->classes.size(); ++ci) {
      const ClassMetrics& m = rec->classes[ci];
      // Fewer than two receipts give no interval: the figures do not exist.
      const bool measured = m.jitter.intervals > 0;
      out += ci == 0 ? "\n" : ",\n";
      out += fmt::format(
          "        {{\"class\": {}, \"channels\": {}, \"interval_us\": {}, \"messages\": {}, "
          "\"intervals\": {}, \"jittered\": {}, \"theta\": {}, \"jittered_fraction\": {}, "
          "\"mean_jitter_us\": {}, \"lost\": {}, \"corrupted\": {}}}",
          json_string(e.jitter.classes[ci].name), m.channels,
          fixed(e.jitter.classes[ci].interval_ps() / 1e6, 6), m.messages, m.jitter.intervals,
          m.jitter.jittered, json_fixed(measured, m.jitter.theta(), 6),
          json_fixed(measured, m.jitter.jittered_fraction(), 6),
          json_fixed(measured,
                     m.jitter.sum_jitter_ps / 1e6 / static_cast<double>(m.jitter.intervals), 6),
          m.lost, m.corrupted);
    }
    out += rec->classes.empty() ? "]" : "\n      ]";
    if (const auto& be = rec->best_effort) {
      const LatencySummary& l = be->latency_us;
      const std::string latency =
          l.count == 0 ? std::string("null")
                       : fmt::format("{{\"min\": {}, \"median\": {}, \"mean\": {}, \"stdev\": {}, "
                                     "\"p99\": {}, \"p999\": {}}}",
                                     fixed(l.min, 3), fixed(l.median, 3), fixed(l.avg, 3),
                                     fixed(l.stdev, 3), fixed(l.p99, 3), fixed(l.p999, 3));
      out += fmt::format(
          ",\n      \"best_effort\": {{\"messages\": {}, \"received\": {}, \"lost\": {}, "
          "\"corrupted\": {}, \"latency_us\": {}}}",
          be->messages, l.count, be->lost, be->corrupted, latency);
    }
    out += "\n    }";
  }
  out += first_point ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

std::string resolved_experiment(const Experiment& e) {
  std::string out =
      fmt::format("# The experiment \"{}\" as run by lanai-emu {}: every default filled in, the\n"
                  "# profile resolved into profile.toml beside this file. Run it again with\n"
                  "# `lanai-emu run` on it.\n\n",
                  e.name, LANAI_EMU_VERSION);
  out += fmt::format("name = {}\n", toml_string(e.name));
  out += fmt::format("description = {}\n", toml_string(e.description));
  out += fmt::format("kind = {}\n", toml_string(e.kind));
  std::string firmwares;
  for (const auto& f : e.firmwares)
    firmwares += (firmwares.empty() ? "" : ", ") + firmware_toml(f);
  out += fmt::format("firmwares = [{}]\n", firmwares);
  out += fmt::format("profile = \"profile.toml\"  # resolved from {}\n",
                     e.profile_source.empty() ? "the built-in default"
                                              : toml_string(e.profile_source));
  out += fmt::format("seed = {}\n", e.seed);
  out += fmt::format("warmup_ms = {}\n", toml_float(e.warmup_ms));
  out += fmt::format("duration_ms = {}\n", toml_float(e.duration_ms));
  if (e.kind == "queueing") {
    const QueueingSetup& q = e.queueing;
    out += fmt::format("model = {}\n", toml_string(q.model_file.string()));
    std::string list;
    for (const auto& v : q.variants)
      list += (list.empty() ? "" : ", ") + toml_string(v);
    out += fmt::format("variants = [{}]\n", list);
    list.clear();
    for (const double r : q.rates_per_us)
      list += (list.empty() ? "" : ", ") + toml_float(r);
    out += fmt::format("rates_per_us = [{}]\n", list);
    out += fmt::format("min_duration_ms = {}\nbatches = {}\ntarget_ci_percent = {}\n",
                       toml_float(q.min_duration_ms), q.batches, toml_float(q.target_ci_percent));
    out += fmt::format("descriptor_bytes = {}\ndata_bytes = {}\n", q.transfers.descriptor_bytes,
                       q.transfers.data_bytes);
    return out;
  }
  if (e.kind == "saturation") {
    out += fmt::format("sizes = [{}]\nreceivers = [{}]\nreliability = \"{}\"\n",
                       fmt::join(e.saturation.sizes, ", "), fmt::join(e.saturation.receivers, ", "),
                       reliability_name(e.saturation.reliability));
    if (!e.saturation.drop_probabilities.empty()) {
      std::string drops;
      for (const double p : e.saturation.drop_probabilities)
        drops += (drops.empty() ? "" : ", ") + toml_float(p);
      out += fmt::format("drop_probabilities = [{}]\n", drops);
    }
    return out;
  }
  if (e.kind == "pipeline") {
    const PipelineSetup& p = e.pipeline;
    out += fmt::format("packets = [{}]\nfragments = [{}]\niterations = {}\nfit_sizes = [{}]\n",
                       fmt::join(p.packets, ", "), fmt::join(p.fragments, ", "), p.iterations,
                       fmt::join(p.fit_sizes, ", "));
    for (const auto& [key, copy] :
         {std::pair{"send_copy", p.send_copy}, {"recv_copy", p.recv_copy}})
      out += fmt::format("\n[{}]\ng_us = {}\nG_us_per_kb = {}\n", key, toml_float(copy.g_us),
                         toml_float(copy.G_us_per_kb));
    for (const ReferenceStage& r : p.reference)
      out += fmt::format("\n[[reference_stage]]\nname = {}\ng_us = {}\nG_us_per_kb = {}\n",
                         toml_string(r.name), toml_float(r.stage.g_us),
                         toml_float(r.stage.G_us_per_kb));
    return out;
  }
  const JitterSetup& j = e.jitter;
  out += fmt::format("receivers = {}\nreliability = \"{}\"\n", j.receivers,
                     reliability_name(j.reliability));
  for (const auto& c : j.classes) {
    out += "\n[[class]]\n";
    out += fmt::format("name = {}\n", toml_string(c.name));
    out += fmt::format("traffic = {}\n", toml_string(traffic_name(c.traffic)));
    out += fmt::format("rate_MBps = {}\n", toml_float(c.rate_mbytes_per_s));
    out += fmt::format("receiver = {}\n", c.receiver);
    if (c.traffic == Traffic::cbr) {
      out += fmt::format("message_bytes = {}\n", c.message_bytes);
      continue;
    }
    out += fmt::format("frame_rate = {}\n", toml_float(c.frame_rate));
    if (c.trace.empty())
      out += fmt::format("gop = {}\n", toml_string(c.gop));
    else
      out += fmt::format("trace = {}\n", toml_string(c.trace.string()));
  }
  if (const auto& be = j.best_effort) {
    out += "\n[best_effort]\n";
    out += fmt::format("rate_MBps = {}\n", toml_float(be->rate_mbytes_per_s));
    out += fmt::format("message_bytes = {}\n", be->message_bytes);
    out += fmt::format("receiver = {}\n", be->receiver);
  }
  out += "\n[load]\n";
  std::string order;
  for (const std::size_t i : j.load.add_order)
    order += (order.empty() ? "" : ", ") + toml_string(j.classes[i].name);
  out += fmt::format("add_order = [{}]\n", order);
  if (j.load.max_total_mbytes_per_s) {
    out += fmt::format("max_total_MBps = {}\n", toml_float(*j.load.max_total_mbytes_per_s));
  } else if (!j.load.totals_mbytes_per_s.empty()) {
    std::string totals;
    for (const double v : j.load.totals_mbytes_per_s)
      totals += (totals.empty() ? "" : ", ") + toml_float(v);
    out += fmt::format("totals_MBps = [{}]\n", totals);
  } else {
    std::string counts;
    for (const auto n : j.load.channels)
      counts += (counts.empty() ? "" : ", ") + fmt::format("{}", n);
    out += fmt::format("channels = [{}]\n", counts);
  }
  return out;
}

// Written beside the file and renamed over it, so that a process killed
// while it writes (mpirun's SIGKILL after a Ctrl-C, during the second
// writing of an MPI run's files) leaves the earlier file whole.
void write_text_file(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::path part = file;
  part += ".part";
  std::ofstream out(part, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  std::error_code ec;
  if (out)
    std::filesystem::rename(part, file, ec);
  if (!out || ec) {
    std::filesystem::remove(part, ec);
    throw std::runtime_error(fmt::format("{}: cannot write", file.string()));
  }
}

void write_result_files(const std::filesystem::path& dir, const JitterSweep& sweep) {
  write_text_file(dir / "results.csv", results_csv(sweep));
  write_text_file(dir / "summary.json", summary_json(sweep));
  write_text_file(dir / "experiment.toml", resolved_experiment(sweep.experiment));
  write_text_file(dir / "profile.toml", profile::dump_profile(sweep.experiment.profile));
}

} // namespace lanai::bench
