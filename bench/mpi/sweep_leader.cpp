// Rank 0's side of a spread sweep: one loop on the main thread that feeds
// its own pool, answers the other ranks and gathers their records. Every
// point is given out once, in index order, so what a point computes never
// depends on who ran it.
#include "bench/mpi/sweep_leader.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "bench/mpi/local_points.hpp"
#include "bench/mpi/sweep_messages.hpp"

namespace lanai::bench {

namespace {

using namespace sweep_mpi;
using Clock = std::chrono::steady_clock;

struct RankState {
  std::set<std::size_t> held;         // given out, not yet given back
  std::optional<std::string> failure; // it failed: takes no more points
  bool done = false;                  // nothing more will come from it
};

} // namespace

std::string rank_failure(int rank, const std::string& why) {
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  return fmt::format("rank {} on {} failed: {}", rank, host, why);
}

SpreadSweep lead_sweep(int size, std::size_t count, const PointWork& work,
                       const SweepOptions& options, std::optional<RankFailureMode> hook,
                       std::optional<int> failing_rank) {
  SpreadSweep out;
  out.records.resize(count);
  const auto stopped = [&] { return options.stop && options.stop->load(); };

  // The order points are given out in: the one rank 0 must run first.
  std::vector<std::size_t> order;
  if (options.leader_point && *options.leader_point < count)
    order.push_back(*options.leader_point);
  for (std::size_t i = 0; i < count; ++i)
    if (!(options.leader_point && *options.leader_point == i))
      order.push_back(i);
  // With the test hook on another rank, the last point is kept for that
  // rank until it asks: it then fails as the test expects, however fast
  // the others (on a loaded machine) take the rest.
  std::optional<std::size_t> kept;
  const std::size_t leader_first = options.leader_point && *options.leader_point < count ? 1 : 0;
  if (failing_rank && *failing_rank > 0 && *failing_rank < size && order.size() > leader_first) {
    kept = order.back();
    order.pop_back();
  }
  std::size_t next = 0;
  std::vector<RankState> ranks(static_cast<std::size_t>(size));
  const auto take = [&](int rank, std::size_t most) {
    std::vector<std::size_t> given;
    if (kept && rank == *failing_rank && !stopped() && most > 0) {
      given.push_back(*kept);
      ranks[static_cast<std::size_t>(rank)].held.insert(*kept);
      kept.reset();
    }
    while (!stopped() && given.size() < most && next < order.size()) {
      given.push_back(order[next++]);
      ranks[static_cast<std::size_t>(rank)].held.insert(given.back());
    }
    return given;
  };
  std::size_t finished = 0;
  const auto keep = [&](int rank, std::size_t point, std::optional<std::string> record) {
    RankState& r = ranks[static_cast<std::size_t>(rank)];
    if (r.held.erase(point) == 0)
      throw std::logic_error(
          fmt::format("rank {} gave back point {}, which it did not hold", rank, point));
    if (record) {
      out.records[point] = std::move(record);
      ++finished;
    }
  };

  LocalPoints local(options.jobs, work, options.stop, hook);
  RankState& self = ranks[0];
  std::optional<Clock::time_point> stop_sent;
  auto last_progress = Clock::now();
  std::size_t reported = static_cast<std::size_t>(-1);
  const auto keep_finished = [&] {
    for (LocalPoints::Finished& f : local.take_finished()) {
      if (f.failure) {
        if (!self.failure)
          self.failure = rank_failure(0, *f.failure);
        continue; // the point stays held: lost
      }
      keep(0, f.point, std::move(f.record));
    }
  };
  for (;;) {
    keep_finished();
    while (!self.failure && local.in_flight() < local.jobs()) {
      const auto given = take(0, 1);
      if (given.empty())
        break;
      local.post(given.front());
    }
    while (auto m = poll()) {
      RankState& r = ranks[static_cast<std::size_t>(m->source)];
      switch (m->tag) {
      case Tag::want:
        send(m->source, Tag::give, give_bytes(take(m->source, read_want(m->bytes))));
        break;
      case Tag::record: {
        auto [point, record] = read_record(m->bytes);
        keep(m->source, point, std::move(record));
        break;
      }
      case Tag::failed:
        r.failure = m->bytes;
        break;
      case Tag::done:
        r.done = true;
        break;
      default:
        throw std::logic_error(
            fmt::format("rank 0 got message {} from rank {}", static_cast<int>(m->tag), m->source));
      }
    }
    if (stopped() && !stop_sent) {
      for (int r = 1; r < size; ++r)
        if (!ranks[static_cast<std::size_t>(r)].done)
          send(r, Tag::stop);
      stop_sent = Clock::now();
      // What has finished is kept before anything is waited for.
      keep_finished();
      if (options.on_stop_records)
        options.on_stop_records(out);
    }
    const auto now = Clock::now();
    if (options.progress &&
        (finished != reported || now - last_progress >= std::chrono::seconds(1))) {
      options.progress(finished, count);
      reported = finished;
      last_progress = now;
    }
    const bool others_done =
        std::all_of(ranks.begin() + 1, ranks.end(), [](const RankState& r) { return r.done; });
    const bool idle = local.in_flight() == 0;
    const bool nothing_to_give = stopped() || (next == order.size() && !kept) || self.failure;
    if (idle && others_done && nothing_to_give)
      break;
    if (idle && stop_sent && now - *stop_sent > kStopGrace)
      break;
    local.wait(std::chrono::milliseconds(2));
  }
  local.join();
  keep_finished(); // what finished between the last look and the join

  for (int r = 0; r < size; ++r) {
    const RankState& s = ranks[static_cast<std::size_t>(r)];
    const bool silent = r != 0 && !s.done; // never said it was done
    if (!s.failure && s.held.empty() && !silent)
      continue;
    RankLoss loss;
    loss.rank = r;
    loss.reason = s.failure ? *s.failure
                            : fmt::format("rank {} did not report back after the stop (it died, or "
                                          "mpirun ended it)",
                                          r);
    loss.points.assign(s.held.begin(), s.held.end());
    loss.answered = !silent;
    out.losses.push_back(std::move(loss));
  }
  // Every rank failed before the points ran out: nobody was left to run them.
  if (!stopped() && (next < order.size() || kept)) {
    RankLoss loss;
    loss.rank = -1;
    loss.reason = "not run: every rank had failed";
    loss.points.assign(order.begin() + static_cast<std::ptrdiff_t>(next), order.end());
    if (kept)
      loss.points.push_back(*kept);
    std::sort(loss.points.begin(), loss.points.end());
    out.losses.push_back(std::move(loss));
  }
  if (options.progress)
    options.progress(finished, count);
  return out;
}

} // namespace lanai::bench
