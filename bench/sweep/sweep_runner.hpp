// Running the points of a sweep on a pool of worker threads. Each point is a
// function of its index alone and its result is stored at that index, so the
// results (and every file written from them, in index order) are the same
// whatever the number of threads. A raised stop flag skips the points not
// yet started; points already running see the flag themselves. With MPI
// ranks (SweepOptions::ranks) the points are spread over the ranks and their
// records, encoded, come back to rank 0 (sweep_ranks.hpp).
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lanai::bench {

class SweepRanks;

// Points a rank took and never gave back: it failed, or it died.
struct RankLoss {
  int rank = 0;
  std::string reason;              // one line
  std::vector<std::size_t> points; // ascending
  bool answered = true;            // false: it never said it was done (it died, or mpirun ended it)
};

// What spreading a sweep over ranks gives rank 0: each point's encoded
// record by index (empty: skipped, stopped or lost) and the ranks' losses.
// Other ranks get nothing.
struct SpreadSweep {
  std::vector<std::optional<std::string>> records;
  std::vector<RankLoss> losses;
};

struct SweepOptions {
  unsigned jobs = 1;                       // worker threads (0: one per hardware thread)
  const std::atomic<bool>* stop = nullptr; // may be null
  // Called on the calling thread about once a second and after each point
  // finishes, with the count of finished points.
  std::function<void(std::size_t done, std::size_t total)> progress;
  // MPI ranks to spread the points over (null: this process alone). Every
  // rank calls the sweep; only rank 0 gets the records back.
  SweepRanks* ranks = nullptr;
  // A point rank 0 runs itself: the traced or profiled one, whose recorder
  // is in rank 0's memory.
  std::optional<std::size_t> leader_point;
  // Rank 0 of a sweep spread over ranks: called once, as soon as it sees the
  // stop, with the records of the points finished so far (no losses yet),
  // before it waits for the running points to end. mpirun kills every rank
  // a second after it passes Ctrl-C on, and stopping can take longer.
  std::function<void(const SpreadSweep&)> on_stop_records;
};

// True if options.ranks spreads the sweep over more than one rank.
bool spread_over_ranks(const SweepOptions& options);
// `point`, the one a trace or a firmware profile records (`what`: "trace",
// "profile"), if it is one of the sweep's `count`; else throws
// std::invalid_argument before anything runs.
std::size_t recorded_point(std::size_t point, std::size_t count, const char* what);
SpreadSweep spread_points(std::size_t count,
                          const std::function<std::optional<std::string>(std::size_t)>& work,
                          const SweepOptions& options);

// Runs work(i) for i in [0, count) on options.jobs threads and returns when
// every started point has finished. Points not started once the stop flag is
// raised are skipped.
void run_indexed(std::size_t count, const std::function<void(std::size_t)>& work,
                 const SweepOptions& options);

// The sweep proper: result i is point(i), or empty if the point was skipped
// or gave no result (a point discards its result by returning nullopt).
// Spread over ranks, results travel through encode_record and
// decode_record (found by argument-dependent lookup: sweep_record_codec.hpp),
// and a point a rank lost is lost(i, why) if given, else empty.
//
// Spread over ranks, `at_stop` (if given) is called on rank 0 as soon as it
// sees the stop, with the results of the points finished by then
// (SweepOptions::on_stop_records).
template <class Result>
std::vector<std::optional<Result>> run_sweep(
    std::size_t count, const std::function<std::optional<Result>(std::size_t)>& point,
    const SweepOptions& options,
    const std::type_identity_t<std::function<Result(std::size_t, const std::string&)>>& lost = {},
    const std::type_identity_t<std::function<void(std::vector<std::optional<Result>>)>>& at_stop =
        {}) {
  std::vector<std::optional<Result>> results(count);
  // Only records with a byte encoding can be spread; others run here alone.
  constexpr bool encodable = requires(const Result& r, std::string_view bytes, Result& out) {
    { encode_record(r) } -> std::convertible_to<std::string>;
    decode_record(bytes, out);
  };
  if constexpr (encodable)
    if (spread_over_ranks(options)) {
      const auto decoded = [count](const SpreadSweep& spread) {
        std::vector<std::optional<Result>> out(count);
        for (std::size_t i = 0; i < spread.records.size() && i < count; ++i)
          if (spread.records[i])
            decode_record(*spread.records[i], out[i].emplace());
        return out;
      };
      SweepOptions spread_options = options;
      if (at_stop)
        spread_options.on_stop_records = [&](const SpreadSweep& so_far) {
          at_stop(decoded(so_far));
        };
      SpreadSweep spread = spread_points(
          count,
          [&](std::size_t i) -> std::optional<std::string> {
            std::optional<Result> r = point(i);
            if (!r)
              return std::nullopt;
            return encode_record(*r);
          },
          spread_options);
      results = decoded(spread);
      if (lost)
        for (const RankLoss& loss : spread.losses)
          for (const std::size_t i : loss.points)
            if (i < count && !results[i])
              results[i] = lost(i, loss.reason);
      return results;
    }
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

// The `at_stop` a sweep of kind Sweep hands run_sweep: a copy of `sweep`
// with the results finished so far in `field`, marked interrupted (and
// given what `finish` adds), passed to `write`; null if `write` is.
template <class Sweep, class Result>
std::function<void(std::vector<std::optional<Result>>)>
interrupted_copy(const Sweep& sweep, std::vector<std::optional<Result>> Sweep::*field,
                 const std::function<void(const Sweep&)>& write,
                 std::type_identity_t<std::function<void(Sweep&)>> finish = {}) {
  if (!write)
    return {};
  return [&sweep, field, &write,
          finish = std::move(finish)](std::vector<std::optional<Result>> so_far) {
    Sweep partial = sweep;
    partial.*field = std::move(so_far);
    partial.interrupted = true;
    if (finish)
      finish(partial);
    write(partial);
  };
}

} // namespace lanai::bench
