#include "bench/queueing/queue_meter.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "lanai/queue_twin_abi.h"

namespace lanai::bench {

QueueMeter::QueueMeter(kernel::SimTime start, kernel::SimTime cell, bool lanai_only)
    : start_(start), cell_(cell), lanai_only_(lanai_only) {
  if (cell.ps() <= 0)
    throw std::invalid_argument("QueueMeter: the cell length must be > 0");
}

void QueueMeter::add(Series series, kernel::SimTime from, kernel::SimTime to) {
  from = std::max(from, start_);
  if (to <= from)
    return;
  const std::int64_t c = cell_.ps();
  const std::int64_t a = (from - start_).ps();
  const std::int64_t b = (to - start_).ps();
  // Most spans lie within the cell the last one ended in: no division.
  const std::int64_t hint_from = static_cast<std::int64_t>(hint_cell_) * c;
  if (a >= hint_from && b <= hint_from + c && hint_cell_ < cells_.size()) {
    cells_[hint_cell_][series] += static_cast<double>(b - a);
    return;
  }
  const auto last = static_cast<std::size_t>((b - 1) / c);
  hint_cell_ = last;
  if (cells_.size() <= last)
    cells_.resize(last + 1, std::array<double, series_count>{});
  for (auto k = static_cast<std::size_t>(a / c); k <= last; ++k) {
    const std::int64_t lo = std::max<std::int64_t>(a, static_cast<std::int64_t>(k) * c);
    const std::int64_t hi = std::min<std::int64_t>(b, static_cast<std::int64_t>(k + 1) * c);
    cells_[k][series] += static_cast<double>(hi - lo);
  }
}

// The LANai serves one job at a time and, in the model, polls for free: a
// job starts service when it has arrived and the job before it (of any
// class) has ended. The firmware times jobs that way too (see
// firmware/nic-send-twin), so its state span may begin a polling lap later.
void QueueMeter::lanai_work(std::size_t job_class, const trace::Event& e) {
  auto& queue = arrivals_[job_class];
  kernel::SimTime service_start = e.begin;
  if (queue.empty()) {
    ++unmatched_;
  } else {
    kernel::SimTime ready = std::max(queue.front(), lanai_free_);
    // Data is programmed only into an idle send DMA (it has no waiting room).
    if (job_class == 2)
      ready = std::max(ready, nsdma_free_);
    service_start = std::min(e.begin, ready);
    add(static_cast<Series>(wait_doorbell + job_class), queue.front(), service_start);
    queue.pop_front();
  }
  add(static_cast<Series>(busy_doorbell + job_class), service_start, e.end);
  services_[job_class * 2].add(e.end - service_start);
  lanai_free_ = e.end;
}

void QueueMeter::consume(const trace::Event& e) {
  switch (e.track) {
  case trace::Track::doorbell:
    if (e.name == "send") {
      arrivals_[0].push_back(e.begin);
      ++doorbells_;
    }
    break;
  case trace::Track::lanai:
    if (e.name == TWIN_STATE_DOORBELL)
      lanai_work(0, e);
    else if (e.name == TWIN_STATE_DESCRIPTOR)
      lanai_work(1, e);
    else if (e.name == TWIN_STATE_DATA)
      lanai_work(2, e);
    break;
  case trace::Track::hdma: {
    add(wait_hdma, e.programmed, e.begin);
    add(busy_hdma, e.begin, e.end);
    if (e.vi == TWIN_VISIT_HDMA_DESCRIPTOR)
      arrivals_[1].push_back(e.end);
    if (e.vi == TWIN_VISIT_HDMA_DATA)
      arrivals_[2].push_back(e.end);
    if (e.vi < services_.size())
      services_[e.vi].add(e.end - e.begin);
    break;
  }
  case trace::Track::nsdma:
    add(busy_nsdma, e.begin, e.end);
    nsdma_free_ = e.end;
    services_[TWIN_VISIT_NSDMA].add(e.end - e.begin);
    break;
  default:
    break;
  }
}

std::vector<double> QueueMeter::batch_values(std::size_t cells, std::size_t batches,
                                             std::initializer_list<Series> series) const {
  const std::size_t per = cells / batches;
  std::vector<double> values(batches, 0.0);
  for (std::size_t b = 0; b < batches; ++b) {
    double sum = 0;
    for (std::size_t k = b * per; k < (b + 1) * per && k < cells_.size(); ++k)
      for (Series s : series)
        sum += cells_[k][s];
    values[b] = sum / (static_cast<double>(per) * static_cast<double>(cell_.ps()));
  }
  return values;
}

namespace {

struct MeanCi {
  double mean = 0;
  double ci95 = 0;
};

MeanCi mean_ci(const std::vector<double>& v) {
  const double n = static_cast<double>(v.size());
  double mean = 0;
  for (double x : v)
    mean += x;
  mean /= n;
  double ss = 0;
  for (double x : v)
    ss += (x - mean) * (x - mean);
  const double sd = std::sqrt(ss / (n - 1));
  return {mean, student_t_975(v.size() - 1) * sd / std::sqrt(n)};
}

} // namespace

std::vector<StationEstimate> QueueMeter::estimate(std::size_t cells, std::size_t batches) const {
  if (batches < 2 || cells == 0 || cells % batches != 0)
    throw std::invalid_argument("QueueMeter: cells must be a positive multiple of batches >= 2");
  auto station = [&](std::string name, std::initializer_list<Series> wait,
                     std::initializer_list<Series> busy) {
    StationEstimate s;
    s.station = std::move(name);
    s.utilization = mean_ci(batch_values(cells, batches, busy)).mean;
    if (wait.size() > 0) {
      const MeanCi q = mean_ci(batch_values(cells, batches, wait));
      s.mean_queue = q.mean;
      s.mean_queue_ci95 = q.ci95;
    }
    return s;
  };
  std::vector<StationEstimate> out;
  if (lanai_only_) {
    out.push_back(station("lanai", {wait_doorbell}, {busy_doorbell}));
    out.push_back(station("lanai.doorbell", {wait_doorbell}, {busy_doorbell}));
    return out;
  }
  out.push_back(station("lanai", {wait_doorbell, wait_descriptor, wait_data},
                        {busy_doorbell, busy_descriptor, busy_data}));
  out.push_back(station("lanai.doorbell", {wait_doorbell}, {busy_doorbell}));
  out.push_back(station("lanai.descriptor", {wait_descriptor}, {busy_descriptor}));
  out.push_back(station("lanai.data", {wait_data}, {busy_data}));
  out.push_back(station("hdma", {wait_hdma}, {busy_hdma}));
  // The send DMA has no waiting room: data waits in the LANai's data queue.
  out.push_back(station("nsdma", {}, {busy_nsdma}));
  return out;
}

double QueueMeter::stop_precision(std::size_t cells, std::size_t batches) const {
  const MeanCi q = mean_ci(batch_values(cells, batches, {lanai_only_ ? wait_doorbell : wait_hdma}));
  if (q.mean <= 0)
    return std::numeric_limits<double>::infinity();
  return q.ci95 / q.mean;
}

double student_t_975(std::size_t degrees) {
  const boost::math::students_t dist(static_cast<double>(degrees));
  return boost::math::quantile(dist, 0.975);
}

} // namespace lanai::bench
