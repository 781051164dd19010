// The network the queueing twin executes, taken from a QNA model file: the
// NIC send path (lanai.doorbell -> hdma.doorbell -> lanai.descriptor ->
// hdma.descriptor -> lanai.data -> nsdma.data -> out) or its single-station
// form (lanai.doorbell -> out), with the model's mean service times. And the
// hardware profile that gives the card's DMA engines those service times.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tools/analytic/qna_network.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::bench {

// A model the twin cannot execute; what() names the visit or route at fault.
class TwinModelError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TwinServices {
  bool lanai_only = false; // the single-station form
  double lanai_doorbell_us = 0;
  double lanai_descriptor_us = 0;
  double lanai_data_us = 0;      // programming the send DMA (done only when it is idle)
  double hdma_descriptor_us = 0; // visit hdma.doorbell: fetching the descriptor
  double hdma_data_us = 0;       // visit hdma.descriptor: fetching the data
  double nsdma_us = 0;           // visit nsdma.data
};

// Checks that `network` is one of the two shapes above (one server per
// station, Poisson arrivals at lanai.doorbell, every route taken with
// probability 1, deterministic services) and returns its service times.
TwinServices twin_services(const models::QnaNetwork& network);

// Transfer sizes of the twin's host DMA fetches.
struct TwinTransfers {
  std::uint32_t descriptor_bytes = 64;
  std::uint32_t data_bytes = 4096;
};

// `base` with the host DMA setup and PCI rate chosen so that fetching
// descriptor_bytes takes hdma_descriptor_us and data_bytes hdma_data_us,
// the send DMA start-up so that sending data_bytes (plus the route byte)
// takes nsdma_us, and queues deep enough never to refuse work. Throws
// TwinModelError when no such setting exists, or the settings or the
// LANai's services do not fit their 32-bit registers.
profile::HardwareProfile twin_profile(const profile::HardwareProfile& base,
                                      const TwinServices& services, const TwinTransfers& transfers);

// Core cycles of `us` at the profile's LANai clock, rounded to nearest;
// TwinModelError past the 2^31 - 1 the firmware's waits hold.
std::uint32_t twin_cycles(const profile::HardwareProfile& profile, double us);

} // namespace lanai::bench
