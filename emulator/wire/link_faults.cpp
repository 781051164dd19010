// Drawing a link's faults: a drop first, then, for a packet that goes on, a
// flipped bit anywhere in what the receiver checks (payload and trailer).
#include "emulator/wire/link_faults.hpp"

#include <cmath>
#include <string>

namespace lanai::wire {

namespace {

kernel::SimTime at_us(double us) {
  return kernel::SimTime::from_ps(static_cast<std::int64_t>(std::llround(us * 1e6)));
}

} // namespace

LinkFaults::LinkFaults(const profile::FaultParams& faults, std::string_view link_name,
                       kernel::StatsRegistry& stats)
    : drop_(faults.drop_probability), corrupt_(faults.corrupt_probability),
      random_(faults.seed, std::string("faults.") + std::string(link_name)),
      dropped_(stats.counter(std::string(link_name) + ".dropped")),
      corrupted_(stats.counter(std::string(link_name) + ".corrupted")) {
  for (const profile::LinkDownWindow& w : faults.link_down)
    if (w.link == link_name)
      down_.emplace_back(at_us(w.from_us), at_us(w.until_us));
}

bool LinkFaults::down_at(kernel::SimTime now) const {
  for (const auto& [from, until] : down_)
    if (now >= from && now < until)
      return true;
  return false;
}

LinkFaults::Fate LinkFaults::strike(kernel::SimTime now, Packet& packet) {
  // Draws are made only for the probabilities in force, so that a link
  // without random faults leaves its stream untouched.
  if (down_at(now) || (drop_ > 0.0 && random_.bernoulli(drop_))) {
    dropped_.add();
    return Fate::drop;
  }
  if (corrupt_ > 0.0 && random_.bernoulli(corrupt_)) {
    const auto checked =
        static_cast<std::uint32_t>(packet.payload().size() + Packet::trailer_bytes);
    const std::uint32_t offset = random_.uniform_u32(0, checked - 1);
    const auto bit = static_cast<std::uint8_t>(1u << random_.uniform_u32(0, 7));
    packet.corrupt_byte(offset, bit);
    corrupted_.add();
    return Fate::corrupt;
  }
  return Fate::pass;
}

} // namespace lanai::wire
