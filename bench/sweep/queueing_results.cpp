// The files, table and plots of a queueing experiment. Everything but the
// wall times in summary.json is a function of the experiment and its seed,
// written in point order, so it repeats byte for byte.
#include <fmt/format.h>

#include <cmath>

#include "bench/sweep/plots.hpp"
#include "bench/sweep/queueing_sweep.hpp"
#include "bench/sweep/result_files.hpp"
#include "emulator/text/json_text.hpp"
#include "lanai/queue_twin_abi.h"

namespace lanai::bench {

namespace {

using text::json_string;

std::string number(double v, int digits = 6) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "null";
}

// Relative difference of the emulator from the model, or empty.
std::optional<double> relative(double emulator, double model) {
  if (model == 0)
    return std::nullopt;
  return (emulator - model) / model;
}

const std::vector<std::string>& variants(const QueueingSweep& s) {
  return s.experiment.queueing.variants;
}
double rate_of(const QueueingSweep& s, const QueueingPoint& p) {
  return s.experiment.queueing.rates_per_us[p.rate];
}

template <class F>
void for_each_ok(const QueueingSweep& s, F f) {
  for (const auto& p : s.points)
    if (p && p->twin.status == TwinStatus::ok)
      f(*p);
}

std::string comparison_csv(const QueueingSweep& s) {
  std::string out = "variant,rate_per_us,station,model_utilization,utilization,model_mean_queue,"
                    "mean_queue,mean_queue_ci95,queue_rel_diff\n";
  for_each_ok(s, [&](const QueueingPoint& p) {
    const auto& model = s.model[p.rate];
    for (const auto& st : p.twin.stations) {
      const auto m = model ? model_figures(*model, st.station) : std::nullopt;
      const auto rel = m ? relative(st.mean_queue, m->mean_queue) : std::nullopt;
      out +=
          fmt::format("{},{},{},{},{},{},{},{},{}\n", variants(s)[p.variant],
                      number(rate_of(s, p), 5), st.station, m ? number(m->utilization) : "",
                      number(st.utilization), m ? number(m->mean_queue) : "", number(st.mean_queue),
                      number(st.mean_queue_ci95), rel ? number(*rel, 4) : "");
    }
  });
  return out;
}

constexpr const char* kVisitNames[] = {"lanai.doorbell",  "hdma.doorbell", "lanai.descriptor",
                                       "hdma.descriptor", "lanai.data",    "nsdma.data"};

std::string summary_json(const QueueingSweep& s) {
  const Experiment& e = s.experiment;
  const QueueingSetup& q = e.queueing;
  std::string out = summary_json_head(e, "queueing");
  out += fmt::format("  \"model\": {},\n", json_string(q.model.name));
  out += fmt::format("  \"firmware\": {},\n  \"profile\": {},\n  \"seed\": {},\n",
                     json_string(e.firmwares.front().label), json_string(e.profile.name), e.seed);
  out += fmt::format("  \"quick\": {},\n  \"interrupted\": {},\n", s.quick, s.interrupted);
  out += fmt::format("  \"wall_seconds\": {:.3f},\n  \"points\": [", s.wall_seconds);
  bool first = true;
  for (const auto& p : s.points) {
    if (!p)
      continue;
    const TwinPointResult& r = p->twin;
    out += first ? "\n" : ",\n";
    first = false;
    out += fmt::format("    {{\"variant\": {}, \"rate_per_us\": {}, \"status\": {}",
                       json_string(variants(s)[p->variant]), number(rate_of(s, *p), 5),
                       json_string(r.status == TwinStatus::ok ? "ok" : "failed"));
    if (r.status != TwinStatus::ok) {
      out += fmt::format(", \"detail\": {}, \"wall_seconds\": {:.3f}}}", json_string(r.detail),
                         r.wall_seconds);
      continue;
    }
    out += fmt::format(", \"messages\": {}, \"measured_ms\": {}, \"batches\": {}, "
                       "\"stop_precision\": {}, \"precision_met\": {}, \"wall_seconds\": {:.3f},\n",
                       r.messages, number(r.measured_ms, 3), q.batches, number(r.precision, 5),
                       r.precision_met, r.wall_seconds);
    out += "     \"service_us\": {";
    bool first_visit = true;
    for (std::size_t v = 0; v < r.services.size(); ++v) {
      if (r.services[v].count == 0)
        continue;
      out += fmt::format("{}{}: {{\"count\": {}, \"mean\": {}, \"min\": {}, \"max\": {}}}",
                         first_visit ? "" : ", ", json_string(kVisitNames[v]), r.services[v].count,
                         number(r.services[v].mean_us()), number(r.services[v].min_us),
                         number(r.services[v].max_us));
      first_visit = false;
    }
    out += "},\n     \"stations\": {";
    const auto& model = s.model[p->rate];
    for (std::size_t i = 0; i < r.stations.size(); ++i) {
      const StationEstimate& st = r.stations[i];
      const auto m = model ? model_figures(*model, st.station) : std::nullopt;
      out +=
          fmt::format("{}{}: {{\"utilization\": {}, \"mean_queue\": {}, \"mean_queue_ci95\": {}, "
                      "\"model_utilization\": {}, \"model_mean_queue\": {}}}",
                      i ? ", " : "", json_string(st.station), number(st.utilization),
                      number(st.mean_queue), number(st.mean_queue_ci95),
                      m ? number(m->utilization) : "null", m ? number(m->mean_queue) : "null");
    }
    out += "}}";
  }
  out += "\n  ]\n}\n";
  return out;
}

// One plot: the mean queue of `station` against the rate, the model's
// curve and each variant's points with their 95% intervals.
std::string plot_data(const QueueingSweep& s, const std::string& station) {
  std::string out = "# rate_per_us model";
  for (const auto& v : variants(s))
    out += fmt::format(" {0} {0}_ci95", v);
  out += "\n";
  const auto& rates = s.experiment.queueing.rates_per_us;
  for (std::size_t r = 0; r < rates.size(); ++r) {
    const auto m = s.model[r] ? model_figures(*s.model[r], station) : std::nullopt;
    out += fmt::format("{:.5f} {}", rates[r], m ? number(m->mean_queue) : "?");
    for (std::size_t v = 0; v < variants(s).size(); ++v) {
      const auto& p = s.points[v * rates.size() + r];
      const StationEstimate* st = nullptr;
      if (p && p->twin.status == TwinStatus::ok)
        for (const auto& x : p->twin.stations)
          if (x.station == station)
            st = &x;
      out +=
          st ? fmt::format(" {} {}", number(st->mean_queue), number(st->mean_queue_ci95)) : " ? ?";
    }
    out += "\n";
  }
  return out;
}

std::string plot_script(const QueueingSweep& s, const std::string& station) {
  std::string out =
      gnuplot_header(station + "-queue", 760, 480) +
      fmt::format("set datafile missing '?'\n"
                  "set key top left\n"
                  "set grid\n"
                  "set logscale y\n"
                  "set title 'mean {0} queue (waiting): QNA model and emulator (95% intervals)'\n"
                  "set xlabel 'doorbell rate (per us)'\n"
                  "set ylabel 'mean queue length'\n"
                  "plot '{0}.dat' using 1:2 with linespoints lw 2 title 'QNA model'",
                  station);
  for (std::size_t v = 0; v < variants(s).size(); ++v)
    out += fmt::format(", \\\n     '{}.dat' using 1:{}:{} with yerrorlines title 'emulator, {}'",
                       station, 3 + 2 * v, 4 + 2 * v, variants(s)[v]);
  return out + "\n";
}

} // namespace

