// The side of a spread sweep every rank but 0 runs: ask rank 0 for as many
// points as threads are free, run them, send each record back as it
// finishes, and say done once nothing is running and nothing more comes.
#include <utility>

#include "bench/sweep/interrupt_flag.hpp"
#include "bench/mpi/local_points.hpp"
#include "bench/mpi/sweep_leader.hpp"
#include "bench/mpi/sweep_messages.hpp"

namespace lanai::bench {

using namespace sweep_mpi;

void serve_sweep(int rank, const PointWork& work, const SweepOptions& options,
                 std::optional<RankFailureMode> hook) {
  const auto stopped = [&] { return options.stop && options.stop->load(); };
  LocalPoints local(options.jobs, work, options.stop, hook);
  bool asked = false;   // a want is waiting for its give
  bool no_more = false; // rank 0 has no more points for us, or we stopped
  bool failed = false;  // a point threw: take no more, give back what we can
  const auto send_finished = [&] {
    for (LocalPoints::Finished& f : local.take_finished()) {
      if (f.failure) {
        // The point is not given back: rank 0 reports it with the failure.
        if (!failed)
          send(0, Tag::failed, rank_failure(rank, *f.failure));
        failed = true;
        continue;
      }
      send(0, Tag::record, record_bytes(f.point, f.record));
    }
  };
  for (;;) {
    send_finished();
    while (auto m = poll()) {
      if (m->tag == Tag::stop) {
        raise_interrupt();
      } else if (m->tag == Tag::give) {
        asked = false;
        const auto points = read_give(m->bytes);
        if (points.empty())
          no_more = true;
        // A failed rank runs nothing more; what it was given is lost.
        if (!failed)
          for (const std::size_t p : points)
            local.post(p);
      }
    }
    if (stopped())
      no_more = true;
    if (!no_more && !failed && !asked && local.in_flight() < local.jobs()) {
      send(0, Tag::want, want_bytes(local.jobs() - local.in_flight()));
      asked = true;
    }
    if ((no_more || failed) && !asked && local.in_flight() == 0)
      break;
    local.wait(std::chrono::milliseconds(2));
  }
  local.join();
  send_finished(); // what finished between the last look and the join
  send(0, Tag::done);
}

} // namespace lanai::bench
