// A build without MPI: a sweep always runs in this process alone, and a
// launch as several ranks is refused, said once by rank 0.
#include "bench/mpi/launch_environment.hpp"
#include "bench/mpi/mpi_job.hpp"

namespace lanai::bench {

bool built_with_mpi() { return false; }

JoinedJob join_mpi_job() {
  JoinedJob joined;
  const auto launched = launched_rank();
  if (launched && launched->size > 1) {
    joined.rank = launched->rank;
    joined.error = no_mpi_message(launched->size);
  }
  return joined;
}

} // namespace lanai::bench
