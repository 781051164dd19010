// The cost of one synchronisation round of a conservative parallel run
// (docs/scaling.md): every rank agrees on the earliest next event time, an
// MPI_Allreduce(MIN) of one 64-bit time, as a window barrier needs. Prints
// the mean time per round over the ranks this was started on:
//   mpirun -n 2 build/release/bench/bench_mpi_sync_speed [ROUNDS]
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long rounds = argc > 1 ? std::atol(argv[1]) : 100000;
  std::int64_t next = rank;
  // Warm the transport up before timing.
  for (long i = 0; i < 1000; ++i) {
    std::int64_t earliest = 0;
    MPI_Allreduce(&next, &earliest, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < rounds; ++i) {
    std::int64_t earliest = 0;
    next += 1 + (i % 3);
    MPI_Allreduce(&next, &earliest, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rank == 0)
    std::printf("%d ranks: %ld rounds of MPI_Allreduce(MIN, int64) in %.3f s: %.2f us per round\n",
                size, rounds, seconds, 1e6 * seconds / static_cast<double>(rounds));
  MPI_Finalize();
  return 0;
}
