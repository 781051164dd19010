// Running a rank's points on its pool; what they give waits under a mutex
// for the main thread, which alone talks to the other ranks.
#include "bench/mpi/local_points.hpp"

#include <boost/asio/post.hpp>

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <utility>

namespace lanai::bench {

LocalPoints::LocalPoints(unsigned jobs, const Work& work, const std::atomic<bool>* stop,
                         std::optional<RankFailureMode> hook)
    : jobs_(jobs == 0 ? 1 : jobs), work_(work), stop_(stop), hook_(hook), pool_(jobs_) {}

LocalPoints::~LocalPoints() { pool_.join(); }

void LocalPoints::post(std::size_t point) {
  {
    const std::lock_guard lock(m_);
    ++in_flight_;
  }
  boost::asio::post(pool_, [this, point] {
    Finished done;
    done.point = point;
    try {
      bool fire = false;
      {
        const std::lock_guard lock(m_);
        fire = hook_ && !hook_fired_;
        hook_fired_ = true;
      }
      if (fire && *hook_ == RankFailureMode::exit)
        std::_Exit(3);
      if (fire && *hook_ == RankFailureMode::hold) {
        hold_past_stop("point " + std::to_string(point), stop_);
      } else if (fire) {
        throw std::runtime_error(std::string("failure requested by ") + kRankFailureVariable);
      }
      if (!(stop_ && stop_->load()))
        done.record = work_(point);
    } catch (const std::exception& e) {
      done.failure = e.what();
    } catch (...) {
      done.failure = "unknown exception";
    }
    const std::lock_guard lock(m_);
    --in_flight_;
    finished_.push_back(std::move(done));
    changed_.notify_all();
  });
}

std::size_t LocalPoints::in_flight() const {
  const std::lock_guard lock(m_);
  return in_flight_;
}

std::vector<LocalPoints::Finished> LocalPoints::take_finished() {
  const std::lock_guard lock(m_);
  return std::exchange(finished_, {});
}

void LocalPoints::wait(std::chrono::milliseconds most) {
  std::unique_lock lock(m_);
  changed_.wait_for(lock, most, [&] { return !finished_.empty(); });
}

void LocalPoints::join() {
  std::unique_lock lock(m_);
  changed_.wait(lock, [&] { return in_flight_ == 0; });
}

} // namespace lanai::bench
