// `lanai-emu frag`: the 1-way latency of messages the card cuts into static
// fragments, per message size and fragment size, next to the pipeline
// model's prediction from the card's stages measured by the direct method.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/commands/bench_commands.hpp"
#include "bench/commands/command_options.hpp"
#include "bench/sweep/plots.hpp"
#include "bench/sweep/sweep_runner.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/firmware_parts.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "bench/workloads/card_stages.hpp"

namespace lanai::bench {

namespace {

// Firmware that pipelines messages through its fragment slots.
constexpr std::uint32_t kAutoSmallest = 256;

struct FragOptions {
  std::string firmware = "pvia";
  std::string sizes = "4K,16K,64K";
  std::string frag_sizes = "auto";
  std::string fit_sizes;
  std::uint32_t iters = 3;
  std::string format = "table";
  std::string profile = default_bench_profile;
  std::uint64_t seed = 1;
  unsigned jobs = 0;
  std::string out;
};

struct Point {
  std::size_t report = 0; // which message size
  std::uint32_t size = 0;
  std::uint32_t frag = 0;
  std::size_t fragments = 0;
  double emulator_us = 0;
  double model_us = 0;
  double error_pct() const { return 100.0 * (model_us - emulator_us) / emulator_us; }
};

struct SizeReport {
  std::uint32_t size = 0;
  std::int64_t theorem_k = 1; // the fixed-size theorem on the measured stages
  std::uint32_t theorem_frag = 0;
  std::vector<Point> points; // by fragment size
  const Point& best(bool model) const {
    return *std::min_element(points.begin(), points.end(), [&](const Point& a, const Point& b) {
      return (model ? a.model_us : a.emulator_us) < (model ? b.model_us : b.emulator_us);
    });
  }
};

std::uint32_t align_up(std::uint32_t bytes) {
  return (bytes + VIA_FRAG_ALIGN - 1u) / VIA_FRAG_ALIGN * VIA_FRAG_ALIGN;
}

// The fragment sizes tried for a message: `given` if any, else ("auto")
// the powers of two from 256 B below it, the theorem's choice and the
// whole message.
std::vector<std::uint32_t> fragment_sizes(const std::vector<std::uint32_t>& given,
                                          std::uint32_t size, std::uint32_t theorem_frag) {
  if (!given.empty())
    return given;
  std::set<std::uint32_t> out{size, std::min(size, theorem_frag)};
  for (std::uint32_t f = kAutoSmallest; f < size; f *= 2)
    out.insert(f);
  return {out.begin(), out.end()};
}

double median_abs_error(const std::vector<SizeReport>& reports, double* worst) {
  std::vector<double> errors;
  for (const SizeReport& r : reports)
    for (const Point& p : r.points)
      errors.push_back(std::abs(p.error_pct()));
  *worst = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
  return errors.empty() ? 0 : summarize(errors).median;
}

std::string stage_line(const MeasuredStage& s) {
  return fmt::format("#   {:<14} {:>9.2f} {:>11.2f} {:>12.2f}\n", s.name, s.fit.g_us,
                     s.fit.G_us_per_kb, s.max_residual_us);
}

std::string render_table(const FragOptions& o, const std::string& profile, const CardStages& stages,
                         const std::vector<SizeReport>& reports) {
  std::string out = fmt::format(
      "# lanai-emu frag: firmware {}, profile {}, static fragments, 1-way latency (us, median of "
      "{} round trips)\n# model: the card's stages by the direct method on whole messages of {} "
      "bytes\n#   {:<14} {:>9} {:>11} {:>12}\n",
      o.firmware, profile, o.iters, fmt::join(stages.sizes, ", "), "stage", "g (us)", "G (us/KB)",
      "fit miss us");
  for (const MeasuredStage& s : stages.message_path())
    out += stage_line(s);
  out += fmt::format("{:>9} {:>9} {:>6} {:>10} {:>10} {:>8}\n", "size(B)", "frag(B)", "frags",
                     "emulator", "model", "error%");
  for (const SizeReport& r : reports)
    for (const Point& p : r.points)
      out += fmt::format("{:>9} {:>9} {:>6} {:>10.1f} {:>10.1f} {:>+8.1f}\n", p.size, p.frag,
                         p.fragments, p.emulator_us, p.model_us, p.error_pct());
  out += fmt::format("\n# best fragment size per message\n{:>9} {:>20} {:>20} {:>18}\n", "size(B)",
                     "emulator frag(B) us", "model frag(B) us", "theorem k frag(B)");
  for (const SizeReport& r : reports) {
    const Point &e = r.best(false), &m = r.best(true);
    out += fmt::format("{:>9} {:>10} {:>9.1f} {:>10} {:>9.1f} {:>8} {:>9}\n", r.size, e.frag,
                       e.emulator_us, m.frag, m.model_us, r.theorem_k, r.theorem_frag);
  }
  double worst = 0;
  const double median = median_abs_error(reports, &worst);
  out +=
      fmt::format("\n# model vs emulator: median |error| {:.1f}%, worst {:.1f}%\n", median, worst);
  return out;
}

std::string render_csv(const FragOptions& o, const std::vector<SizeReport>& reports) {
  std::string out = "firmware,size,frag_bytes,fragments,emulator_us,model_us,error_pct\n";
  for (const SizeReport& r : reports)
    for (const Point& p : r.points)
      out += fmt::format("{},{},{},{},{:.3f},{:.3f},{:.3f}\n", o.firmware, p.size, p.frag,
                         p.fragments, p.emulator_us, p.model_us, p.error_pct());
  return out;
}

std::string render_json(const FragOptions& o, const std::string& profile, const CardStages& stages,
                        const std::vector<SizeReport>& reports) {
  std::vector<std::string> stage_items;
  for (const MeasuredStage& s : stages.message_path())
    stage_items.push_back(stage_json(s));
  std::string out = fmt::format(
      "{{\"firmware\":\"{}\",\"profile\":\"{}\",\"iters\":{},\"fit_sizes\":[{}],\"stages\":[{}],"
      "\"results\":[",
      o.firmware, profile, o.iters, fmt::join(stages.sizes, ","), fmt::join(stage_items, ","));
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const SizeReport& r = reports[i];
    const Point &e = r.best(false), &m = r.best(true);
    out += fmt::format("{}\n  {{\"size\":{},\"emulator_best_frag\":{},\"emulator_best_us\":{:.3f},"
                       "\"model_best_frag\":{},\"model_best_us\":{:.3f},\"theorem_k\":{},"
                       "\"theorem_frag\":{},\"by_frag\":[",
                       i ? "," : "", r.size, e.frag, e.emulator_us, m.frag, m.model_us, r.theorem_k,
                       r.theorem_frag);
    for (std::size_t j = 0; j < r.points.size(); ++j) {
      const Point& p = r.points[j];
      out +=
          fmt::format("{}{{\"frag_bytes\":{},\"fragments\":{},\"emulator_us\":{:.3f},"
                      "\"model_us\":{:.3f},\"error_pct\":{:.3f}}}",
                      j ? "," : "", p.frag, p.fragments, p.emulator_us, p.model_us, p.error_pct());
    }
    out += "]}";
  }
  double worst = 0;
  const double median = median_abs_error(reports, &worst);
  return out + fmt::format("\n],\"median_abs_error_pct\":{:.3f},\"max_abs_error_pct\":{:.3f}}}\n",
                           median, worst);
}

// DIR/frag.csv, DIR/plots/frag.dat and frag.gp, and DIR/frag.png: one
// panel per message size, latency against fragment size, emulator and model.
void write_outputs(const std::filesystem::path& dir, const FragOptions& o,
                   const std::string& profile, const std::vector<SizeReport>& reports) {
  std::filesystem::create_directories(dir / "plots");
  write_text_file((dir / "frag.csv").string(), render_csv(o, reports));
  std::string data;
  for (const SizeReport& r : reports) {
    data += fmt::format("# message {} bytes: frag_bytes emulator_us model_us\n", r.size);
    for (const Point& p : r.points)
      data += fmt::format("{} {:.3f} {:.3f}\n", p.frag, p.emulator_us, p.model_us);
    data += "\n\n";
  }
  write_text_file((dir / "plots" / "frag.dat").string(), data);
  std::string script =
      gnuplot_header("frag", 420 * reports.size() + 80, 420) +
      fmt::format(
          "set grid\nset logscale x 2\nset format x '%.0b%B'\nset key top right\n"
          "set xlabel 'fragment size (bytes)'\nset ylabel '1-way latency (us)'\n"
          "set multiplot layout 1,{} title '{} on {}: static fragments, emulator and pipeline "
          "model'\n",
          reports.size(), o.firmware, profile);
  for (std::size_t i = 0; i < reports.size(); ++i)
    script += fmt::format(
        "set title '{} B message'\n"
        "plot 'frag.dat' index {} using 1:2 with linespoints pt 7 title 'emulator', \\\n"
        "     'frag.dat' index {} using 1:3 with linespoints dt 2 pt 6 title 'model'\n",
        reports[i].size, i, i);
  script += "unset multiplot\n";
  const std::filesystem::path gp = dir / "plots" / "frag.gp";
  write_text_file(gp.string(), script);
  std::string warning;
  const auto images = render_plots({{gp}, {}}, warning);
  if (!warning.empty())
    fmt::print(stderr, "lanai-emu: warning: {}\n", warning);
  fmt::print(stderr, "results: {}\n", (dir / "frag.csv").string());
  for (const auto& image : images)
    fmt::print(stderr, "plot:    {}\n", image.string());
}

int run_frag(const FragOptions& options) {
  // Output names the firmware by its label: a shipped name or a folder's own.
  const loader::FirmwareSource firmware = loader::find_firmware(options.firmware);
  FragOptions o = options;
  o.firmware = firmware.label;
  // Fragmenting firmware has the fragmentation part (PVIA, QoS-VIA and
  // their variants).
  if (!loader::has_part(firmware.folder, "fragmentation")) {
    fmt::print(stderr,
               "lanai-emu frag: firmware '{}' does not fragment messages (use pvia or qosvia, or "
               "a variant of them)\n",
               o.firmware);
    return 1;
  }
  const OutputFormat format = parse_format(o.format);
  const std::vector<std::uint32_t> sizes = parse_sizes(o.sizes);
  const std::vector<std::uint32_t> given =
      o.frag_sizes == "auto" ? std::vector<std::uint32_t>{} : parse_sizes(o.frag_sizes);
  ClusterSetup setup;
  setup.profile = profile::find_profile(o.profile);
  setup.firmware = firmware.value();
  setup.seed = o.seed;
  const std::uint32_t largest = *std::max_element(sizes.begin(), sizes.end());
  const std::vector<std::uint32_t> fit =
      o.fit_sizes.empty() ? default_fit_sizes(largest) : parse_sizes(o.fit_sizes);
  const CardStages stages = measure_card_stages(setup, fit, o.iters);
  const std::vector<models::PipelineStage> path = stages.pipeline();

  std::vector<SizeReport> reports;
  std::vector<Point> points;
  for (const std::uint32_t size : sizes) {
    SizeReport r;
    r.size = size;
    const models::FixedSizeChoice choice =
        models::fixed_size_theorem(path, size, std::max(1u, size / VIA_FRAG_ALIGN));
    r.theorem_k = choice.k;
    r.theorem_frag = align_up(static_cast<std::uint32_t>((size + choice.k - 1) / choice.k));
    for (const std::uint32_t frag : fragment_sizes(given, size, r.theorem_frag)) {
      const std::vector<double> cut = static_fragments(size, frag);
      points.push_back({reports.size(), size, frag, cut.size(), 0, stages.predict_us(cut)});
    }
    reports.push_back(r);
  }
  SweepOptions sweep;
  sweep.jobs = o.jobs;
  std::vector<std::string> failures(points.size());
  const auto measured = run_sweep<double>(
      points.size(),
      [&](std::size_t i) -> std::optional<double> {
        PingPongSpec spec;
        spec.setup = setup;
        spec.size = points[i].size;
        spec.iters = o.iters;
        spec.fragmentation = {VIA_FRAG_STATIC, points[i].frag, {0, 0, 0, 0}};
        return median_one_way_us(spec, failures[i]);
      },
      sweep);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!measured[i]) {
      fmt::print(stderr, "lanai-emu frag: {} bytes in {}-byte fragments: {}\n", points[i].size,
                 points[i].frag, failures[i]);
      return 2;
    }
    points[i].emulator_us = *measured[i];
    reports[points[i].report].points.push_back(points[i]);
  }
  const std::string& profile = setup.profile.name;
  switch (format) {
  case OutputFormat::table:
    fmt::print("{}", render_table(o, profile, stages, reports));
    break;
  case OutputFormat::csv:
    fmt::print("{}", render_csv(o, reports));
    break;
  case OutputFormat::json:
    fmt::print("{}", render_json(o, profile, stages, reports));
    break;
  }
  if (!o.out.empty())
    write_outputs(o.out, o, profile, reports);
  return 0;
}

} // namespace

