// Environment variables of MPI launchers, the rank-failure test hook, and
// the launcher's terminal found through /proc.
#include "bench/mpi/launch_environment.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace lanai::bench {

namespace {

std::optional<int> int_variable(const char* name) {
  const char* v = std::getenv(name);
  if (!v)
    return std::nullopt;
  int n = 0;
  const std::string_view s(v);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size() || n < 0)
    return std::nullopt;
  return n;
}

} // namespace

std::optional<LaunchedRank> launched_rank() {
  for (const auto& [rank, size] : {std::pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                   std::pair{"PMI_RANK", "PMI_SIZE"}}) {
    const auto r = int_variable(rank), n = int_variable(size);
    if (r && n && *n > 0 && *r < *n)
      return LaunchedRank{*r, *n};
  }
  return std::nullopt;
}

std::string no_mpi_message(int size) {
  return "this lanai-emu was built without MPI, so it cannot spread a sweep over the " +
         std::to_string(size) +
         " ranks mpirun started: run it without mpirun, or install Open MPI (tools/setup.sh) and "
         "rebuild";
}

RankFailureHook parse_rank_failure_hook(std::string_view text) {
  const auto bad = [&] {
    return std::invalid_argument(std::string(kRankFailureVariable) + "=" + std::string(text) +
                                 ": expected RANK:error, RANK:exit or RANK:hold");
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos)
    throw bad();
  RankFailureHook hook;
  const std::string_view rank = text.substr(0, colon), mode = text.substr(colon + 1);
  const auto [end, ec] = std::from_chars(rank.data(), rank.data() + rank.size(), hook.rank);
  if (rank.empty() || ec != std::errc{} || end != rank.data() + rank.size() || hook.rank < 0)
    throw bad();
  if (mode == "error")
    hook.mode = RankFailureMode::error;
  else if (mode == "exit")
    hook.mode = RankFailureMode::exit;
  else if (mode == "hold")
    hook.mode = RankFailureMode::hold;
  else
    throw bad();
  return hook;
}

void hold_past_stop(std::string_view what, const std::atomic<bool>* stop) {
  std::fprintf(stderr, "lanai-emu: %s: holding %.*s\n", kRankFailureVariable,
               static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  while (!(stop && stop->load()))
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::seconds(5));
}

std::optional<RankFailureHook> rank_failure_hook() {
  const char* v = std::getenv(kRankFailureVariable);
  if (!v || !*v)
    return std::nullopt;
  return parse_rank_failure_hook(v);
}

bool stderr_reaches_terminal() {
  if (isatty(STDERR_FILENO))
    return true;
  if (!launched_rank())
    return false;
  // mpirun (or its daemon on another machine) is the rank's parent.
  const std::string path = "/proc/" + std::to_string(getppid()) + "/fd/2";
  const int fd = open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return false;
  const bool terminal = isatty(fd) != 0;
  close(fd);
  return terminal;
}

} // namespace lanai::bench
