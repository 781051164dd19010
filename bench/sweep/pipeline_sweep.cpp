#include "bench/sweep/pipeline_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <string_view>

#include "bench/sweep/plots.hpp"
#include "emulator/text/json_text.hpp"
#include "bench/sweep/result_files.hpp"
#include "bench/sweep/sweep_ranks.hpp"
#include "bench/sweep/sweep_record_codec.hpp"
#include "bench/sweep/sweep_runner.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::bench {

namespace {

using text::json_string;

std::vector<models::PipelineStage> reference_path(const PipelineSetup& p) {
  std::vector<models::PipelineStage> out;
  for (const ReferenceStage& r : p.reference)
    out.push_back(r.stage);
  return out;
}

MeasuredStage host_stage(std::string name, const HostCopy& copy) {
  MeasuredStage s;
  s.name = std::move(name);
  s.fit = {copy.g_us, copy.G_us_per_kb};
  return s;
}

double error_pct(const PipelinePoint& p, double model_us) {
  return 100.0 * (model_us - *p.emulated_us) / *p.emulated_us;
}

// The sizes the indirect method streams: the fit sizes that fit 16 to a
// message of at most 64 KB.
constexpr std::uint32_t kStream = 16;
std::vector<std::uint32_t> indirect_sizes(const PipelineSetup& setup) {
  std::vector<std::uint32_t> out;
  for (const std::uint32_t s : setup.fit_sizes)
    if (s * kStream <= VIA_MAX_TRANSFER)
      out.push_back(s);
  return out;
}

// A measured model's latency as a file writes it: `unmeasured` when the
// sweep was stopped before its models were.
std::string model_cell(const PipelineSweep& sweep, double us, std::string_view unmeasured,
                       int digits = 3) {
  return sweep.models_measured ? fmt::format("{:.{}f}", us, digits) : std::string(unmeasured);
}

std::string summary_json(const PipelineSweep& sweep) {
  const Experiment& e = sweep.experiment;
  std::string out = summary_json_head(e, "pipeline");
  out += fmt::format("  \"profile\": {},\n  \"interrupted\": {},\n  \"reference_stages\": [",
                     json_string(e.profile.name), sweep.interrupted);
  for (std::size_t i = 0; i < e.pipeline.reference.size(); ++i) {
    const ReferenceStage& r = e.pipeline.reference[i];
    out += fmt::format("{}{{\"name\":{},\"g_us\":{},\"G_us_per_kb\":{}}}", i ? "," : "",
                       json_string(r.name), r.stage.g_us, r.stage.G_us_per_kb);
  }
  out += "],\n  \"measured_stages\": {";
  for (std::size_t f = 0; f < sweep.stages.size(); ++f) {
    std::vector<std::string> items;
    for (const MeasuredStage& s : sweep.stages[f])
      items.push_back(stage_json(s));
    out += fmt::format("{}\n    {}: [{}]", f ? "," : "", json_string(e.firmwares[f].label),
                       fmt::join(items, ","));
  }
  out += "\n  },\n  \"indirect\": {";
  for (std::size_t f = 0; f < sweep.indirect.size(); ++f) {
    const IndirectStages& d = sweep.indirect[f];
    out += fmt::format(
        "{}\n    {}: {{\"sizes\":[{}],\"latency_us\":[{:.3f}],\"interarrival_us\":[{:.3f}],"
        "\"sum_g_us\":{:.4f},\"sum_G_us_per_kb\":{:.4f},\"g_b_us\":{:.4f},"
        "\"G_b_us_per_kb\":{:.4f}}}",
        f ? "," : "", json_string(e.firmwares[f].label), fmt::join(d.sizes, ","),
        fmt::join(d.latency_us, ","), fmt::join(d.interarrival_us, ","), d.sum_g_us,
        d.sum_G_us_per_kb, d.g_b_us, d.G_b_us_per_kb);
  }
  out += "\n  },\n  \"points\": [";
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const PipelinePoint& p = sweep.points[i];
    out += fmt::format(
        "{}\n    {{\"firmware\":{},\"packet_bytes\":{},\"fragments\":{},\"emulated_us\":{},"
        "\"measured_model_us\":{},\"indirect_model_us\":{},"
        "\"reference_model_us\":{:.3f}}}",
        i ? "," : "", json_string(e.firmwares[p.firmware].label), p.packet, p.k,
        p.emulated_us ? fmt::format("{:.3f}", *p.emulated_us) : "null",
        model_cell(sweep, p.measured_model_us, "null"),
        model_cell(sweep, p.indirect_model_us, "null"), p.reference_model_us);
  }
  out += "\n  ],\n  \"best\": [";
  const auto best = sweep.best();
  for (std::size_t i = 0; i < best.size(); ++i) {
    const PipelineBest& b = best[i];
    out += fmt::format(
        "{}\n    {{\"firmware\":{},\"packet_bytes\":{},\"emulated_k\":{},\"emulated_us\":{:.3f},"
        "\"measured_model_k\":{},\"measured_model_us\":{:.3f},\"measured_theorem_k\":{},"
        "\"indirect_k\":{},\"indirect_us\":{:.3f},"
        "\"reference_k\":{},\"reference_us\":{:.3f},\"reference_theorem_k\":{},"
        "\"median_abs_error_pct\":{:.3f},\"indirect_abs_error_pct\":{:.3f}}}",
        i ? "," : "", json_string(e.firmwares[b.firmware].label), b.packet, b.emulated_k,
        b.emulated_us, b.measured_model_k, b.measured_model_us, b.measured_theorem_k, b.indirect_k,
        b.indirect_us, b.reference_k, b.reference_us, b.reference_theorem_k, b.median_abs_error_pct,
        b.indirect_abs_error_pct);
  }
  return out + "\n  ]\n}\n";
}

