// The MPI job proper: MPI_Init_thread (funneled: only the main thread of a
// rank talks to the others) when mpirun started several ranks, the ranks
// on this machine for --jobs, the collective status, and MPI_Finalize.
#include "bench/mpi/mpi_job.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "bench/mpi/launch_environment.hpp"
#include "bench/mpi/sweep_leader.hpp"
#include "bench/mpi/sweep_messages.hpp"

namespace lanai::bench {

namespace {

class OpenMpiJob final : public MpiJob {
public:
  explicit OpenMpiJob(std::optional<RankFailureHook> hook) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
      MPI_Finalize();
      throw std::runtime_error("this MPI library does not let threads run beside MPI "
                               "(MPI_THREAD_FUNNELED)");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm here;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &here);
    MPI_Comm_size(here, &local_);
    MPI_Comm_free(&here);
    sweep_mpi::open_channel();
    if (hook && hook->rank == rank_)
      hook_ = hook->mode;
    if (hook)
      failing_rank_ = hook->rank;
  }

  ~OpenMpiJob() override {
    sweep_mpi::close_channel();
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  unsigned default_jobs() const override {
    const unsigned threads = std::thread::hardware_concurrency();
    const unsigned share = threads / static_cast<unsigned>(local_ > 0 ? local_ : 1);
    return share > 0 ? share : 1;
  }

  SpreadSweep spread(std::size_t count, const PointWork& work,
                     const SweepOptions& options) override {
    // A broken exchange leaves the other ranks waiting on this one: say
    // why, and end the job.
    spread_called_ = true;
    try {
      if (!leader()) {
        serve_sweep(rank_, work, options, hook_);
        return {};
      }
      SpreadSweep out = lead_sweep(size_, count, work, options, hook_, failing_rank_);
      losses_ = out.losses;
      for (const RankLoss& loss : losses_)
        intact_ = intact_ && loss.answered;
      return out;
    } catch (const std::exception& e) {
      fmt::print(stderr, "lanai-emu: rank {}: the sweep's exchange broke: {}\n", rank_, e.what());
      MPI_Abort(MPI_COMM_WORLD, 1);
      throw;
    }
  }

  std::function<void()> take_hold(std::string_view what, const std::atomic<bool>* stop) override {
    if (hook_ != RankFailureMode::hold)
      return {};
    hook_.reset();
    return [what = std::string(what), stop] { hold_past_stop(what, stop); };
  }

  int agree(int status) override {
    // A rank that never reported back would leave a collective waiting:
    // rank 0 ends the job instead, its files written.
    if (leader() && !intact_)
      MPI_Abort(MPI_COMM_WORLD, status);
    // The other ranks wait here while rank 0 writes the results. Looking
    // every millisecond instead of in MPI's polling loop leaves the core
    // to rank 0 when ranks share cores.
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done;)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return status;
  }

  void fail_before_sweep(const std::string& reason) override {
    if (leader() || spread_called_)
      return;
    spread_called_ = true;
    sweep_mpi::send(0, sweep_mpi::Tag::failed, rank_failure(rank_, reason));
    sweep_mpi::send(0, sweep_mpi::Tag::done);
  }

  const std::vector<RankLoss>& losses() const override { return losses_; }

private:
  int rank_ = 0, size_ = 1, local_ = 1;
  std::optional<RankFailureMode> hook_;
  std::optional<int> failing_rank_; // the rank the test hook names
  std::vector<RankLoss> losses_;
  bool intact_ = true;
  bool spread_called_ = false;
};

} // namespace

bool built_with_mpi() { return true; }

JoinedJob join_mpi_job() {
  JoinedJob joined;
  const auto launched = launched_rank();
  if (!launched || launched->size <= 1)
    return joined;
  joined.rank = launched->rank;
  std::optional<RankFailureHook> hook;
  try {
    hook = rank_failure_hook();
  } catch (const std::invalid_argument& e) {
    joined.error = e.what();
    return joined;
  }
  try {
    joined.job = std::make_unique<OpenMpiJob>(hook);
  } catch (const std::runtime_error& e) {
    joined.error = e.what();
  }
  return joined;
}

} // namespace lanai::bench
