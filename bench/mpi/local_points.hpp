// The points one rank of an MPI sweep runs: its main thread posts point
// indices as they are given to it, a pool of threads runs them, and the
// main thread collects what finished (an encoded record, or why the point
// threw) to send on. The rank-failure test hook fires here.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bench/mpi/launch_environment.hpp"

namespace lanai::bench {

class LocalPoints {
public:
  using Work = std::function<std::optional<std::string>(std::size_t)>;

  // `hook`: the test hook, if it names this rank. A point that starts
  // once `stop` is raised is skipped (finished without a record).
  LocalPoints(unsigned jobs, const Work& work, const std::atomic<bool>* stop,
              std::optional<RankFailureMode> hook);
  ~LocalPoints();
  LocalPoints(const LocalPoints&) = delete;
  LocalPoints& operator=(const LocalPoints&) = delete;

  struct Finished {
    std::size_t point = 0;
    std::optional<std::string> record;  // empty: the point discarded its result
    std::optional<std::string> failure; // set: the point threw this
  };

  void post(std::size_t point);
  unsigned jobs() const { return jobs_; }
  std::size_t in_flight() const;
  std::vector<Finished> take_finished();
  // Returns once a point finishes, or after `most`.
  void wait(std::chrono::milliseconds most);
  // Waits for every posted point.
  void join();

private:
  unsigned jobs_;
  const Work& work_;
  const std::atomic<bool>* stop_;
  std::optional<RankFailureMode> hook_;
  bool hook_fired_ = false; // under m_
  mutable std::mutex m_;
  std::condition_variable changed_;
  std::size_t in_flight_ = 0;
  std::vector<Finished> finished_;
  boost::asio::thread_pool pool_;
};

} // namespace lanai::bench
