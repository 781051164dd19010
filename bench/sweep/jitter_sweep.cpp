// One jitter experiment on the sweep runner.
#include "bench/sweep/jitter_sweep.hpp"

#include "bench/sweep/point_spec.hpp"
#include "bench/sweep/sweep_record_codec.hpp"
#include "bench/sweep/sweep_runner.hpp"

namespace lanai::bench {

JitterSweep run_jitter_experiment(const Experiment& experiment, const JitterRunOptions& options) {
  JitterSweep sweep;
  sweep.experiment = experiment;
  sweep.loads = load_points(experiment.jitter);
  const std::size_t per_firmware = sweep.loads.size();
  const std::size_t count = experiment.firmwares.size() * per_firmware;

  const std::function<std::optional<PointRecord>(std::size_t)> point = [&](std::size_t i) {
    const SweepPoint p = sweep_point(i, per_firmware);
    const LoadPoint& load = sweep.loads[p.load];
    PointRecord record;
    try {
      StreamPointSpec spec = point_spec(experiment, load, p);
      if (i == options.trace_point) {
        spec.trace = options.trace;
        spec.profiler = options.profiler;
      }
      const StreamPointResult result = run_stream_point(spec, options.stop);
      if (result.stopped)
        return std::optional<PointRecord>{};
      record = jitter_record(experiment, load, result);
    } catch (const std::exception& e) {
      if (options.stop && options.stop->load())
        return std::optional<PointRecord>{};
      record = PointRecord{};
      record.total_mbytes_per_s = load.total_mbytes_per_s;
      record.status = PointStatus::failed;
      record.outcome = "error";
      record.detail = e.what();
    }
    record.index = i;
    record.firmware = p.firmware;
    record.load = p.load;
    return std::optional<PointRecord>(std::move(record));
  };

  SweepOptions sweep_options;
  sweep_options.jobs = options.jobs;
  sweep_options.stop = options.stop;
  sweep_options.progress = options.progress;
  sweep_options.ranks = options.ranks;
  if (options.trace || options.profiler)
    sweep_options.leader_point =
        recorded_point(options.trace_point, count, options.trace ? "trace" : "profile");
  // A point an MPI rank took and never gave back is a failed point.
  const auto lost = [&](std::size_t i, const std::string& why) {
    const SweepPoint p = sweep_point(i, per_firmware);
    PointRecord record;
    record.index = i;
    record.firmware = p.firmware;
    record.load = p.load;
    record.total_mbytes_per_s = sweep.loads[p.load].total_mbytes_per_s;
    record.status = PointStatus::failed;
    record.outcome = "error";
    record.detail = why;
    return record;
  };
  sweep.records = run_sweep(count, point, sweep_options, lost,
                            interrupted_copy(sweep, &JitterSweep::records, options.at_stop));
  sweep.interrupted = options.stop && options.stop->load();
  return sweep;
}

} // namespace lanai::bench
