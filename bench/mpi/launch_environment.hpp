// What lanai-emu learns from its environment about an MPI launch, with or
// without MPI built in: the rank and size mpirun gave it, the test hook
// that makes one rank fail, and whether a terminal is behind stderr.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <string_view>

namespace lanai::bench {

struct LaunchedRank {
  int rank = 0;
  int size = 1;
};

// The rank and size an MPI launcher put in the environment: Open MPI's
// OMPI_COMM_WORLD_RANK/SIZE, or the PMI_RANK/SIZE of MPICH and Slurm.
std::optional<LaunchedRank> launched_rank();

// What a build without MPI says when mpirun starts it as several ranks.
std::string no_mpi_message(int size);

// LANAI_EMU_TEST_RANK_FAILURE=RANK:MODE, read by tests only: the rank fails
// as it takes its first point (rank 0 keeps one for it, however fast the
// other ranks take the rest). `error`: its work throws, as a bug would; the
// rank reports the failure itself. `exit`: the process ends at once with
// status 3, as a crash would, and mpirun ends the job. `hold`: the point
// says so on stderr and runs on until 5 s after the stop, as a point slow
// to stop on a loaded machine would, longer than mpirun waits before it
// kills the ranks. On rank 0 of a pipeline sweep the hold takes the
// models rank 0 measures beside the points instead.
enum class RankFailureMode { error, exit, hold };
struct RankFailureHook {
  int rank = 0;
  RankFailureMode mode = RankFailureMode::error;
};
inline constexpr const char* kRankFailureVariable = "LANAI_EMU_TEST_RANK_FAILURE";

// Throws std::invalid_argument with a one-line message for a bad value.
RankFailureHook parse_rank_failure_hook(std::string_view text);
std::optional<RankFailureHook> rank_failure_hook();

// The `hold` mode's work: says on stderr that `what` is held (a test stops
// the sweep once it reads this), then returns 5 s after the stop.
void hold_past_stop(std::string_view what, const std::atomic<bool>* stop);

// True if stderr is a terminal, or, for an MPI rank (mpirun gives ranks a
// pipe), if the launcher's own stderr is: the progress bar is drawn then.
bool stderr_reaches_terminal();

} // namespace lanai::bench
