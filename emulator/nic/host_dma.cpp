// Host DMA behaviour: staging and committing requests (with the insertion
// race of the real queue), serving them one at a time on the shared PCI
// bus, protection checks, byte movement and the completion FIFO.
#include "emulator/nic/host_dma.hpp"

#include "emulator/nic/card_trace.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <span>

#include "lanai/register_map.h"

namespace lanai::nic {

namespace {

std::uint32_t status_of(ProtectionCheck check) {
  switch (check) {
  case ProtectionCheck::ok:
    return LANAI_HDMA_OK;
  case ProtectionCheck::bad_handle:
    return LANAI_HDMA_PROT_HANDLE;
  case ProtectionCheck::wrong_tag:
    return LANAI_HDMA_PROT_TAG;
  case ProtectionCheck::out_of_bounds:
    return LANAI_HDMA_PROT_BOUNDS;
  case ProtectionCheck::remote_refused:
    return LANAI_HDMA_PROT_REMOTE;
  }
  return LANAI_HDMA_PROT_HANDLE;
}

// Directions 0 and 2 (a remote read) bring host memory to SRAM.
bool to_sram(std::uint32_t direction) { return (direction & 1u) == 0u; }

// Host memory is this process's memory: registered regions are real buffers.
std::uint8_t* host_pointer(std::uint64_t address) {
  return reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(address));
}

} // namespace

HostDma::HostDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
                 const profile::NicParams& params, iss::Cpu& cpu, const ProtectionTable& tpt)
    : kernel_(kernel), cpu_(cpu), tpt_(tpt), capacity_(params.hdma_queue_entries),
      race_entries_(params.hdma_race_entries), setup_(kernel::nanoseconds(params.hdma_setup_ns)),
      pci_(kernel::Bandwidth::megabytes_per_second(params.pci_mbytes_per_s)),
      busy_(stats, fmt::format("node{}.hdma", node)),
      requests_(stats.counter(fmt::format("node{}.hdma.requests", node))),
      bytes_to_sram_(stats.counter(fmt::format("node{}.hdma.bytes_to_sram", node))),
      bytes_to_host_(stats.counter(fmt::format("node{}.hdma.bytes_to_host", node))),
      protection_errors_(stats.counter(fmt::format("node{}.hdma.protection_errors", node))) {}

HostDma::~HostDma() { kernel_.cancel(completion_event_); }

kernel::SimTime HostDma::service_time(std::uint32_t bytes) const {
  return setup_ + pci_.transfer_time(bytes);
}

