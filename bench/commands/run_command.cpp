// `lanai-emu run EXPERIMENT.toml`: runs an experiment file's sweep on a pool
// of threads and writes results.csv, summary.json, the resolved
// configuration and plots into the output directory. Under mpirun the
// points are spread over the ranks and rank 0 alone prints and writes.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "bench/commands/bench_commands.hpp"
#include "bench/commands/command_options.hpp"
#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/interrupt_flag.hpp"
#include "bench/sweep/jitter_sweep.hpp"
#include "bench/sweep/pipeline_sweep.hpp"
#include "bench/sweep/plots.hpp"
#include "bench/sweep/progress_bar.hpp"
#include "bench/sweep/queueing_sweep.hpp"
#include "bench/sweep/result_files.hpp"
#include "bench/sweep/saturation_sweep.hpp"
#include "bench/mpi/launch_environment.hpp"
#include "bench/mpi/mpi_job.hpp"
#include "emulator/trace/chrome_trace.hpp"

namespace lanai::bench {

namespace {

struct RunOptions {
  std::string experiment;
  std::string out;
  unsigned jobs = 0;
  std::optional<std::uint64_t> seed;
  bool quick = false;
  std::string trace;
  std::string firmware_profile;
  std::size_t trace_point = 0;
};

std::string cell(bool present, double v, int digits) {
  return present ? fmt::format("{:.{}f}", v, digits) : "-";
}

// Under the table: each firmware's knee, or the highest load it kept every
// class below the threshold at.
// The firmware column: as wide as the longest label, at least 12.
std::size_t firmware_width(const Experiment& e) {
  std::size_t width = 12;
  for (const auto& f : e.firmwares)
    width = std::max(width, f.label.size());
  return width;
}

void print_knees(const JitterSweep& sweep) {
  const Experiment& e = sweep.experiment;
  const std::size_t w = firmware_width(e);
  fmt::print("\nknee: the first load at which a QoS class reaches theta >= {:.2f}\n", kKneeTheta);
  for (std::size_t f = 0; f < e.firmwares.size(); ++f) {
    double highest = 0;
    bool any = false;
    for (const auto& rec : sweep.records)
      if (rec && rec->firmware == f && rec->status == PointStatus::ok) {
        highest = std::max(highest, rec->total_mbytes_per_s);
        any = true;
      }
    if (!any)
      continue;
    if (const auto knee = sweep.knee_mbytes_per_s(f))
      fmt::print("  {:<{}} {:.1f} MB/s\n", e.firmwares[f].label, w, *knee);
    else
      fmt::print("  {:<{}} none up to {:.1f} MB/s\n", e.firmwares[f].label, w, highest);
  }
}

void print_table(const JitterSweep& sweep) {
  const Experiment& e = sweep.experiment;
  const std::size_t w = firmware_width(e);
  fmt::print("{:<{}} {:>9}  {:<10} {:>4} {:>10} {:>9} {:>11} {:>11}\n", "firmware", w, "load MB/s",
             "class", "ch", "theta", "jittered", "BE mean us", "BE p99 us");
  for (const auto& rec : sweep.records) {
    if (!rec)
      continue;
    const std::string& fw = e.firmwares[rec->firmware].label;
    if (rec->status == PointStatus::failed) {
      fmt::print("{:<{}} {:>9.1f}  failed: {}\n", fw, w, rec->total_mbytes_per_s, rec->outcome);
      continue;
    }
    for (std::size_t ci = 0; ci < rec->classes.size(); ++ci) {
      const ClassMetrics& m = rec->classes[ci];
      const bool measured = m.jitter.intervals > 0;
      fmt::print("{:<{}} {:>9.1f}  {:<10} {:>4} {:>10} {:>9} {:>11} {:>11}\n", fw, w,
                 rec->total_mbytes_per_s, e.jitter.classes[ci].name, m.channels,
                 cell(measured, m.jitter.theta(), 6),
                 cell(measured, m.jitter.jittered_fraction(), 4), "", "");
    }
    if (const auto& be = rec->best_effort) {
      const bool measured = be->latency_us.count > 0;
      fmt::print("{:<{}} {:>9.1f}  {:<10} {:>4} {:>10} {:>9} {:>11} {:>11}\n", fw, w,
                 rec->total_mbytes_per_s, "BE", 1, "", "", cell(measured, be->latency_us.avg, 2),
                 cell(measured, be->latency_us.p99, 2));
    }
  }
  print_knees(sweep);
}

// Runs a sweep with `options` (any kind's) on `jobs` threads (per rank,
// spread over the ranks of `job` if there is one), stopping cleanly on
// Ctrl-C (and on SIGTERM, mpirun's way of passing it on) and drawing a
// progress bar on a terminal (rank 0's, for every rank's points).
template <class Options, class Run>
auto run_with_progress(unsigned jobs, MpiJob* job, Options options, Run run) {
  InterruptFlag interrupt(job != nullptr);
  ProgressBar bar(stderr, (!job || job->leader()) && stderr_reaches_terminal());
  if (job)
    bar.set_note(fmt::format("{} ranks", job->size()));
  options.jobs = jobs;
  options.stop = &interrupt.flag();
  options.progress = [&](std::size_t done, std::size_t total) { bar.update(done, total); };
  options.ranks = job;
  auto sweep = run(options);
  bar.finish();
  return sweep;
}

// True on the ranks that only run points: they print and write nothing.
bool serving_rank(const MpiJob* job) { return job && !job->leader(); }

std::string point_list(const std::vector<std::size_t>& points) {
  std::string out;
  for (const std::size_t p : points) {
    if (!out.empty())
      out += ", ";
    out += std::to_string(p);
  }
  return out;
}

// One line per rank that failed or died, with the points it took with it
// (each also reported, and recorded, as a failed point).
void report_losses(const MpiJob* job) {
  if (!job)
    return;
  for (const RankLoss& loss : job->losses()) {
    if (loss.rank < 0) {
      fmt::print(stderr, "lanai-emu: points {} were not run: every rank had failed\n",
                 point_list(loss.points));
      continue;
    }
    fmt::print(stderr, "lanai-emu: {}; {}\n", loss.reason,
               loss.points.empty() ? std::string("it held no points")
                                   : "its points " + point_list(loss.points) + " did not finish");
  }
}

// Under MPI, rank 0's writer of what had finished when the stop came, the
// text files only (plots and the report follow once the running points
// have ended, if mpirun leaves the time): mpirun kills every rank a second
// after it passes Ctrl-C on. Null elsewhere.
template <class Sweep>
std::function<void(const Sweep&)> write_at_stop(const MpiJob* job, const RunOptions& o,
                                                std::function<void(const Sweep&)> write) {
  if (!job || !job->leader())
    return {};
  return [write = std::move(write), quick = o.quick](const Sweep& partial) {
    Sweep sweep = partial;
    if constexpr (requires { sweep.quick; })
      sweep.quick = quick;
    else
      (void)quick;
    try {
      write(sweep);
    } catch (const std::exception& e) {
      fmt::print(stderr, "lanai-emu: {}\n", e.what());
    }
  };
}

// Writes a sweep's files and prints its report; a step that throws is
// reported and gives status 1. Otherwise: 130 if interrupted, 2 if a point
// failed, else 0.
int report_run(const std::function<void()>& write_and_print, bool interrupted, std::size_t failed) {
  try {
    write_and_print();
  } catch (const std::exception& e) {
    fmt::print(stderr, "lanai-emu: {}\n", e.what());
    return 1;
  }
  if (interrupted)
    return 130;
  return failed > 0 ? 2 : 0;
}

// Writes the recorded trace; false (and said) if it cannot.
bool write_trace(const std::string& file, const trace::Recorder& recorder) {
  std::ofstream out(file, std::ios::binary);
  trace::write_chrome_trace(out, recorder.events());
  if (!out) {
    fmt::print(stderr, "lanai-emu: {}: cannot write the trace\n", file);
    return false;
  }
  return true;
}

// Writes the firmware profile of the chosen point if one was asked for;
// false (and said) if it cannot: the point does not exist, or the file
// cannot be written.
bool write_profile(const RunOptions& o, const host::FirmwareProfiler& profiler,
                   std::size_t points) {
  if (o.firmware_profile.empty())
    return true;
  if (profiler.empty()) {
    fmt::print(stderr,
               "lanai-emu: --firmware-profile: no point {} to profile (the experiment has {})\n",
               o.trace_point, points);
    return false;
  }
  try {
    write_firmware_profile(o.firmware_profile, profiler);
  } catch (const std::exception& e) {
    fmt::print(stderr, "lanai-emu: {}\n", e.what());
    return false;
  }
  return true;
}

void print_plot_warning(const std::string& warning) {
  if (!warning.empty())
    fmt::print(stderr, "lanai-emu: warning: {}\n", warning);
}

int run_queueing(const RunOptions& o, const Experiment& experiment,
                 const std::filesystem::path& dir, MpiJob* job) {
  QueueingRunOptions queueing_options;
  queueing_options.at_stop = write_at_stop<QueueingSweep>(
      job, o, [&](const QueueingSweep& sweep) { write_queueing_files(dir, sweep); });
  QueueingSweep sweep = run_with_progress(o.jobs, job, queueing_options, [&](const auto& options) {
    return run_queueing_experiment(experiment, options);
  });
  if (serving_rank(job))
    return 0;
  report_losses(job);
  sweep.quick = o.quick;
  std::size_t kept = 0;
  for (const auto& p : sweep.points)
    kept += p.has_value();
  if (sweep.interrupted)
    fmt::print(stderr, "lanai-emu: interrupted: kept {} of {} points\n", kept, sweep.points.size());
  for (const auto& p : sweep.points)
    if (p && p->twin.status == TwinStatus::failed)
      fmt::print(stderr, "lanai-emu: point {} ({}, {} per us) failed: {}\n", p->index,
                 experiment.queueing.variants[p->variant],
                 experiment.queueing.rates_per_us[p->rate], p->twin.detail);
  return report_run(
      [&] {
        write_queueing_files(dir, sweep);
        std::string warning;
        const auto images = render_queueing_plots(dir, sweep, warning);
        print_plot_warning(warning);
        fmt::print("{}", queueing_comparison_table(sweep));
        fmt::print("\nwall time: {:.1f} s\nresults:    {}\ncomparison: {}\nsummary:    {}\nconfig: "
                   "    {}\n",
                   sweep.wall_seconds, (dir / "results.csv").string(),
                   (dir / "comparison.csv").string(), (dir / "summary.json").string(),
                   (dir / "experiment.toml").string());
        for (const auto& image : images)
          fmt::print("plot:       {}\n", image.string());
      },
      sweep.interrupted, sweep.failed());
}

int run_pipeline(const RunOptions& o, const Experiment& experiment,
                 const std::filesystem::path& dir, MpiJob* job) {
  PipelineRunOptions pipeline_options;
  pipeline_options.at_stop = write_at_stop<PipelineSweep>(
      job, o, [&](const PipelineSweep& sweep) { write_pipeline_files(dir, sweep); });
  PipelineSweep sweep = run_with_progress(o.jobs, job, pipeline_options, [&](const auto& options) {
    return run_pipeline_experiment(experiment, options);
  });
  if (serving_rank(job))
    return 0;
  report_losses(job);
  std::size_t kept = 0;
  for (const auto& p : sweep.points)
    kept += p.emulated_us.has_value();
  if (sweep.interrupted)
    fmt::print(stderr, "lanai-emu: interrupted: kept {} of {} points\n", kept, sweep.points.size());
  for (const auto& p : sweep.points)
    if (!p.failure.empty())
      fmt::print(stderr, "lanai-emu: {} at {} bytes in {} fragments failed: {}\n",
                 experiment.firmwares[p.firmware].label, p.packet, p.k, p.failure);
  return report_run(
      [&] {
        write_pipeline_files(dir, sweep);
        std::string warning;
        const auto images = render_pipeline_plots(dir, sweep, warning);
        print_plot_warning(warning);
        fmt::print("{}", pipeline_table(sweep));
        fmt::print("\nwall time: {:.1f} s\nresults: {}\nsummary: {}\nconfig:  {}\n",
                   sweep.wall_seconds, (dir / "results.csv").string(),
                   (dir / "summary.json").string(), (dir / "experiment.toml").string());
        for (const auto& image : images)
          fmt::print("plot:    {}\n", image.string());
      },
      sweep.interrupted, sweep.failed());
}

int run_saturation(const RunOptions& o, const Experiment& experiment,
                   const std::filesystem::path& dir, MpiJob* job) {
  trace::Recorder recorder;
  host::FirmwareProfiler profiler;
  SaturationRunOptions saturation_options;
  if (!o.trace.empty())
    saturation_options.trace = &recorder;
  if (!o.firmware_profile.empty())
    saturation_options.profiler = &profiler;
  saturation_options.trace_point = o.trace_point;
  saturation_options.at_stop = write_at_stop<SaturationSweep>(
      job, o, [&](const SaturationSweep& sweep) { write_saturation_files(dir, sweep); });
  SaturationSweep sweep =
      run_with_progress(o.jobs, job, saturation_options, [&](const auto& options) {
        return run_saturation_experiment(experiment, options);
      });
  if (serving_rank(job))
    return 0;
  report_losses(job);
  if (!o.trace.empty() && !write_trace(o.trace, recorder))
    return 1;
  if (!sweep.interrupted && !write_profile(o, profiler, sweep.records.size()))
    return 1;
  if (sweep.interrupted)
    fmt::print(stderr, "lanai-emu: interrupted: kept {} of {} points\n", sweep.kept(),
               sweep.records.size());
  for (const auto& rec : sweep.records)
    if (rec && !rec->ok())
      fmt::print(stderr, "lanai-emu: point {} ({}, {} bytes, {} receivers) failed: {}\n",
                 rec->index, experiment.firmwares[rec->firmware].label, rec->message_bytes,
                 rec->receivers, rec->detail);
  return report_run(
      [&] {
        write_saturation_files(dir, sweep);
        std::string warning;
        const auto images = render_saturation_plots(dir, sweep, warning);
        print_plot_warning(warning);
        fmt::print("{}", saturation_table(sweep));
        fmt::print("\nresults: {}\nsummary: {}\nconfig:  {}\n", (dir / "results.csv").string(),
                   (dir / "summary.json").string(), (dir / "experiment.toml").string());
        for (const auto& image : images)
          fmt::print("plot:    {}\n", image.string());
      },
      sweep.interrupted, sweep.failed());
}

// What is wrong with the options for this experiment, if anything: checked
// before any rank starts a point.
std::string option_problem(const RunOptions& o, const Experiment& experiment) {
  if (!o.firmware_profile.empty() &&
      (experiment.kind == "queueing" || experiment.kind == "pipeline"))
    return fmt::format("--firmware-profile: experiments of kind '{}' have no points to profile "
                       "(jitter and saturation do)",
                       experiment.kind);
  if (!o.trace.empty() && experiment.kind == "queueing")
    return "--trace is for jitter experiments; a queueing run measures from the device events "
           "itself";
  if (!o.trace.empty() && experiment.kind == "pipeline")
    return "--trace is for jitter experiments; trace one point of a pipeline experiment with "
           "`lanai-emu pingpong --trace`";
  return "";
}

int run_jitter(const RunOptions& o, const Experiment& experiment, const std::filesystem::path& dir,
               MpiJob* job);

// Reads the experiment and checks the options; every rank does, rank 0
// alone says what is wrong and makes the output directory. Then the sweep
// of the experiment's kind, on every rank.
int run_checked(const RunOptions& o, MpiJob* job) {
  const bool leader = !job || job->leader();
  std::string problem;
  Experiment experiment;
  try {
    experiment = load_experiment(o.experiment);
  } catch (const ExperimentError& e) {
    problem = e.what();
  }
  if (o.seed)
    experiment.seed = *o.seed;
  if (o.quick) {
    experiment.pipeline.iterations = 1;
    experiment.warmup_ms /= 10;
    experiment.duration_ms /= 10;
    experiment.queueing.min_duration_ms /= 10;
  }
  const std::filesystem::path dir = o.out.empty()
                                        ? std::filesystem::path("results") / experiment.name
                                        : std::filesystem::path(o.out);
  if (problem.empty() && leader) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      problem =
          fmt::format("{}: cannot create the output directory: {}", dir.string(), ec.message());
  }
  if (problem.empty())
    problem = option_problem(o, experiment);
  if (!problem.empty() && leader)
    fmt::print(stderr, "lanai-emu: {}\n", problem);
  const int status = problem.empty() ? 0 : 1;
  if (job) {
    // Rank 0's word goes: a rank that alone cannot run (it cannot read a
    // file rank 0 can) tells rank 0, and the others run its share.
    if (const int agreed = job->agree(status); agreed != 0)
      return agreed;
    if (status != 0) {
      job->fail_before_sweep(problem);
      return 0;
    }
  } else if (status != 0) {
    return status;
  }
  if (experiment.kind == "queueing")
    return run_queueing(o, experiment, dir, job);
  if (experiment.kind == "pipeline")
    return run_pipeline(o, experiment, dir, job);
  if (experiment.kind == "saturation")
    return run_saturation(o, experiment, dir, job);
  return run_jitter(o, experiment, dir, job);
}

int run_experiment_file(const RunOptions& given) {
  JoinedJob joined = join_mpi_job();
  if (!joined.error.empty()) {
    if (joined.rank == 0)
      fmt::print(stderr, "lanai-emu: {}\n", joined.error);
    return 1;
  }
  MpiJob* job = joined.job.get();
  RunOptions o = given;
  if (o.jobs == 0 && job)
    o.jobs = job->default_jobs();
  int status = 1;
  try {
    status = run_checked(o, job);
  } catch (const std::exception& e) {
    if (!job || job->leader())
      fmt::print(stderr, "lanai-emu: {}\n", e.what());
    // A rank that broke before its part in the sweep tells rank 0, which
    // would otherwise wait for it.
    if (job && !job->leader())
      job->fail_before_sweep(e.what());
  }
  // Every rank ends with rank 0's status, as mpirun reports the first
  // non-zero one.
  return job ? job->agree(status) : status;
}

int run_jitter(const RunOptions& o, const Experiment& experiment, const std::filesystem::path& dir,
               MpiJob* job) {
  trace::Recorder recorder;
  host::FirmwareProfiler profiler;
  JitterRunOptions jitter_options;
  if (!o.trace.empty())
    jitter_options.trace = &recorder;
  if (!o.firmware_profile.empty())
    jitter_options.profiler = &profiler;
  jitter_options.trace_point = o.trace_point;
  jitter_options.at_stop = write_at_stop<JitterSweep>(
      job, o, [&](const JitterSweep& sweep) { write_result_files(dir, sweep); });
  JitterSweep sweep = run_with_progress(o.jobs, job, jitter_options, [&](const auto& options) {
    return run_jitter_experiment(experiment, options);
  });
  if (serving_rank(job))
    return 0;
  report_losses(job);
  if (!o.trace.empty() && !write_trace(o.trace, recorder))
    return 1;
  if (!sweep.interrupted && !write_profile(o, profiler, sweep.records.size()))
    return 1;
  sweep.quick = o.quick;
  if (sweep.interrupted)
    fmt::print(stderr, "lanai-emu: interrupted: kept {} of {} points\n", sweep.kept(),
               sweep.records.size());
  for (const auto& rec : sweep.records)
    if (rec && rec->status == PointStatus::failed)
      fmt::print(stderr, "lanai-emu: point {} ({}, {:.1f} MB/s) failed: {}{}{}\n", rec->index,
                 experiment.firmwares[rec->firmware].label, rec->total_mbytes_per_s, rec->outcome,
                 rec->detail.empty() ? "" : ": ", rec->detail);

  return report_run(
      [&] {
        write_result_files(dir, sweep);
        std::string warning;
        const auto images = render_plots(write_plot_scripts(dir, sweep), warning);
        print_plot_warning(warning);
        print_table(sweep);
        fmt::print("\nresults: {}\nsummary: {}\nconfig:  {}\n", (dir / "results.csv").string(),
                   (dir / "summary.json").string(), (dir / "experiment.toml").string());
        for (const auto& image : images)
          fmt::print("plot:    {}\n", image.string());
      },
      sweep.interrupted, sweep.failed());
}

} // namespace