void add_frag_command(cli::Command& app, int& exit_status) {
  auto options = std::make_shared<FragOptions>();
  cli::Command* cmd = app.add_subcommand(
      "frag", "1-way latency of fragmented messages against the pipeline model, per message and "
              "fragment size");
  cmd->add_option("--firmware", options->firmware,
                  "fragmenting firmware on both nodes: pvia, qosvia, or a variant's folder (a "
                  "path, containing '/')")
      ->capture_default_str();
  cmd->add_option("--sizes", options->sizes, "message sizes in bytes, K and M suffixes allowed")
      ->capture_default_str();
  cmd->add_option("--frag-sizes", options->frag_sizes,
                  "static fragment sizes in bytes, or auto: powers of two from 256 B, the "
                  "fixed-size theorem's choice and the whole message")
      ->capture_default_str();
  cmd->add_option("--fit-sizes", options->fit_sizes,
                  "whole-message sizes the stages are timed at (default: 256 B and every fourth "
                  "power of two up to the largest size)");
  cmd->add_option("--iters", options->iters, "timed round trips per point")
      ->check_range(1u, 100000u)
      ->capture_default_str();
  cmd->add_option("--format", options->format, "table, csv or json")->capture_default_str();
  cmd->add_option("--profile", options->profile, "hardware profile: shipped name or TOML file")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "random seed of the runs")->capture_default_str();
  cmd->add_option("--jobs", options->jobs, "points run at once (0: one per core)")
      ->capture_default_str();
  cmd->add_option("--out", options->out,
                  "also write frag.csv and the plot frag.png (gnuplot) into DIR");
  cmd->callback([options, &exit_status] { exit_status = run_frag(*options); });
}

} // namespace lanai::bench
