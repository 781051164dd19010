// Assembling one NIC: the LANai with its SRAM image, the register window
// and the devices behind it, the host's PCI view of the card, and run
// control with a readable account of how the firmware stopped.
#include "emulator/nic/card.hpp"

#include <fmt/format.h>
#include <limits>
#include <stdexcept>

#include "emulator/nic/card_registers.hpp"
#include "emulator/nic/countdown_timer.hpp"
#include "emulator/nic/doorbell_fifo.hpp"
#include "emulator/nic/host_dma.hpp"
#include "emulator/nic/net_recv_dma.hpp"
#include "emulator/nic/net_send_dma.hpp"

namespace lanai::nic {

Card::Card(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
           const profile::HardwareProfile& profile, std::uint32_t node, wire::NetworkPort& port,
           ProtectionTable& tpt, const loader::LinkedImage& firmware)
    : kernel_(kernel), node_(node), trace_(node), image_(firmware.layout_only()),
      system_(profile.lanai.sram_bytes),
      registers_(std::make_unique<CardRegisters>(kernel, system_, node)),
      cpu_(profile.lanai.sram_bytes, profile.lanai, registers_.get()),
      core_(kernel, cpu_, kernel::Frequency::megahertz(profile.lanai.clock_mhz)),
      doorbells_(std::make_unique<DoorbellFifo>(stats, node, profile.nic)),
      hdma_(std::make_unique<HostDma>(kernel, stats, node, profile.nic, cpu_, tpt)),
      nsdma_(std::make_unique<NetSendDma>(kernel, stats, node, profile, cpu_, port)),
      nrdma_(std::make_unique<NetRecvDma>(kernel, stats, node, profile.nic, cpu_, port)),
      hdma_nsdma_(stats, fmt::format("node{}.hdma_nsdma.overlap", node)),
      lanai_work_(stats, fmt::format("node{}.lanai", node)) {
  // Handles carry their node and packets their sender: a card wired to
  // another node's table or port would fail in confusing ways later.
  if (tpt.node() != node || port.node() != node)
    throw std::invalid_argument(fmt::format(
        "lanai::nic: card {} given the protection table of node {} and the port of node {}", node,
        tpt.node(), port.node()));
  registers_->attach({&cpu_, &core_, doorbells_.get(), hdma_.get(), nsdma_.get(), nrdma_.get(),
                      &trace_, &lanai_work_});
  // The devices' events concern this card alone: other cards' sleeping
  // cores stay where they are while they run (the host's may reach anything).
  const kernel::EventReach reach = kernel.new_processor_reach();
  core_.set_reach(reach);
  hdma_->set_reach(reach);
  nsdma_->set_reach(reach);
  nrdma_->set_reach(reach);
  port.set_reach(reach);
  hdma_->set_trace(&trace_);
  nsdma_->set_trace(&trace_);
  nrdma_->set_trace(&trace_);
  nrdma_->set_clock([this](kernel::SimTime t) { return core_.cycle_at(t); });
  hdma_->busy_meter().watch_overlap(&hdma_nsdma_, 0);
  nsdma_->busy_meter().watch_overlap(&hdma_nsdma_, 1);
  // The SRAM starts as zeros: the image's long runs of zeros (the bss, the
  // buffers and rings in .ldata) need not be written.
  for (const auto& piece : firmware.nonzero_pieces())
    cpu_.write_sram(piece.address, piece.bytes);
  cpu_.reset(image_.entry);
}

Card::~Card() {
  hdma_->busy_meter().watch_overlap(nullptr, 0);
  nsdma_->busy_meter().watch_overlap(nullptr, 1);
}

void Card::start() {
  if (core_.started())
    throw std::logic_error(fmt::format("lanai::nic: card {} started twice", node_));
  // Firmware runs until it stops by itself; the limit only keeps the
  // cycle arithmetic far from overflow.
  const std::uint64_t limit = cpu_.cycles() + std::numeric_limits<std::uint64_t>::max() / 2;
  core_.start(limit, [this](iss::StopReason reason) { stopped_ = reason; });
}

bool Card::ring_doorbell(const via_doorbell& doorbell) {
  core_.bring_up();
  // The queue notes the LANai cycle the write arrived at.
  const bool queued = doorbells_->ring(doorbell, core_.cycle_at(kernel_.now()));
  if (trace_.on()) {
    const bool recv = (doorbell.vi_queue & VIA_DOORBELL_RECV) != 0;
    trace_.record(trace::Track::doorbell, queued ? (recv ? "recv" : "send") : "dropped",
                  kernel_.now(), kernel_.now(), 0xFFFFFFFFu, [&](trace::Event& e) {
                    e.vi = VIA_DOORBELL_VI(doorbell.vi_queue);
                    e.host_address = doorbell.descriptor;
                  });
  }
  return queued;
}

bool Card::doorbell_room(std::uint32_t vi) const { return doorbells_->has_room(vi); }

void Card::write_sram(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  core_.bring_up();
  cpu_.write_sram(address, bytes);
}

void Card::write_sram_word(std::uint32_t address, std::uint32_t value) {
  core_.bring_up();
  cpu_.write_word(address, value);
}

std::uint32_t Card::read_sram_word(std::uint32_t address) {
  core_.bring_up();
  return cpu_.read_word(address);
}

std::uint32_t Card::symbol(std::string_view name) const {
  const auto address = image_.find_symbol(name);
  if (!address)
    throw std::out_of_range(fmt::format("no symbol '{}' in the firmware of node {}", name, node_));
  return *address;
}

bool Card::has_symbol(std::string_view name) const { return image_.find_symbol(name).has_value(); }

void Card::set_on_host_write(std::function<void(std::uint64_t, std::uint32_t)> fn) {
  hdma_->set_on_host_write(std::move(fn));
}

void Card::set_on_host_interrupt(std::function<void(std::uint32_t)> fn) {
  registers_->set_on_host_interrupt(std::move(fn));
}

// Stopped once the core's stop has happened in virtual time (its stop event
// has run): a core that runs ahead of the kernel may have halted or faulted
// at a cycle the run has not reached, and lockstep must see the same.
bool Card::firmware_running() const { return core_.started() && !stopped_; }

std::string Card::stop_report() const {
  switch (cpu_.state()) {
  case iss::StopReason::halted:
    return fmt::format("node {}: firmware halted with exit code {} at cycle {}\n", node_,
                       system_.exit_code().value_or(0), cpu_.cycles());
  case iss::StopReason::fault: {
    const auto where = image_.symbol_at(cpu_.fault().pc);
    return fmt::format("node {}: firmware stopped at cycle {}\n{}", node_, cpu_.cycles(),
                       iss::format_fault(cpu_.fault(), where.value_or("")));
  }
  case iss::StopReason::cycle_limit:
    if (stopped_)
      return fmt::format("node {}: firmware reached its cycle limit\n", node_);
    return {};
  }
  return {};
}

std::uint64_t Card::activity() const {
  return doorbells_->activity() + hdma_->activity() + nsdma_->activity() + nrdma_->activity() +
         registers_->activity();
}

bool Card::timer_running() const { return registers_->timer().running(); }

bool Card::devices_idle() const {
  return doorbells_->waiting() == 0 && hdma_->idle() && !nsdma_->busy() && nrdma_->idle();
}

const std::string& Card::console() const { return system_.console(); }

iss::MmioBus& Card::bus() { return *registers_; }

} // namespace lanai::nic
