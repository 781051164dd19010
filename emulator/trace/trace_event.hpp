// One thing a card did: a span of device work (begin < end) or an instant
// (begin == end), on one track of one node, labelled with the VI and the
// message it served when known.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "emulator/kernel/sim_time.hpp"

namespace lanai::trace {

// The tracks of a node, one per device, in display order.
enum class Track : std::uint8_t { lanai, doorbell, hdma, nsdma, nrdma, link };
std::string_view to_string(Track track);

inline constexpr std::uint32_t no_label = 0xFFFFFFFFu;

struct Event {
  kernel::SimTime begin{};
  kernel::SimTime end{};
  std::uint32_t node = 0;
  Track track = Track::lanai;
  // What happened: a firmware state name on the LANai track; "send" or
  // "recv" for doorbells; "to_sram" or "to_host" for host DMA; "packet"
  // for the network DMAs; "tx" or "rx" on the link.
  std::string name;
  std::uint32_t vi = no_label;  // VI number the work belongs to
  std::uint32_t msg = no_label; // message number within the VI
  // Host DMA: when the firmware programmed the request (queued it), the
  // host address and the bytes moved. Doorbells: the descriptor's address.
  kernel::SimTime programmed{};
  std::uint64_t host_address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t peer = no_label; // network DMAs and link: the other node
  // Host DMA and network send DMA: the scheduler's stamp the firmware gave
  // the work (LANAI_REG_TRACE_STAMP_*), 0 if none.
  std::uint64_t stamp = 0;
};

} // namespace lanai::trace
