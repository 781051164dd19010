// Queue lengths and utilisations of the twin's stations, measured from the
// card's event stream: a message's wait at a queue runs from its arrival
// there (doorbell rung, host DMA fetch finished, request programmed) to the
// start of its service (the LANai state of its class, the host DMA taking
// the request), so the integral of a queue's length over a stretch of time
// is the sum of the waits' overlaps with it. Integrals are kept per cell
// of fixed length from the start of measurement; batches of whole cells
// give batch means and their 95% confidence intervals.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "emulator/kernel/sim_time.hpp"
#include "emulator/trace/trace_event.hpp"

namespace lanai::bench {

// A station's figures over a measured stretch: means over the batches and
// the half-width of the mean queue's 95% interval (Student t, batches - 1
// degrees of freedom).
struct StationEstimate {
  std::string station; // "lanai", "lanai.doorbell", ..., "hdma", "nsdma"
  double utilization = 0;
  double mean_queue = 0; // waiting, not in service
  double mean_queue_ci95 = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const StationEstimate&) const = default;
};

// Mean service time and count of one visit's services (all of the run).
struct ServiceTally {
  std::uint64_t count = 0;
  double total_us = 0;
  double min_us = 0;
  double max_us = 0;
  void add(kernel::SimTime duration) {
    const double us = duration.as_us();
    min_us = count == 0 ? us : std::min(min_us, us);
    max_us = count == 0 ? us : std::max(max_us, us);
    ++count;
    total_us += us;
  }
  double mean_us() const { return count ? total_us / static_cast<double>(count) : 0.0; }
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const ServiceTally&) const = default;
};

class QueueMeter {
public:
  // Measurement starts at `start`; cells are `cell` long.
  QueueMeter(kernel::SimTime start, kernel::SimTime cell, bool lanai_only);

  // One event of the card (recorded at its end).
  void consume(const trace::Event& event);

  // Estimates from the first `cells` cells in `batches` batches of equal
  // length (cells must be a positive multiple of batches, batches >= 2).
  std::vector<StationEstimate> estimate(std::size_t cells, std::size_t batches) const;
  // The relative half-width (ci95 / mean) of the stopping station's mean
  // queue (hdma, or lanai in the single-station form); infinite while the
  // mean is 0.
  double stop_precision(std::size_t cells, std::size_t batches) const;

  kernel::SimTime cell() const { return cell_; }
  kernel::SimTime start() const { return start_; }
  // Services of each visit (indexed by TWIN_VISIT_*), to check the devices
  // against the model's service times.
  const std::array<ServiceTally, 6>& services() const { return services_; }
  // Messages whose doorbell rang, and works that found no matching arrival
  // (the firmware broke FCFS order within a class: should stay 0).
  std::uint64_t doorbells() const { return doorbells_; }
  std::uint64_t unmatched() const { return unmatched_; }

private:
  enum Series : std::size_t {
    wait_doorbell,
    wait_descriptor,
    wait_data,
    wait_hdma,
    busy_doorbell,
    busy_descriptor,
    busy_data,
    busy_hdma,
    busy_nsdma,
    series_count
  };
  void add(Series series, kernel::SimTime from, kernel::SimTime to);
  void lanai_work(std::size_t job_class, const trace::Event& event);
  std::vector<double> batch_values(std::size_t cells, std::size_t batches,
                                   std::initializer_list<Series> series) const;

  kernel::SimTime start_;
  kernel::SimTime cell_;
  bool lanai_only_;
  // Per cell, per series: the integral in picoseconds.
  std::vector<std::array<double, series_count>> cells_;
  std::size_t hint_cell_ = 0; // the cell the last span that crossed cells ended in
  // Arrival times at the LANai's three queues not yet matched to a start.
  std::array<std::deque<kernel::SimTime>, 3> arrivals_;
  std::array<ServiceTally, 6> services_{};
  kernel::SimTime lanai_free_{}; // end of the LANai's last job
  kernel::SimTime nsdma_free_{}; // end of the send DMA's last packet
  std::uint64_t doorbells_ = 0;
  std::uint64_t unmatched_ = 0;
};

// The 97.5% quantile of Student's t with `degrees` degrees of freedom.
double student_t_975(std::size_t degrees);

} // namespace lanai::bench