std::string queueing_results_csv(const QueueingSweep& s) {
  std::string out = "variant,rate_per_us,station,utilization,mean_queue,mean_queue_ci95\n";
  for_each_ok(s, [&](const QueueingPoint& p) {
    for (const auto& st : p.twin.stations)
      out += fmt::format("{},{},{},{},{},{}\n", variants(s)[p.variant], number(rate_of(s, p), 5),
                         st.station, number(st.utilization), number(st.mean_queue),
                         number(st.mean_queue_ci95));
  });
  return out;
}

std::string queueing_comparison_table(const QueueingSweep& s) {
  std::string out =
      fmt::format("{:<7} {:>8}  {:<17} {:>7} {:>7}  {:>9} {:>20} {:>8}\n", "variant", "rate/us",
                  "station", "U model", "U emu", "Lq model", "Lq emulator (95%)", "diff");
  for_each_ok(s, [&](const QueueingPoint& p) {
    const auto& model = s.model[p.rate];
    for (const auto& st : p.twin.stations) {
      const auto m = model ? model_figures(*model, st.station) : std::nullopt;
      const auto rel = m ? relative(st.mean_queue, m->mean_queue) : std::nullopt;
      out +=
          fmt::format("{:<7} {:>8.5f}  {:<17} {:>7} {:>7.4f}  {:>9} {:>11.4f} +-{:<7.4f} {:>8}\n",
                      variants(s)[p.variant], rate_of(s, p), st.station,
                      m ? fmt::format("{:.4f}", m->utilization) : "-", st.utilization,
                      m ? fmt::format("{:.4f}", m->mean_queue) : "-", st.mean_queue,
                      st.mean_queue_ci95, rel ? fmt::format("{:+.1f}%", *rel * 100) : "-");
    }
  });
  for (std::size_t r = 0; r < s.model_errors.size(); ++r)
    if (!s.model_errors[r].empty())
      out += fmt::format("model at {:.5f}/us: {}\n", s.experiment.queueing.rates_per_us[r],
                         s.model_errors[r]);
  return out;
}

void write_queueing_files(const std::filesystem::path& dir, const QueueingSweep& s) {
  write_text_file(dir / "results.csv", queueing_results_csv(s));
  write_text_file(dir / "comparison.csv", comparison_csv(s));
  write_text_file(dir / "summary.json", summary_json(s));
  write_text_file(dir / "experiment.toml", resolved_experiment(s.experiment));
  write_text_file(dir / "profile.toml", profile::dump_profile(s.experiment.profile));
  const QueueingSetup& q = s.experiment.queueing;
  write_text_file(dir / "twin-profile.toml", profile::dump_profile(twin_profile(
                                                 s.experiment.profile, q.services, q.transfers)));
}

std::vector<std::filesystem::path> render_queueing_plots(const std::filesystem::path& dir,
                                                         const QueueingSweep& s,
                                                         std::string& warning) {
  const auto plots = dir / "plots";
  std::filesystem::create_directories(plots);
  PlotFiles files;
  for (const std::string station : {"hdma", "lanai"}) {
    if (s.experiment.queueing.services.lanai_only && station != "lanai")
      continue;
    write_text_file(plots / (station + ".dat"), plot_data(s, station));
    write_text_file(plots / (station + "-queue.gp"), plot_script(s, station));
    files.scripts.push_back(plots / (station + "-queue.gp"));
  }
  return render_plots(files, warning);
}

} // namespace lanai::bench