void add_run_command(cli::Command& app, int& exit_status) {
  auto options = std::make_shared<RunOptions>();
  cli::Command* cmd = app.add_subcommand(
      "run", "Run an experiment file (a sweep of firmwares x load points) and write results.csv, "
             "summary.json, the resolved configuration and plots");
  cmd->add_option("experiment", options->experiment, "experiment file (TOML)")->required();
  cmd->add_option("--out", options->out, "output directory (default: results/<name>)");
  cmd->add_option("--jobs", options->jobs,
                  "points run at once (default: one per hardware thread; under mpirun, per "
                  "rank: the machine's hardware threads shared among its ranks); results do "
                  "not depend on it")
      ->check_range(1u, 1024u);
  cmd->add_option("--trace", options->trace,
                  "write a Chrome/Perfetto trace of one point (see --trace-point) to FILE");
  cmd->add_option("--firmware-profile", options->firmware_profile,
                  "write the LANai cycles the firmware of one point (see --trace-point) spent in "
                  "each function, per node, to FILE (CSV; jitter and saturation experiments)");
  cmd->add_option("--trace-point", options->trace_point,
                  "index of the point --trace and --firmware-profile record (firmware-major "
                  "order, from 0)")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "seed of every random stream (default: the file's)");
  cmd->add_flag("--quick", options->quick,
                "divide warm-up and duration by 10: a smoke test, figures mean little");
  cmd->callback([options, &exit_status] { exit_status = run_experiment_file(*options); });
}

} // namespace lanai::bench
