// An open multi-class queueing network as Whitt's Queueing Network Analyzer
// (QNA) takes it: stations with m servers, and "visits" — one job class at
// one station, with its mean service time and squared coefficient of
// variation (SCOV). Jobs arrive from outside at visits, move between visits
// with fixed probabilities and leave with the probability left over.
//
// Class switching is routing between visits of different classes: the NIC
// send path's doorbell that the host DMA turns into a descriptor is a route
// from visit hdma.doorbell to visit lanai.descriptor. The flow of one message
// through doorbell, descriptor and data is therefore the published model's
// single flow that visits the LANai three times and the host DMA twice.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lanai::models {

struct QnaStation {
  std::string name;
  int servers = 1;
};

// A service that happens only when another station is idle: its mean is
// mean_us * factor * (1 - utilisation of that station). The published model
// charges the LANai's data programming this way (factor 0.5: "half of the
// NSDMA's idle probability").
struct IdleScaling {
  std::size_t station = 0;
  double factor = 1.0;
};

struct QnaVisit {
  std::size_t station = 0;
  std::string station_name;
  std::string job_class;
  double mean_us = 0.0;
  double scov = 0.0;
  std::optional<IdleScaling> idle;
  std::string name() const { return station_name + "." + job_class; }
};

// External arrivals at a visit: `share` of the network's rate, with SCOV.
struct QnaArrival {
  std::size_t visit = 0;
  double share = 1.0;
  double scov = 1.0;
};

struct QnaRoute {
  std::size_t from = 0;
  std::size_t to = 0;
  double probability = 1.0;
};

struct QnaNetwork {
  std::string name;
  std::string description;
  double rate_per_us = 0.0; // the network's external arrival rate
  std::vector<QnaStation> stations;
  std::vector<QnaVisit> visits;
  std::vector<QnaArrival> arrivals;
  std::vector<QnaRoute> routes;
};

} // namespace lanai::models