std::string results_csv(const PipelineSweep& sweep) {
  std::string out = "firmware,packet_bytes,fragments,emulated_us,measured_model_us,"
                    "indirect_model_us,reference_model_us\n";
  for (const PipelinePoint& p : sweep.points)
    out += fmt::format("{},{},{},{},{},{},{:.3f}\n", sweep.experiment.firmwares[p.firmware].label,
                       p.packet, p.k, p.emulated_us ? fmt::format("{:.3f}", *p.emulated_us) : "",
                       model_cell(sweep, p.measured_model_us, ""),
                       model_cell(sweep, p.indirect_model_us, ""), p.reference_model_us);
  return out;
}

} // namespace

std::size_t PipelineSweep::failed() const {
  return static_cast<std::size_t>(std::count_if(
      points.begin(), points.end(), [](const PipelinePoint& p) { return !p.failure.empty(); }));
}

std::vector<PipelineBest> PipelineSweep::best() const {
  if (!models_measured)
    return {};
  const PipelineSetup& setup = experiment.pipeline;
  const auto reference = reference_path(setup);
  std::vector<PipelineBest> out;
  for (std::size_t f = 0; f < experiment.firmwares.size(); ++f)
    for (const std::uint32_t packet : setup.packets) {
      PipelineBest b;
      b.firmware = f;
      b.packet = packet;
      b.measured_model_us = b.reference_us = INFINITY;
      std::vector<double> errors, indirect_errors;
      b.indirect_us = INFINITY;
      for (const PipelinePoint& p : points) {
        if (p.firmware != f || p.packet != packet)
          continue;
        if (p.emulated_us) {
          errors.push_back(std::abs(error_pct(p, p.measured_model_us)));
          indirect_errors.push_back(std::abs(error_pct(p, p.indirect_model_us)));
          if (b.emulated_k == 0 || *p.emulated_us < b.emulated_us)
            b.emulated_k = p.k, b.emulated_us = *p.emulated_us;
        }
        if (p.measured_model_us < b.measured_model_us)
          b.measured_model_k = p.k, b.measured_model_us = p.measured_model_us;
        if (p.indirect_model_us < b.indirect_us)
          b.indirect_k = p.k, b.indirect_us = p.indirect_model_us;
        if (p.reference_model_us < b.reference_us)
          b.reference_k = p.k, b.reference_us = p.reference_model_us;
      }
      const std::int64_t most = setup.fragments.back();
      b.measured_theorem_k = models::fixed_size_theorem(stage_fits(stages[f]), packet, most).k;
      b.reference_theorem_k = models::fixed_size_theorem(reference, packet, most).k;
      b.median_abs_error_pct = errors.empty() ? 0 : summarize(errors).median;
      b.indirect_abs_error_pct = indirect_errors.empty() ? 0 : summarize(indirect_errors).median;
      out.push_back(b);
    }
  return out;
}

