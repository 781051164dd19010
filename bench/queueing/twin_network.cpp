#include "bench/queueing/twin_network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "emulator/kernel/sim_time.hpp"
#include "emulator/wire/packet.hpp"

namespace lanai::bench {

namespace {

using models::QnaNetwork;

// The visit a job goes to after `from`, or nullopt when it leaves.
std::optional<std::size_t> next_visit(const QnaNetwork& n, std::size_t from) {
  std::optional<std::size_t> next;
  for (const auto& r : n.routes) {
    if (r.from != from)
      continue;
    if (next || std::abs(r.probability - 1.0) > 1e-12)
      throw TwinModelError(fmt::format(
          "visit {}: the twin executes one path, so each visit has at most one route, taken "
          "with probability 1",
          n.visits[from].name()));
    next = r.to;
  }
  return next;
}

// A setup time as the profile holds it: whole nanoseconds in 32 bits.
std::uint32_t setup_ns_of(double ns, std::string_view device) {
  const double rounded = std::round(ns);
  if (!(rounded <= static_cast<double>(std::numeric_limits<std::uint32_t>::max())))
    throw TwinModelError(fmt::format(
        "{}: the services need a setup of {:.0f} ns, more than the profile's 32-bit setting "
        "holds ({} ns); choose shorter services",
        device, rounded, std::numeric_limits<std::uint32_t>::max()));
  return static_cast<std::uint32_t>(rounded);
}

} // namespace

TwinServices twin_services(const QnaNetwork& n) {
  for (const auto& s : n.stations) {
    if (s.name != "lanai" && s.name != "hdma" && s.name != "nsdma")
      throw TwinModelError(
          fmt::format("station {}: the twin has only the stations lanai, hdma and nsdma", s.name));
    if (s.servers != 1)
      throw TwinModelError(
          fmt::format("station {}: the card has one of each; servers must be 1", s.name));
  }
  if (n.arrivals.size() != 1 || n.visits[n.arrivals[0].visit].name() != "lanai.doorbell")
    throw TwinModelError("arrivals: the twin's host rings doorbells: one arrival stream, at "
                         "lanai.doorbell");
  if (std::abs(n.arrivals[0].scov - 1.0) > 1e-12)
    throw TwinModelError(fmt::format("arrival at lanai.doorbell: the twin's doorbells are "
                                     "Poisson (scov 1), not scov {}",
                                     n.arrivals[0].scov));
  for (const auto& v : n.visits)
    if (v.scov != 0.0)
      throw TwinModelError(fmt::format("service {}: the twin's services are deterministic "
                                       "(scov 0), not scov {}",
                                       v.name(), v.scov));

  static constexpr const char* kPath[] = {"lanai.doorbell",  "hdma.doorbell", "lanai.descriptor",
                                          "hdma.descriptor", "lanai.data",    "nsdma.data"};
  double means[6] = {};
  std::size_t at = n.arrivals[0].visit;
  std::size_t length = 0;
  for (;;) {
    if (length == 6)
      throw TwinModelError(
          fmt::format("route from {}: the path goes on past nsdma.data", n.visits[at].name()));
    if (n.visits[at].name() != kPath[length])
      throw TwinModelError(fmt::format(
          "route to {}: the twin executes lanai.doorbell -> hdma.doorbell -> lanai.descriptor "
          "-> hdma.descriptor -> lanai.data -> nsdma.data -> out (or lanai.doorbell -> out); "
          "expected {} here",
          n.visits[at].name(), kPath[length]));
    means[length++] = n.visits[at].mean_us;
    const auto next = next_visit(n, at);
    if (!next)
      break;
    at = *next;
  }
  if (length != 1 && length != 6)
    throw TwinModelError(fmt::format("route from {}: the path stops after {} visits; the twin "
                                     "runs either the whole send path or lanai.doorbell alone",
                                     kPath[length - 1], length));
  if (n.visits.size() != length)
    throw TwinModelError("visits: every service must lie on the path from lanai.doorbell");
  for (std::size_t i = 0; i < length; ++i)
    if (!(means[i] > 0))
      throw TwinModelError(fmt::format("service {}: the twin needs a mean > 0", kPath[i]));

  TwinServices s;
  s.lanai_only = length == 1;
  s.lanai_doorbell_us = means[0];
  s.hdma_descriptor_us = means[1];
  s.lanai_descriptor_us = means[2];
  s.hdma_data_us = means[3];
  s.lanai_data_us = means[4];
  s.nsdma_us = means[5];
  return s;
}

profile::HardwareProfile twin_profile(const profile::HardwareProfile& base, const TwinServices& s,
                                      const TwinTransfers& t) {
  profile::HardwareProfile p = base;
  p.name = base.name + "+twin";
  // Deep enough that nothing is ever refused: the queues are the model's.
  p.nic.doorbell_entries = 65535;
  p.nic.hdma_queue_entries = 4096;
  p.nic.per_vi_doorbells = 0;
  if (s.lanai_only)
    return p;

  if (t.data_bytes <= t.descriptor_bytes)
    throw TwinModelError(fmt::format("data_bytes ({}) must exceed descriptor_bytes ({})",
                                     t.data_bytes, t.descriptor_bytes));
  if (!(s.hdma_data_us > s.hdma_descriptor_us))
    throw TwinModelError(fmt::format(
        "service hdma.descriptor ({} us) must be longer than hdma.doorbell ({} us): the host "
        "DMA moves more bytes for the data than for the descriptor",
        s.hdma_data_us, s.hdma_descriptor_us));
  const double bytes_per_us =
      (t.data_bytes - t.descriptor_bytes) / (s.hdma_data_us - s.hdma_descriptor_us);
  const double setup_ns = (s.hdma_descriptor_us - t.descriptor_bytes / bytes_per_us) * 1e3;
  if (setup_ns < 0)
    throw TwinModelError(fmt::format(
        "host DMA: {} us for {} bytes and {} us for {} bytes need a negative setup time; "
        "choose other transfer sizes",
        s.hdma_descriptor_us, t.descriptor_bytes, s.hdma_data_us, t.data_bytes));
  p.nic.pci_mbytes_per_s = bytes_per_us; // bytes per us is MB/s
  p.nic.hdma_setup_ns = setup_ns_of(setup_ns, "host DMA");

  const auto link = kernel::Bandwidth::megabytes_per_second(p.wire.link_mbytes_per_s);
  // The port is busy until the packet's tail has left: route byte, data
  // and the checksum trailer.
  const double wire_ns =
      link.transfer_time(t.data_bytes + 1u + wire::Packet::trailer_bytes).as_ns();
  const double nsdma_setup_ns = s.nsdma_us * 1e3 - wire_ns;
  if (nsdma_setup_ns < 0)
    throw TwinModelError(fmt::format(
        "send DMA: {} bytes take {:.3f} us on a {} MB/s link, longer than nsdma.data ({} us); "
        "choose a smaller data_bytes",
        t.data_bytes + 1u, wire_ns / 1e3, p.wire.link_mbytes_per_s, s.nsdma_us));
  p.nic.nsdma_setup_ns = setup_ns_of(nsdma_setup_ns, "send DMA");
  p.wire.max_payload_bytes = std::max(p.wire.max_payload_bytes, t.data_bytes + 64u);
  // The LANai's services must fit the firmware's waits.
  for (const double us : {s.lanai_doorbell_us, s.lanai_descriptor_us, s.lanai_data_us})
    (void)twin_cycles(p, us);
  return p;
}

std::uint32_t twin_cycles(const profile::HardwareProfile& profile, double us) {
  const double cycles = std::round(us * profile.lanai.clock_mhz);
  // The firmware waits out a service on signed 32-bit cycle differences.
  if (!(cycles >= 0 && cycles <= static_cast<double>(std::numeric_limits<std::int32_t>::max())))
    throw TwinModelError(fmt::format(
        "a LANai service of {} us is {:.0f} cycles at {} MHz, more than the firmware's waits "
        "hold ({} cycles); choose shorter services",
        us, cycles, profile.lanai.clock_mhz, std::numeric_limits<std::int32_t>::max()));
  return static_cast<std::uint32_t>(cycles);
}

} // namespace lanai::bench
