// Network receive DMA behaviour: arming (GO at the access time), taking a
// packet and stopping the link at once, the copy into SRAM after the
// receive set-up time, and the DONE hand-shake with the firmware.
#include "emulator/nic/net_recv_dma.hpp"

#include "lanai/via_abi.h"
#include "emulator/nic/card_trace.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <span>
#include <stdexcept>

#include "lanai/register_map.h"

namespace lanai::nic {

NetRecvDma::NetRecvDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
                       const profile::NicParams& params, iss::Cpu& cpu, wire::NetworkPort& port)
    : NetworkDma(kernel, stats, node, "nrdma", kernel::nanoseconds(params.nrdma_setup_ns), cpu,
                 port) {
  port_.set_receive_ready(false);
  port_.set_on_packet([this](wire::Packet p, bool ok) { on_packet(std::move(p), ok); });
}

NetRecvDma::~NetRecvDma() {
  port_.set_on_packet(nullptr);
  kernel_.cancel(event_);
}

iss::MmioStatus NetRecvDma::read(std::uint32_t address, std::uint32_t& value) {
  switch (address) {
  case LANAI_REG_NRDMA_RESULT:
    value = result_;
    break;
  case LANAI_REG_NRDMA_STATUS:
    value = status();
    break;
  case LANAI_REG_NRDMA_LENGTH:
    value = length_;
    break;
  case LANAI_REG_NRDMA_SOURCE:
    value = source_;
    break;
  case LANAI_REG_NRDMA_TIME_LO:
    value = static_cast<std::uint32_t>(arrived_cycle_);
    break;
  case LANAI_REG_NRDMA_TIME_HI:
    value = static_cast<std::uint32_t>(arrived_cycle_ >> 32);
    break;
  case LANAI_REG_NRDMA_SRAM:
  case LANAI_REG_NRDMA_CAPACITY:
  case LANAI_REG_NRDMA_ARM:
    value = 0;
    break; // write-only
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

iss::MmioStatus NetRecvDma::write(std::uint32_t address, kernel::SimTime when,
                                  std::uint32_t value) {
  switch (address) {
  case LANAI_REG_NRDMA_SRAM:
    sram_ = value;
    break;
  case LANAI_REG_NRDMA_CAPACITY:
    capacity_ = value;
    break;
  case LANAI_REG_NRDMA_ARM:
    result_ = arm(when);
    break;
  case LANAI_REG_NRDMA_STATUS:
    if ((value & LANAI_NRDMA_STATUS_DONE) && state_ == State::done) {
      state_ = State::idle;
      events_.publish(event_bits());
      flags_ = 0;
      ++activity_;
    }
    break;
  case LANAI_REG_NRDMA_RESULT:
  case LANAI_REG_NRDMA_LENGTH:
  case LANAI_REG_NRDMA_SOURCE:
  case LANAI_REG_NRDMA_TIME_LO:
  case LANAI_REG_NRDMA_TIME_HI:
    break; // read-only: writes ignored
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

std::uint32_t NetRecvDma::arm(kernel::SimTime when) {
  if (state_ != State::idle)
    return LANAI_NRDMA_BUSY;
  const std::uint32_t sram_bytes = cpu_.sram_bytes();
  if (sram_ > sram_bytes || capacity_ > sram_bytes - sram_)
    return LANAI_NRDMA_SRAM_RANGE;
  buffer_ = sram_;
  buffer_capacity_ = capacity_;
  state_ = State::armed;
  events_.publish(event_bits());
  ++activity_;
  // GO takes effect at the access time, not at the kernel's (earlier) now,
  // so a waiting packet is not taken before the firmware armed; after every
  // core's instruction of that time, as a change a core's access makes.
  event_ = kernel_.schedule_from_access(
      when, kernel::SimTime::zero(),
      [this] {
        event_ = {};
        port_.set_receive_ready(true);
      },
      "nic.nrdma_arm", reach_);
  return LANAI_NRDMA_ACCEPTED;
}

void NetRecvDma::on_packet(wire::Packet packet, bool checksum_ok) {
  // STOP at once: the next packet waits in the link until the next ARM.
  port_.set_receive_ready(false);
  if (state_ != State::armed)
    throw std::logic_error(
        fmt::format("lanai::nic: node {} received a packet while not armed", node_));
  state_ = State::receiving;
  events_.publish(event_bits());
  packet_ = std::move(packet);
  checksum_ok_ = checksum_ok;
  ++activity_;
  meter_.begin(kernel_.now());
  arrived_ = kernel_.now();
  event_ = kernel_.schedule_in(
      setup_, [this] { finish(); }, "nic.nrdma_done", reach_);
}

void NetRecvDma::finish() {
  event_ = {};
  const auto& payload = packet_->payload();
  const auto size = static_cast<std::uint32_t>(payload.size());
  const std::uint32_t copied = std::min(size, buffer_capacity_);
  cpu_.write_sram(buffer_, std::span<const std::uint8_t>(payload.data(), copied));
  flags_ = 0;
  if (!checksum_ok_)
    flags_ |= LANAI_NRDMA_STATUS_BAD_CRC;
  if (size > buffer_capacity_)
    flags_ |= LANAI_NRDMA_STATUS_TRUNCATED;
  length_ = size;
  source_ = packet_->source_node();
  arrived_cycle_ = cycle_at_ ? cycle_at_(arrived_) : 0;
  if (trace_ && trace_->on()) {
    auto label = [&](trace::Event& e) {
      e.bytes = copied;
      CardTrace::label_packet(std::span<const std::uint8_t>(payload.data(), copied), false, e);
    };
    trace_->record(trace::Track::link, "rx", arrived_, arrived_, 0xFFFFFFFFu, label);
    trace_->record(trace::Track::nrdma, "packet", arrived_, kernel_.now(), 0xFFFFFFFFu, label);
  }
  packet_.reset();
  state_ = State::done;
  events_.publish(event_bits());
  packets_.add();
  bytes_.add(copied);
  meter_.end(kernel_.now());
}

std::uint32_t NetRecvDma::status() const {
  switch (state_) {
  case State::armed:
    return LANAI_NRDMA_STATUS_ARMED;
  case State::done:
    return LANAI_NRDMA_STATUS_DONE | flags_;
  case State::idle:
  case State::receiving:
    return 0;
  }
  return 0;
}

} // namespace lanai::nic
