// Whitt's QNA on a QnaNetwork: traffic rates (step 1), the arrival and
// departure variability fixed point (step 2) and each station as a GI/G/m
// queue (step 3). Times in microseconds, rates per microsecond.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "tools/analytic/qna_network.hpp"

namespace lanai::models {

// A network QNA cannot solve: unstable, or jobs that never leave.
class QnaError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct QnaStationResult {
  std::string name;
  int servers = 1;
  double arrival_rate = 0.0;   // lambda_i, visits per us
  double utilization = 0.0;    // rho_i, per server
  double service_us = 0.0;     // mean service time over the visits, 1/mu_i
  double scov_arrival = 0.0;   // c^2_A,i
  double scov_service = 0.0;   // c^2_S,i
  double scov_departure = 0.0; // c^2_D,i
  double wait_us = 0.0;        // Wq: mean time waiting
  double time_us = 0.0;        // W: mean time present (waiting and in service)
  double queue = 0.0;          // Lq: mean number waiting
  double present = 0.0;        // L: mean number present
};

struct QnaVisitResult {
  std::string name; // station.class
  double arrival_rate = 0.0;
  double service_us = 0.0; // after idle scaling
  double utilization = 0.0;
  double scov_arrival = 0.0;
  double time_us = 0.0;
  double queue = 0.0;
  double present = 0.0;
};

// One job class over all its visits. `entry_rate` counts jobs that become
// this class (from outside or by switching); `time_us` is the mean time a
// job spends in the class (Little's law over the class's visits).
struct QnaClassResult {
  std::string name;
  double entry_rate = 0.0;
  double queue = 0.0;
  double present = 0.0;
  double time_us = 0.0;
};

struct QnaResult {
  std::string model;
  double rate_per_us = 0.0;
  int iterations = 0; // of the variability fixed point
  std::vector<QnaStationResult> stations;
  std::vector<QnaVisitResult> visits;
  std::vector<QnaClassResult> classes;
};

// Solves `network` at its rate_per_us. Throws QnaError for a station at or
// above full utilisation, routing that keeps jobs forever, or a scaled
// service that refers to a station whose own service is scaled.
QnaResult solve_qna(const QnaNetwork& network);

} // namespace lanai::models
