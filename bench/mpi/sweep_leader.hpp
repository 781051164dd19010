// The two sides of a sweep spread over MPI ranks (sweep_messages.hpp has the
// protocol). Rank 0 leads: it hands out points in index order as ranks ask
// (itself included), keeps every record as it arrives, and ends when every
// rank has said it is done, or shortly after a stop. The others serve.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "bench/sweep/sweep_ranks.hpp"
#include "bench/mpi/launch_environment.hpp"

namespace lanai::bench {

// How long rank 0 waits, after a stop, for the ranks to give back their
// running points: mpirun kills the ranks a second after it passes on a
// Ctrl-C, and rank 0 needs what is left of that second to write its files.
inline constexpr std::chrono::milliseconds kStopGrace{300};

using PointWork = std::function<std::optional<std::string>(std::size_t)>;

// `hook`: rank 0's own test hook (LANAI_EMU_TEST_RANK_FAILURE);
// `failing_rank`: the rank the hook names, whichever it is.
SpreadSweep lead_sweep(int size, std::size_t count, const PointWork& work,
                       const SweepOptions& options, std::optional<RankFailureMode> hook,
                       std::optional<int> failing_rank = std::nullopt);

void serve_sweep(int rank, const PointWork& work, const SweepOptions& options,
                 std::optional<RankFailureMode> hook);

// "rank R on HOST failed: WHY", the line a rank's failure is reported by.
std::string rank_failure(int rank, const std::string& why);

} // namespace lanai::bench
