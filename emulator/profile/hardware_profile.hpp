// The hardware profile: every timing and size of the card, in one struct
// with defaults, and a table that describes each parameter (key, unit,
// one-line meaning) so the CLI, TOML loading and --dump-config render them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::profile {

class ProfileError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Cycles the LANai charges per instruction class; the core takes them as
// they are (iss::CycleCosts).
struct InstructionCycles {
  std::uint32_t alu_cycles = 1;
  std::uint32_t load_cycles = 1;
  std::uint32_t store_cycles = 1;
  std::uint32_t branch_taken_cycles = 2;
  std::uint32_t branch_untaken_cycles = 1;
  std::uint32_t mmio_cycles = 3;
  std::uint32_t load_use_stall_cycles = 1;
};

// The LANai processor and its SRAM.
struct LanaiParams : InstructionCycles {
  double clock_mhz = 66.0;
  std::uint32_t sram_bytes = 2u << 20;
};

// The Myrinet fabric: links and cut-through crossbar switches. The latency
// default stands for a few metres of cable (about 5 ns/m) plus the link
// interface's encode and decode stages on either end.
struct WireParams {
  double link_mbytes_per_s = 160.0; // 1.28 Gb/s each way
  std::uint32_t link_latency_ns = 50;
  std::uint32_t switch_latency_ns = 150;   // routing fall-through of a switch
  std::uint32_t max_payload_bytes = 65600; // a 64 KiB message plus its header
};

// The card's devices: doorbell FIFO, host DMA with its request queue and
// the network send and receive DMA engines.
struct NicParams {
  std::uint32_t doorbell_entries = 64;   // doorbell FIFO (or per-VI queue) capacity
  std::uint32_t per_vi_doorbells = 0;    // 0: one merged FIFO (LANai 7); 1: per-VI queues
  std::uint32_t hdma_queue_entries = 32; // host DMA hardware request queue
  std::uint32_t hdma_race_entries = 1;   // head entries the engine may already have taken
  std::uint32_t hdma_setup_ns = 1000;    // per-request setup on the PCI bus
  double pci_mbytes_per_s = 130.0;       // host DMA data rate, both directions share it
  std::uint32_t nsdma_setup_ns = 200;    // network send DMA start-up
  std::uint32_t nrdma_setup_ns = 200;    // network receive DMA: tail to SRAM done
  // Firmware that retransmits (SVIA) resends a reliable VI's packets not
  // acknowledged within the timeout, and breaks the VI after this many
  // resends in a row with no answer.
  std::uint32_t retransmit_timeout_us = 2000; // wait for an acknowledgement before resending
  std::uint32_t retry_limit = 8;              // unanswered resends before the VI breaks
};

// The host: what each library call costs its CPU, and the PCI writes it
// issues to the card.
struct HostParams {
  std::uint32_t call_ns = 300;      // entry cost of any VIPL call
  std::uint32_t post_ns = 500;      // building and checking a posted descriptor
  std::uint32_t pio_write_ns = 250; // one posted PCI write to the card (doorbell)
  std::uint32_t poll_ns = 100;      // one look at a descriptor's status word
  std::uint32_t clock_read_ns = 25; // one clock read by a launched program
  std::uint32_t register_ns = 5000; // registering or deregistering a memory region
  std::uint32_t connect_ns = 20000; // one connection-manager exchange between hosts
  // Admission control of QoS VIs by the driver: 0 leaves it off (the
  // original design); otherwise the reserved rates on a link may not exceed
  // this fraction of its bandwidth.
  double admission_fraction = 0.0;
};

// A window of virtual time during which one link drops every packet.
struct LinkDownWindow {
  std::string link;      // statistics name, e.g. "wire.node0.tx"
  double from_us = 0.0;  // from this time (inclusive)
  double until_us = 0.0; // to this time (exclusive)
};

// Faults of the fabric: every packet entering a link is dropped, or has one
// bit flipped, with these probabilities, drawn from a random stream per
// link seeded by `seed`; and named links go down for windows of time.
// Everything off by default.
struct FaultParams {
  double drop_probability = 0.0;    // per packet per link
  double corrupt_probability = 0.0; // per packet per link, of those not dropped
  std::uint32_t seed = 1;
  std::vector<LinkDownWindow> link_down;

  bool any() const {
    return drop_probability > 0.0 || corrupt_probability > 0.0 || !link_down.empty();
  }
};

struct HardwareProfile {
  std::string name = "default";
  LanaiParams lanai;
  WireParams wire;
  NicParams nic;
  HostParams host;
  FaultParams faults;
};

// One documented parameter: its key, unit, meaning, valid range and where
// it lives in HardwareProfile. Exactly one of `real` and `integer` is set.
struct ParamInfo {
  std::string_view key;         // dotted TOML key, e.g. "lanai.clock_mhz"
  std::string_view unit;        // "MHz", "bytes", "cycles"
  std::string_view description; // one line
  double* (*real)(HardwareProfile&) = nullptr;
  std::uint32_t* (*integer)(HardwareProfile&) = nullptr;
  double min = 0.0;              // integers: inclusive; reals: exclusive
  double max = 0.0;              // inclusive
  std::uint32_t multiple_of = 1; // integers only
  bool zero_means_off = false;   // reals: 0 is valid too, outside the range
  bool inclusive_min = false;    // reals: the minimum itself is valid too

  double real_value(const HardwareProfile& p) const {
    return *real(const_cast<HardwareProfile&>(p));
  }
  std::uint32_t integer_value(const HardwareProfile& p) const {
    return *integer(const_cast<HardwareProfile&>(p));
  }
};

const std::vector<ParamInfo>& parameter_table();

// Profile with the defaults above.
HardwareProfile default_profile();

// Loads a TOML profile on top of the defaults. Unknown keys, wrong types and
// out-of-range values raise ProfileError naming the file and the key.
HardwareProfile load_profile(const std::filesystem::path& file);
HardwareProfile parse_profile(std::string_view toml_text, std::string_view source_name);

// Resolved profile as commented TOML, loadable again with load_profile.
std::string dump_profile(const HardwareProfile& profile);

} // namespace lanai::profile