PipelineSweep run_pipeline_experiment(const Experiment& experiment,
                                      const PipelineRunOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const PipelineSetup& setup = experiment.pipeline;
  const auto reference = reference_path(setup);
  PipelineSweep sweep;
  sweep.experiment = experiment;
  for (std::size_t f = 0; f < experiment.firmwares.size(); ++f)
    for (const std::uint32_t packet : setup.packets)
      for (const std::uint32_t k : setup.fragments) {
        PipelinePoint& p = sweep.points.emplace_back();
        p.firmware = f;
        p.packet = packet;
        p.k = k;
        p.reference_model_us = models::fixed_latency_us(reference, p.packet, p.k);
      }
  // Read by the points, and by a stop, while the models are filled in.
  const std::vector<PipelinePoint> plan = sweep.points;

  // The models: each firmware's stages measured directly and indirectly.
  // Only rank 0 writes files, so only it measures; under MPI it does so
  // while the ranks already run points. A stop ends the measurement between
  // firmwares, and the sweep's models are then unmeasured.
  const auto stopped = [&] { return options.stop && options.stop->load(); };
  const auto measure_models = [&](const std::function<void()>& hold) {
    if (hold)
      hold();
    for (std::size_t f = 0; f < experiment.firmwares.size(); ++f) {
      if (stopped()) {
        sweep.models_measured = false;
        return;
      }
      ClusterSetup cluster;
      cluster.profile = experiment.profile;
      cluster.firmware = experiment.firmwares[f].source;
      cluster.seed = experiment.seed;
      const CardStages card = measure_card_stages(cluster, setup.fit_sizes, setup.iterations);
      std::vector<MeasuredStage> path{host_stage("send copy", setup.send_copy)};
      for (const MeasuredStage& s : card.message_path())
        path.push_back(s);
      path.push_back(host_stage("receive copy", setup.recv_copy));
      const auto model = stage_fits(path);
      PingPongSpec base;
      base.setup = cluster;
      base.iters = setup.iterations;
      base.send_copy = setup.send_copy;
      base.recv_copy = setup.recv_copy;
      const IndirectStages indirect = measure_indirect(base, indirect_sizes(setup), kStream);
      for (PipelinePoint& p : sweep.points) {
        if (p.firmware != f)
          continue;
        p.measured_model_us = models::fixed_latency_us(model, p.packet, p.k);
        p.indirect_model_us = indirect.fixed_us(p.packet, p.k);
      }
      sweep.stages.push_back(std::move(path));
      sweep.indirect.push_back(indirect);
    }
  };
  const bool spread = spread_over_ranks(options);
  std::future<void> models;
  std::atomic<bool> models_done{false}; // sweep's models filled in, never written again
  if (!spread)
    measure_models({});
  else if (options.ranks->leader())
    models = std::async(std::launch::async,
                        [&, hold = options.ranks->take_hold("the models", options.stop)] {
                          measure_models(hold);
                          models_done.store(true, std::memory_order_release);
                        });

  const std::function<std::optional<PipelineOutcome>(std::size_t)> point = [&](std::size_t i) {
    const PipelinePoint& p = plan[i];
    PingPongSpec spec;
    spec.setup.profile = experiment.profile;
    spec.setup.firmware = experiment.firmwares[p.firmware].source;
    spec.setup.seed = experiment.seed;
    spec.size = p.packet;
    spec.iters = setup.iterations;
    spec.host_fragments = p.k;
    spec.send_copy = setup.send_copy;
    spec.recv_copy = setup.recv_copy;
    PipelineOutcome out;
    out.emulated_us = median_one_way_us(spec, out.failure);
    return std::optional<PipelineOutcome>(std::move(out));
  };
  // A point an MPI rank took and never gave back is a failed point.
  const auto lost = [](std::size_t, const std::string& why) {
    return PipelineOutcome{std::nullopt, why};
  };
  const auto fill = [](PipelineSweep& s, const std::vector<std::optional<PipelineOutcome>>& out) {
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i]) {
        s.points[i].emulated_us = out[i]->emulated_us;
        s.points[i].failure = out[i]->failure;
      }
  };
  std::function<void(std::vector<std::optional<PipelineOutcome>>)> at_stop;
  bool stop_written = false;
  if (options.at_stop)
    at_stop = [&](std::vector<std::optional<PipelineOutcome>> outcomes) {
      stop_written = true;
      PipelineSweep partial;
      if (models_done.load(std::memory_order_acquire) && sweep.models_measured) {
        partial = sweep;
      } else {
        partial.experiment = experiment;
        partial.points = plan;
        partial.models_measured = false;
      }
      fill(partial, outcomes);
      partial.interrupted = true;
      partial.wall_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      options.at_stop(partial);
    };
  const auto outcomes = run_sweep(plan.size(), point, options, lost, at_stop);
  if (models.valid()) {
    // Every point has ended and the models may still be measured: a stop
    // now writes the points at once too.
    while (models.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
      if (at_stop && !stop_written && stopped())
        at_stop(outcomes);
    models.get();
  }
  if (!sweep.models_measured)
    sweep.stages.clear(), sweep.indirect.clear();
  fill(sweep, outcomes);
  sweep.interrupted = options.stop && options.stop->load();
  sweep.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return sweep;
}

