// Network send DMA behaviour: validating and starting a send, the start-up
// delay before the head enters the port, and completion at the tail.
#include "emulator/nic/net_send_dma.hpp"

#include "lanai/via_abi.h"
#include "emulator/nic/card_trace.hpp"

#include <fmt/format.h>
#include <stdexcept>
#include <algorithm>
#include <vector>

#include "lanai/register_map.h"

namespace lanai::nic {

NetSendDma::NetSendDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
                       const profile::HardwareProfile& profile, iss::Cpu& cpu,
                       wire::NetworkPort& port)
    : NetworkDma(kernel, stats, node, "nsdma", kernel::nanoseconds(profile.nic.nsdma_setup_ns), cpu,
                 port),
      max_payload_(profile.wire.max_payload_bytes) {
  port_.set_on_send_complete([this](std::uint64_t id) { on_sent(id); });
}

NetSendDma::~NetSendDma() {
  port_.set_on_send_complete(nullptr);
  kernel_.cancel(hand_off_event_);
}

iss::MmioStatus NetSendDma::read(std::uint32_t address, std::uint32_t& value) {
  switch (address) {
  case LANAI_REG_NSDMA_RESULT:
    value = result_;
    break;
  case LANAI_REG_NSDMA_STATUS:
    value = (busy_ ? LANAI_NSDMA_STATUS_BUSY : 0u) | (completed_ & 0x00FFFFFFu) << 8;
    break;
  case LANAI_REG_NSDMA_SRAM:
  case LANAI_REG_NSDMA_LENGTH:
  case LANAI_REG_NSDMA_ROUTE_LEN:
  case LANAI_REG_NSDMA_START:
    value = 0;
    break; // write-only
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

iss::MmioStatus NetSendDma::write(std::uint32_t address, kernel::SimTime when,
                                  std::uint32_t value) {
  switch (address) {
  case LANAI_REG_NSDMA_SRAM:
    sram_ = value;
    break;
  case LANAI_REG_NSDMA_LENGTH:
    length_ = value;
    break;
  case LANAI_REG_NSDMA_ROUTE_LEN:
    route_len_ = value;
    break;
  case LANAI_REG_NSDMA_START:
    result_ = start(when);
    break;
  case LANAI_REG_NSDMA_RESULT:
  case LANAI_REG_NSDMA_STATUS:
    break; // read-only: writes ignored
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

std::uint32_t NetSendDma::start(kernel::SimTime when) {
  if (busy_)
    return LANAI_NSDMA_BUSY;
  if (route_len_ == 0)
    return LANAI_NSDMA_NO_ROUTE;
  const std::uint32_t sram_bytes = cpu_.sram_bytes();
  if (sram_ > sram_bytes || length_ > sram_bytes - sram_ || length_ < route_len_)
    return LANAI_NSDMA_SRAM_RANGE;
  const std::uint32_t payload_bytes = length_ - route_len_;
  if (payload_bytes > max_payload_)
    return LANAI_NSDMA_TOO_LARGE;

  const std::span<const std::uint8_t> route = cpu_.sram_view(sram_, route_len_);
  const std::span<const std::uint8_t> payload = cpu_.sram_view(sram_ + route_len_, payload_bytes);
  // Ids only label packets in traces; the node keeps them unique per fabric.
  packet_id_ = std::uint64_t{node_} << 40 | next_sequence_++;
  payload_bytes_ = payload_bytes;
  pending_.emplace(packet_id_, std::vector<std::uint8_t>(route.begin(), route.end()),
                   std::vector<std::uint8_t>(payload.begin(), payload.end()));
  busy_ = true;
  events_.publish(event_bits());
  ++activity_;
  meter_.begin(when);
  started_ = when;
  if (trace_ && trace_->on()) {
    tag_ = trace_->tag();
    stamp_ = trace_->stamp();
    head_.assign(pending_->payload().begin(),
                 pending_->payload().begin() +
                     std::min<std::size_t>(payload_bytes, VIA_PACKET_HEADER_BYTES));
  }
  hand_off_event_ = kernel_.schedule_from_access(
      when, setup_, [this] { hand_off(); }, "nic.nsdma_start", reach_);
  return LANAI_NSDMA_ACCEPTED;
}

void NetSendDma::hand_off() {
  hand_off_event_ = {};
  // Only this engine sends on the port, so it is free; should anyone else
  // hold it, the packet goes when theirs has left.
  if (port_.send_busy())
    return;
  const wire::SendResult r = port_.start_send(std::move(*pending_));
  pending_.reset();
  if (r != wire::SendResult::accepted)
    throw std::logic_error(fmt::format("lanai::nic: node {} port refused a checked packet: {}",
                                       node_, wire::to_string(r)));
  in_port_ = true;
  handed_off_ = kernel_.now();
}

void NetSendDma::on_sent(std::uint64_t packet_id) {
  if (!in_port_ || packet_id != packet_id_) {
    // Another sender's packet left the port: ours goes now if it waited.
    if (pending_ && !hand_off_event_.valid())
      hand_off();
    return;
  }
  in_port_ = false;
  bytes_.add(payload_bytes_);
  packets_.add();
  busy_ = false;
  events_.publish(event_bits());
  ++completed_;
  ++activity_;
  meter_.end(kernel_.now());
  if (trace_ && trace_->on()) {
    auto label = [&](trace::Event& e) {
      e.bytes = payload_bytes_;
      e.stamp = stamp_;
      CardTrace::label_packet(head_, true, e);
    };
    trace_->record(trace::Track::nsdma, "packet", started_, kernel_.now(), tag_, label);
    trace_->record(trace::Track::link, "tx", handed_off_, kernel_.now(), tag_, label);
  }
}

} // namespace lanai::nic
