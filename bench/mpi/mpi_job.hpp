// The MPI job `lanai-emu run` joins when mpirun starts it: rank 0 reads
// and checks the experiment like everyone, runs points like everyone, and
// alone prints and writes files. No MPI header here: a build without MPI
// compiles this too, and join_mpi_job tells it apart.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/sweep/sweep_ranks.hpp"

namespace lanai::bench {

class MpiJob : public SweepRanks {
public:
  // Threads per rank when --jobs is not given: the machine's hardware
  // threads shared among the ranks on it.
  virtual unsigned default_jobs() const = 0;
  // Rank 0's status, on every rank (a collective: every rank calls it).
  virtual int agree(int status) = 0;
  // A rank other than 0 that cannot take part (it could not read the
  // experiment, say) tells rank 0 why, instead of calling spread. Nothing
  // once spread has been called.
  virtual void fail_before_sweep(const std::string& reason) = 0;
  // On rank 0, after spread: the ranks that failed or died, with the points
  // they took and never gave back.
  virtual const std::vector<RankLoss>& losses() const = 0;
};

struct JoinedJob {
  std::unique_ptr<MpiJob> job; // null: this process runs the sweep alone
  std::string error;           // set: cannot run (a build without MPI under mpirun, a bad hook)
  int rank = 0;                // who says the error (rank 0 alone does)
};

// Joins the MPI job if an MPI launcher started this process as one of
// several ranks; otherwise (or for one rank) leaves the process alone.
JoinedJob join_mpi_job();

// True if this build has MPI.
bool built_with_mpi();

} // namespace lanai::bench