std::string pipeline_table(const PipelineSweep& sweep) {
  const Experiment& e = sweep.experiment;
  std::string out = fmt::format(
      "# {}: packets cut into k fragments by the host programs, profile {}\n"
      "# 1-way latency (us), emulated and by the pipeline model on the emulated path's stages "
      "measured directly and indirectly, and on the reference stages\n",
      e.name, e.profile.name);
  for (std::size_t f = 0; f < sweep.stages.size(); ++f) {
    out += fmt::format("# {} direct:", e.firmwares[f].label);
    for (const MeasuredStage& s : sweep.stages[f])
      out += fmt::format("  {} {:.1f}+{:.1f}/KB", s.name, s.fit.g_us, s.fit.G_us_per_kb);
    const IndirectStages& d = sweep.indirect[f];
    out += fmt::format(
        "\n# {} indirect: sum g {:.1f} us, sum G {:.1f} us/KB, bottleneck g_b {:.1f} us, "
        "G_b {:.1f} us/KB\n",
        e.firmwares[f].label, d.sum_g_us, d.sum_G_us_per_kb, d.g_b_us, d.G_b_us_per_kb);
  }
  out += "# reference stages:";
  for (const ReferenceStage& r : e.pipeline.reference)
    out += fmt::format("  {} {:.1f}+{:.1f}/KB", r.name, r.stage.g_us, r.stage.G_us_per_kb);
  out += fmt::format("\n{:<10} {:>7} {:>4} {:>10} {:>10} {:>10} {:>10}\n", "firmware", "packet",
                     "k", "emulated", "direct", "indirect", "reference");
  for (const PipelinePoint& p : sweep.points)
    out += fmt::format("{:<10} {:>7} {:>4} {:>10} {:>10} {:>10} {:>10.1f}\n",
                       e.firmwares[p.firmware].label, p.packet, p.k,
                       p.emulated_us ? fmt::format("{:.1f}", *p.emulated_us) : "-",
                       model_cell(sweep, p.measured_model_us, "-", 1),
                       model_cell(sweep, p.indirect_model_us, "-", 1), p.reference_model_us);
  if (!sweep.models_measured)
    return out + "\n# the run was stopped before the stages were measured: no direct or indirect "
                 "model, no best fragment counts\n";
  out += fmt::format("\n# best fragment count (k, us); theorem: the fixed-size theorem's k; "
                     "|err|: median model error against the emulator\n"
                     "{:<10} {:>7} {:>14} {:>14} {:>7} {:>14} {:>14} {:>7} {:>8} {:>8}\n",
                     "firmware", "packet", "emulated", "direct", "theorem", "indirect", "reference",
                     "theorem", "direct%", "indir.%");
  for (const PipelineBest& b : sweep.best())
    out += fmt::format("{:<10} {:>7} {:>4} {:>9.1f} {:>4} {:>9.1f} {:>7} {:>4} {:>9.1f} {:>4} "
                       "{:>9.1f} {:>7} {:>8.1f} "
                       "{:>8.1f}\n",
                       e.firmwares[b.firmware].label, b.packet, b.emulated_k, b.emulated_us,
                       b.measured_model_k, b.measured_model_us, b.measured_theorem_k, b.indirect_k,
                       b.indirect_us, b.reference_k, b.reference_us, b.reference_theorem_k,
                       b.median_abs_error_pct, b.indirect_abs_error_pct);
  return out;
}

