// Running the ping-pongs of one calibration evaluation.
#include "bench/calibration/latency_model.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <future>
#include <thread>

#include "bench/metrics/latency_summary.hpp"
#include "bench/workloads/pingpong.hpp"

namespace lanai::bench {

// As in the published table, the breakdown cells come from a ping-pong with
// receives posted ahead, the 1-way latency from the usual loop that reposts
// each receive as its message arrives (PingPongSpec::receives).
struct LatencyModel::Run {
  std::string firmware;
  std::uint32_t size = 0;
  bool breakdown = false;
  ReceivePosting receives() const {
    return breakdown ? kBreakdownReceives : ReceivePosting::on_arrival;
  }
};

struct LatencyModel::Pool {
  explicit Pool(unsigned threads) : pool(threads) {}
  ~Pool() { pool.join(); }
  boost::asio::thread_pool pool;
};

LatencyModel::LatencyModel(std::vector<TargetCell> cells, ModelOptions options)
    : cells_(std::move(cells)), options_(options) {
  for (const TargetCell& c : cells_) {
    const bool breakdown = !is_one_way(c.quantity);
    auto it = std::find_if(runs_.begin(), runs_.end(), [&](const Run& r) {
      return r.firmware == c.firmware && r.size == c.size && r.breakdown == breakdown;
    });
    if (it == runs_.end())
      it = runs_.insert(runs_.end(), Run{c.firmware, c.size, breakdown});
    cell_run_.push_back(static_cast<std::size_t>(it - runs_.begin()));
  }
  unsigned threads = options_.threads ? options_.threads : std::thread::hardware_concurrency();
  pool_ = std::make_unique<Pool>(std::max(1u, threads));
}

LatencyModel::~LatencyModel() = default;

std::vector<double> LatencyModel::evaluate(const profile::HardwareProfile& profile) {
  struct Outcome {
    double median_us = 0;
    Breakdown breakdown;
  };
  std::vector<std::future<Outcome>> futures;
  for (const Run& run : runs_) {
    auto task = std::make_shared<std::packaged_task<Outcome()>>([this, &profile, run] {
      PingPongSpec spec;
      spec.setup.profile = profile;
      spec.setup.firmware = run.firmware;
      spec.setup.seed = options_.seed;
      spec.size = run.size;
      spec.iters = options_.iters;
      spec.warmup = options_.warmup;
      spec.breakdown = run.breakdown;
      spec.receives = run.receives();
      spec.reliability = options_.reliability;
      const PingPongResult r = run_pingpong(spec);
      if (!r.ok())
        throw CalibrationError(
            fmt::format("ping-pong of {} at {} bytes, receives posted {}, failed: {}", run.firmware,
                        run.size, receive_posting_name(run.receives()), r.failure));
      Outcome out;
      out.median_us = summarize(r.one_way_us).median;
      if (r.breakdown)
        out.breakdown = *r.breakdown;
      return out;
    });
    futures.push_back(task->get_future());
    boost::asio::post(pool_->pool, [task] { (*task)(); });
  }
  // Wait for all before rethrowing, so no task outlives `profile`.
  std::vector<Outcome> outcomes;
  std::exception_ptr failure;
  for (auto& f : futures) {
    try {
      outcomes.push_back(f.get());
    } catch (...) {
      if (!failure)
        failure = std::current_exception();
      outcomes.emplace_back();
    }
  }
  if (failure)
    std::rethrow_exception(failure);
  std::vector<double> values;
  values.reserve(cells_.size());
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const Outcome& o = outcomes[cell_run_[i]];
    values.push_back(is_one_way(cells_[i].quantity)
                         ? o.median_us
                         : breakdown_value(o.breakdown, cells_[i].quantity));
  }
  return values;
}

double relative_error(double model_us, double target_us) {
  return (model_us - target_us) / std::max(target_us, 1.0);
}

} // namespace lanai::bench