iss::MmioStatus HostDma::read(std::uint32_t address, std::uint32_t& value) {
  switch (address) {
  case LANAI_REG_HDMA_RESULT:
    value = result_;
    break;
  case LANAI_REG_HDMA_QUEUED:
    value = static_cast<std::uint32_t>(queued());
    break;
  case LANAI_REG_HDMA_DONE_POP:
    value = pop_completion();
    break;
  case LANAI_REG_HDMA_HOST_LO:
  case LANAI_REG_HDMA_HOST_HI:
  case LANAI_REG_HDMA_HANDLE:
  case LANAI_REG_HDMA_PTAG:
  case LANAI_REG_HDMA_SRAM:
  case LANAI_REG_HDMA_LENGTH:
  case LANAI_REG_HDMA_APPEND:
  case LANAI_REG_HDMA_INSERT:
    value = 0;
    break; // write-only
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

iss::MmioStatus HostDma::write(std::uint32_t address, kernel::SimTime when, std::uint32_t value) {
  switch (address) {
  case LANAI_REG_HDMA_HOST_LO:
  case LANAI_REG_HDMA_HOST_HI:
  case LANAI_REG_HDMA_HANDLE:
  case LANAI_REG_HDMA_PTAG:
  case LANAI_REG_HDMA_SRAM:
  case LANAI_REG_HDMA_LENGTH:
    *staging_word(address) = value;
    break;
  case LANAI_REG_HDMA_APPEND:
    result_ = commit(value & 3u, static_cast<std::uint32_t>(done_.size() + queued()), when);
    break;
  case LANAI_REG_HDMA_INSERT:
    result_ = commit(value & 3u, (value >> LANAI_HDMA_POSITION_SHIFT) & 0xFFFFu, when);
    break;
  case LANAI_REG_HDMA_RESULT:
  case LANAI_REG_HDMA_QUEUED:
  case LANAI_REG_HDMA_DONE_POP:
    break; // read-only: writes ignored
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

std::uint32_t HostDma::commit(std::uint32_t direction, std::uint32_t position,
                              kernel::SimTime when) {
  const std::uint32_t sram_bytes = cpu_.sram_bytes();
  if (staged_[staged_sram] > sram_bytes ||
      staged_[staged_length] > sram_bytes - staged_[staged_sram])
    return LANAI_HDMA_REFUSED_SRAM_RANGE;
  const std::size_t size = queued();
  if (size >= capacity_)
    return LANAI_HDMA_REFUSED_FULL;

  // Positions count from the oldest request whose completion has not been
  // popped, so that a request finishing while the firmware decides where to
  // put the next one moves nothing: the firmware's picture of the queue is
  // every request it has not yet seen complete. Completed requests and the
  // one in service stay where they are, and the engine may already have
  // taken the first K waiting entries (nic.hdma_race_entries), so an
  // insertion aimed among any of them lands just behind them.
  const std::size_t finished = done_.size();
  const std::size_t aimed = position > finished ? position - finished : 0;
  const std::size_t taken =
      std::min<std::size_t>(std::max<std::size_t>(race_entries_, in_service_ ? 1 : 0), size);
  const std::size_t landed = std::min<std::size_t>(std::max<std::size_t>(aimed, taken), size);

  HostDmaRequest request;
  request.host = std::uint64_t{staged_[staged_host_hi]} << 32 | staged_[staged_host_lo];
  request.handle = staged_[staged_handle];
  request.ptag = staged_[staged_ptag];
  request.sram = staged_[staged_sram];
  request.length = staged_[staged_length];
  request.direction = direction;
  request.id = next_id_;
  request.programmed = when;
  if (trace_) {
    request.tag = trace_->tag();
    request.stamp = trace_->stamp();
  }
  if (++next_id_ == 0)
    next_id_ = 1; // id 0 never names a request
  // The request in service is position 0 of the queue but no longer in
  // `waiting_`; without a race (K = 0) position 0 is simply served next.
  const std::size_t index = in_service_ ? (landed == 0 ? 0 : landed - 1) : landed;
  waiting_.insert(waiting_.begin() + static_cast<std::ptrdiff_t>(index), request);
  requests_.add();
  ++activity_;
  if (!in_service_)
    start_service(when);
  events_.publish(event_bits());
  return LANAI_HDMA_ACCEPTED | static_cast<std::uint32_t>((finished + landed) & 0x0FFFu) << 16 |
         request.id;
}

std::uint32_t HostDma::check(const HostDmaRequest& r) const {
  const Access access = r.direction == LANAI_HDMA_TO_HOST_REMOTE   ? Access::remote_write
                        : r.direction == LANAI_HDMA_TO_SRAM_REMOTE ? Access::remote_read
                                                                   : Access::local;
  return status_of(tpt_.check(r.handle, r.ptag, r.host, r.length, access));
}

void HostDma::start_service(kernel::SimTime when) {
  in_service_ = waiting_.front();
  waiting_.pop_front();
  const HostDmaRequest& r = *in_service_;
  // Checked when the engine takes the request; a refused one costs the
  // bus setup only.
  in_service_status_ = check(r);
  const kernel::SimTime duration =
      in_service_status_ == LANAI_HDMA_OK ? service_time(r.length) : setup_;
  busy_.begin(when);
  service_began_ = when;
  completion_event_ = kernel_.schedule_from_access(
      when, duration, [this] { finish_service(); }, "nic.hdma_done", reach_);
}

void HostDma::finish_service() {
  const HostDmaRequest request = *in_service_;
  in_service_.reset();
  completion_event_ = {};
  std::uint32_t status = in_service_status_;
  // A region deregistered while its transfer was under way may no longer
  // be memory at all: check again rather than touch it.
  if (status == LANAI_HDMA_OK)
    status = check(request);
  if (status == LANAI_HDMA_OK)
    move_bytes(request);
  else
    protection_errors_.add();
  if (trace_ && trace_->on())
    trace_->record(trace::Track::hdma, to_sram(request.direction) ? "to_sram" : "to_host",
                   service_began_, kernel_.now(), request.tag, [&](trace::Event& e) {
                     e.programmed = request.programmed;
                     e.stamp = request.stamp;
                     e.host_address = request.host;
                     e.bytes = request.length;
                   });
  done_.push_back(LANAI_HDMA_DONE_VALID | status << 16 | request.id);
  ++activity_;
  if (!waiting_.empty())
    start_service(kernel_.now());
  else
    busy_.end(kernel_.now());
  events_.publish(event_bits());
}

void HostDma::move_bytes(const HostDmaRequest& r) {
  if (r.length == 0)
    return;
  std::uint8_t* host = host_pointer(r.host);
  if (to_sram(r.direction)) {
    cpu_.write_sram(r.sram, std::span<const std::uint8_t>(host, r.length));
    bytes_to_sram_.add(r.length);
  } else {
    cpu_.read_sram(r.sram, std::span<std::uint8_t>(host, r.length));
    bytes_to_host_.add(r.length);
    if (on_host_write_)
      on_host_write_(r.host, r.length);
  }
}

std::uint32_t HostDma::pop_completion() {
  if (done_.empty())
    return 0;
  const std::uint32_t word = done_.front();
  done_.pop_front();
  events_.publish(event_bits());
  ++activity_;
  return word;
}

} // namespace lanai::nic