void write_pipeline_files(const std::filesystem::path& dir, const PipelineSweep& sweep) {
  write_text_file(dir / "results.csv", results_csv(sweep));
  write_text_file(dir / "summary.json", summary_json(sweep));
  write_text_file(dir / "experiment.toml", resolved_experiment(sweep.experiment));
  write_text_file(dir / "profile.toml", profile::dump_profile(sweep.experiment.profile));
}

std::vector<std::filesystem::path> render_pipeline_plots(const std::filesystem::path& dir,
                                                         const PipelineSweep& sweep,
                                                         std::string& warning) {
  const Experiment& e = sweep.experiment;
  const PipelineSetup& setup = e.pipeline;
  std::filesystem::create_directories(dir / "plots");
  std::string data;
  for (std::size_t f = 0; f < e.firmwares.size(); ++f)
    for (const std::uint32_t packet : setup.packets) {
      data += fmt::format("# {} {} bytes: k emulated_us measured_model_us reference_model_us "
                          "indirect_model_us\n",
                          e.firmwares[f].label, packet);
      for (const PipelinePoint& p : sweep.points)
        if (p.firmware == f && p.packet == packet)
          data += fmt::format("{} {} {} {:.3f} {}\n", p.k,
                              p.emulated_us ? fmt::format("{:.3f}", *p.emulated_us) : "?",
                              model_cell(sweep, p.measured_model_us, "?"), p.reference_model_us,
                              model_cell(sweep, p.indirect_model_us, "?"));
      data += "\n\n";
    }
  write_text_file(dir / "plots" / "pipeline.dat", data);
  std::string script =
      gnuplot_header("pipeline", 460 * setup.packets.size() + 60, 440) +
      fmt::format(
          "set datafile missing '?'\nset grid\nset key top left\n"
          "set xlabel 'fragments k'\nset ylabel '1-way latency (us)'\n"
          "set multiplot layout 1,{} title '{} ({}): latency against the number of fragments'\n",
          setup.packets.size(), e.name, e.profile.name);
  for (std::size_t i = 0; i < setup.packets.size(); ++i) {
    script += fmt::format("set title '{} B packet'\nplot ", setup.packets[i]);
    for (std::size_t f = 0; f < e.firmwares.size(); ++f) {
      const std::size_t block = f * setup.packets.size() + i;
      script += fmt::format(
          "'pipeline.dat' index {0} using 1:2 with linespoints pt 7 lc {1} title '{2} emulated', "
          "\\\n"
          "     'pipeline.dat' index {0} using 1:3 with lines dt 2 lc {1} title '{2} model "
          "(direct)', "
          "\\\n     'pipeline.dat' index {0} using 1:5 with lines dt 4 lc {1} title '{2} model "
          "(indirect)', \\\n     ",
          block, f + 1, e.firmwares[f].label);
    }
    script += fmt::format("'pipeline.dat' index {} using 1:4 with lines dt 3 lw 2 lc rgb 'black' "
                          "title 'model (reference stages)'\n",
                          i);
  }
  script += "unset multiplot\n";
  const std::filesystem::path gp = dir / "plots" / "pipeline.gp";
  write_text_file(gp, script);
  return render_plots({{gp}, {}}, warning);
}

} // namespace lanai::bench
