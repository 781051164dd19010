// The sweep's thread pool: points are posted in index order to a Boost.Asio
// pool; the calling thread waits, reporting progress, until all are done.
#include "bench/sweep/sweep_runner.hpp"

#include "bench/sweep/sweep_ranks.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace lanai::bench {

bool spread_over_ranks(const SweepOptions& options) {
  return options.ranks != nullptr && options.ranks->size() > 1;
}

std::size_t recorded_point(std::size_t point, std::size_t count, const char* what) {
  if (point >= count)
    throw std::invalid_argument(
        fmt::format("no point {} to {} (the experiment has {})", point, what, count));
  return point;
}

SpreadSweep spread_points(std::size_t count,
                          const std::function<std::optional<std::string>(std::size_t)>& work,
                          const SweepOptions& options) {
  return options.ranks->spread(count, work, options);
}

void run_indexed(std::size_t count, const std::function<void(std::size_t)>& work,
                 const SweepOptions& options) {
  unsigned jobs = options.jobs != 0 ? options.jobs : std::thread::hardware_concurrency();
  if (jobs == 0)
    jobs = 1;
  const auto stopped = [&] { return options.stop && options.stop->load(); };

  std::mutex m;
  std::condition_variable changed;
  std::size_t done = 0;     // points finished or skipped
  std::size_t finished = 0; // points that ran to their end
  std::exception_ptr failure;

  boost::asio::thread_pool pool(jobs);
  for (std::size_t i = 0; i < count; ++i) {
    boost::asio::post(pool, [&, i] {
      bool ran = false;
      std::exception_ptr error;
      if (!stopped()) {
        try {
          work(i);
          ran = true;
        } catch (...) {
          error = std::current_exception();
        }
      }
      const std::lock_guard lock(m);
      ++done;
      if (ran)
        ++finished;
      if (error && !failure)
        failure = error;
      changed.notify_all();
    });
  }

  std::size_t reported = static_cast<std::size_t>(-1);
  std::unique_lock lock(m);
  while (done < count) {
    changed.wait_for(lock, std::chrono::seconds(1));
    if (options.progress) {
      const std::size_t now = finished;
      lock.unlock();
      options.progress(now, count);
      lock.lock();
      reported = now;
    }
  }
  lock.unlock();
  pool.join();
  if (options.progress && reported != finished)
    options.progress(finished, count);
  // A point function is expected to report its own failures as results;
  // anything it throws is a bug worth surfacing.
  if (failure)
    std::rethrow_exception(failure);
}

} // namespace lanai::bench
