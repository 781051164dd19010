// Running the points of a sweep on a pool of worker threads. Each point is a
// function of its index alone and its result is stored at that index, so the
// results (and every file written from them, in index order) are the same
// whatever the number of threads. A raised stop flag skips the points not
// yet started; points already running see the flag themselves.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace lanai::bench {

struct SweepOptions {
  unsigned jobs = 1;                          // worker threads (0: one per hardware thread)
  const std::atomic<bool>* stop = nullptr;    // may be null
  // Called on the calling thread about once a second and after each point
  // finishes, with the count of finished points.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// Runs work(i) for i in [0, count) on options.jobs threads and returns when
// every started point has finished. Points not started once the stop flag is
// raised are skipped.
void run_indexed(std::size_t count, const std::function<void(std::size_t)>& work,
                 const SweepOptions& options);

// The sweep proper: result i is point(i), or empty if the point was skipped
// or gave no result (a point discards its result by returning nullopt).
template <class Result>
std::vector<std::optional<Result>> run_sweep(
    std::size_t count, const std::function<std::optional<Result>(std::size_t)>& point,
    const SweepOptions& options) {
  std::vector<std::optional<Result>> results(count);
  std::mutex m;
  run_indexed(
      count,
      [&](std::size_t i) {
        std::optional<Result> r = point(i);
        const std::lock_guard lock(m);
        results[i] = std::move(r);
      },
      options);
  return results;
}

} // namespace lanai::bench
