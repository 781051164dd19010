// A sink takes the head at once, so the packet streams out at link rate.
#include "emulator/wire/sink.hpp"

#include "emulator/wire/worm.hpp"

namespace lanai::wire {

Sink::Sink(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name)
    : kernel_(kernel), name_(std::move(name)), packets_(stats.counter(name_ + ".packets")),
      bytes_(stats.counter(name_ + ".bytes")) {}

void Sink::on_head_arrived(Link&, std::shared_ptr<Worm> worm) {
  packets_.add();
  bytes_.add(worm->last_hop().wire_bytes);
  (void)finish_worm(worm, kernel_.now());
}

} // namespace lanai::wire
