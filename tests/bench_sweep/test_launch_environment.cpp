// What lanai-emu reads from its environment about an MPI launch: the rank
// and size (Open MPI's variables before MPICH's), the rank-failure test
// hook and its one-line error, and what a build without MPI says.
#include "bench/mpi/launch_environment.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace lanai::bench;

namespace {

// Sets the variables for one test case and clears them after.
struct Environment {
  explicit Environment(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& v : vars) {
      setenv(v.first, v.second, 1);
      names.push_back(v.first);
    }
  }
  ~Environment() {
    for (const char* n : names)
      unsetenv(n);
  }
  std::vector<const char*> names;
};

} // namespace

TEST_CASE("the launcher's rank and size, Open MPI's or PMI's; nothing without a launcher") {
  {
    const Environment none({});
    unsetenv("OMPI_COMM_WORLD_RANK"), unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("PMI_RANK"), unsetenv("PMI_SIZE");
    CHECK(!launched_rank());
  }
  {
    const Environment ompi({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "3"}});
    const auto r = launched_rank();
    REQUIRE(r);
    CHECK(r->rank == 2);
    CHECK(r->size == 3);
  }
  {
    const Environment pmi({{"PMI_RANK", "0"}, {"PMI_SIZE", "4"}});
    REQUIRE(launched_rank());
    CHECK(launched_rank()->size == 4);
  }
  {
    const Environment bad({{"PMI_RANK", "5"}, {"PMI_SIZE", "4"}});
    CHECK(!launched_rank());
  }
}

TEST_CASE("the rank-failure hook: RANK:error, RANK:exit or RANK:hold, anything else one line") {
  const RankFailureHook a = parse_rank_failure_hook("1:error");
  CHECK(a.rank == 1);
  CHECK(a.mode == RankFailureMode::error);
  const RankFailureHook b = parse_rank_failure_hook("0:exit");
  CHECK(b.rank == 0);
  CHECK(b.mode == RankFailureMode::exit);
  CHECK(parse_rank_failure_hook("3:hold").mode == RankFailureMode::hold);
  for (const char* bad : {"1", "x:error", "1:crash", ":error", "-1:exit", "1:"})
    CHECK_THROWS_WITH_AS(parse_rank_failure_hook(bad),
                         (std::string("LANAI_EMU_TEST_RANK_FAILURE=") + bad +
                          ": expected RANK:error, RANK:exit or RANK:hold")
                             .c_str(),
                         std::invalid_argument);
  {
    const Environment set({{kRankFailureVariable, "2:exit"}});
    REQUIRE(rank_failure_hook());
    CHECK(rank_failure_hook()->rank == 2);
  }
  unsetenv(kRankFailureVariable);
  CHECK(!rank_failure_hook());
}

TEST_CASE("a build without MPI says so, naming the ranks and the way out") {
  CHECK(no_mpi_message(3) ==
        "this lanai-emu was built without MPI, so it cannot spread a sweep over the 3 ranks "
        "mpirun started: run it without mpirun, or install Open MPI (tools/setup.sh) and rebuild");
}
