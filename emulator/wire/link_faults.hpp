// Line faults of one link, as the hardware profile's [faults] table asks:
// each packet entering the link is dropped, or has one bit flipped, with
// the profile's probabilities, drawn from a random stream of the link's own
// so that every link's faults are the same whatever else the run does; and
// while the link is down it drops everything.
#pragma once

#include "emulator/kernel/random_stream.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/packet.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace lanai::wire {

class LinkFaults {
public:
  enum class Fate { pass, drop, corrupt };

  // Stats: <link>.dropped and <link>.corrupted (packets).
  LinkFaults(const profile::FaultParams& faults, std::string_view link_name,
             kernel::StatsRegistry& stats);

  // What the link does to `packet` entering it at `now`; a corrupted
  // packet has had one bit of its payload or trailer flipped.
  Fate strike(kernel::SimTime now, Packet& packet);

private:
  bool down_at(kernel::SimTime now) const;

  double drop_;
  double corrupt_;
  std::vector<std::pair<kernel::SimTime, kernel::SimTime>> down_;
  kernel::RandomStream random_;
  kernel::Counter& dropped_;
  kernel::Counter& corrupted_;
};

} // namespace lanai::wire
