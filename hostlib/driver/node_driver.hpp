// The user-level VIA driver of one node: the handle tables, the NIC's
// configuration block, which posted descriptors the NIC may still complete,
// and the asynchronous errors the NIC raised, turned into error callbacks.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "hostlib/driver/driver_objects.hpp"
#include "emulator/host/host_cpu.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/nic/card.hpp"
#include "emulator/nic/protection_table.hpp"
#include "hostlib/driver/nic_config.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::vipl {

class Session;
struct ConnectRequest;

class NodeDriver {
  // First, so that the handle tables below can report into it.
  long foreign_handle_ = -1;

public:
  // Installs the driver's hooks on the node's card.
  NodeDriver(Session& session, std::uint32_t node);
  // Gives the card back its default hooks.
  ~NodeDriver();
  NodeDriver(const NodeDriver&) = delete;
  NodeDriver& operator=(const NodeDriver&) = delete;

  std::uint32_t node() const { return node_; }
  std::size_t nodes() const;
  Session& session() { return session_; }
  host::HostCpu& host() { return host_; }
  nic::Card& card() { return card_; }
  nic::ProtectionTable& protection() { return protection_; }
  const profile::HardwareProfile& profile() const { return profile_; }
  const profile::HostParams& costs() const { return profile_.host; }
  const std::array<std::uint8_t, host_address_bytes>& address() const { return address_; }

  // --- Handles ------------------------------------------------------------
  Token mint(HandleKind kind);
  // The node whose handle a call of this node was given last, or -1; reset
  // by reading. Nodes share the program's globals, which is how they mix.
  long take_foreign_handle();
  HandleTable<NicObject> nics;
  HandleTable<PtagObject> ptags;
  HandleTable<ViObject> vis;
  HandleTable<CqObject> cqs;
  HandleTable<ConnObject> conns;
  std::map<VIP_MEM_HANDLE, MemoryRegion> regions;
  std::array<Token, VIA_MAX_VI> slots{}; // VI by NIC slot; 0 = free
  std::uint32_t next_ptag = 1;

  // --- The NIC's configuration block ---------------------------------------
  // Writes it on first use; false if the firmware has no VIA configuration.
  bool configure_nic();
  // VIA_FEATURE_* bits the loaded firmware declares (0 if it declares none).
  std::uint32_t firmware_features() const;
  NicConfig& config() { return *config_; }
  // Writes a VI's entry, charging the PCI writes first.
  void write_vi(const ViObject& vi, std::uint32_t state);
  // Rewrites only the VI's fragmentation words.
  void write_fragmentation(const ViObject& vi);

  // --- Time -------------------------------------------------------------------
  // Spends host CPU time (only from the node's own program), after what
  // its polls owe: everything after it happens at the program's own time.
  void charge(std::uint32_t ns);
  // The same for a call that only looks at what the card's events change
  // (Done on a work or completion queue): a poll that cannot succeed costs
  // its time without leaving the program (host::HostCpu::look).
  void charge_look(std::uint32_t ns);
  // VIP timeouts in milliseconds; VIP_INFINITE (and anything beyond about
  // eleven days) means no deadline.
  std::optional<kernel::SimTime> deadline_after(VIP_ULONG timeout_ms) const;
  // Blocks until ready() or the deadline, running error callbacks that come
  // in meanwhile. `what` names the wait in deadlock reports.
  bool block(const std::function<bool()>& ready, std::optional<kernel::SimTime> deadline,
             const std::string& what);

  // --- Posted descriptors ----------------------------------------------------
  void track(const ViObject& vi, bool receive, VIP_DESCRIPTOR* descriptor);
  bool tracked(const VIP_DESCRIPTOR* descriptor) const;
  void untrack(const VIP_DESCRIPTOR* descriptor);
  // Completes every descriptor of the VI the NIC has not completed, as
  // flushed (or with `error`, VIP_STATUS_* bits), in posting order.
  void flush(ViObject& vi, std::uint32_t error = VIP_STATUS_DESC_FLUSHED_ERROR);
  // Detaches a VI from its CQs and forgets its descriptors.
  void release(ViObject& vi);

  // --- Connections (called by the connection manager) -------------------------
  // Connects the requesting VI when the acceptance arrives; false if it
  // cannot (request cancelled meanwhile, or, with `refusal` set in the
  // request, the server's rate does not fit this node's incoming link).
  bool accept_delivered(ConnectRequest& request);
  // Peer-to-peer: this node's request `mine` met `theirs`; this side plays
  // the server: it checks the attributes and its incoming link, connects
  // its VI and accepts `theirs` (or rejects or refuses it, and `mine` with
  // it). The outcome on this side is then `theirs`'s.
  void peer_matched(const std::shared_ptr<ConnectRequest>& mine,
                    const std::shared_ptr<ConnectRequest>& theirs);
  // The peer VI disconnected after sending `messages`: once this VI has
  // received that many, it breaks (VIA: VIP_STATE_ERROR, its descriptors
  // flushed, VIP_ERROR_CONN_LOST to the error callback). False if it must
  // wait for more to arrive.
  bool remote_disconnect(std::uint32_t slot, std::uint32_t from_node, std::uint32_t from_slot,
                         std::uint64_t messages);
  // This side's half of VipDisconnect, once its posted sends have left:
  // idle, flushed, peer told (unless the peer went first).
  void disconnect(ViObject& vi);
  // Connects the VI to its peer, on the card too, with no message counted.
  void set_peer(ViObject& vi, std::uint32_t remote_node, std::uint32_t remote_slot);

  // --- QoS admission control ------------------------------------------------
  // On when the profile's host.admission_fraction is above 0. At
  // VipCreateVi (and VipSetViAttributes) a QoS VI's rate is reserved on this
  // node's outgoing link; at connection set-up each side reserves the
  // peer's rate on its own incoming link. A reservation that would take a
  // link past the fraction of its bandwidth is refused, with the reason
  // kept for lanai_emu_last_error().
  bool admission_on() const { return profile_.host.admission_fraction > 0.0; }
  // Reserves `rate` bytes/s on the incoming or outgoing link; false (and
  // the reason recorded) when it does not fit.
  bool reserve(bool incoming, std::uint64_t rate);
  void unreserve(bool incoming, std::uint64_t rate);
  std::uint64_t reserved(bool incoming) const { return incoming ? rx_reserved_ : tx_reserved_; }
  // Gives back what a VI holds on the incoming link (its connection ended).
  void release_incoming(ViObject& vi);
  // The reason of the last refused call on this node ("" if none).
  const std::string& last_error() const { return last_error_; }
  void set_last_error(std::string reason) { last_error_ = std::move(reason); }

  // --- Asynchronous errors ------------------------------------------------------
  void raise(const PendingError& error);
  // Runs the callbacks of errors raised so far (from the node's program).
  void deliver_errors();
  // Runs the completion notifications whose queue has its next completion
  // (VipSendNotify, VipRecvNotify, VipCQNotify), under the same rules.
  void deliver_notifications();
  bool notification_ready() const;
  // A notification was registered (VipSendNotify, ...): the queues are
  // looked at until a visit finds none armed, and not otherwise, so that
  // programs without handlers pay nothing per call.
  void notification_armed() { notifications_armed_ = true; }

private:
  static void fill_fragmentation(const ViObject& vi, via_vi_config& entry);
  struct Tracked {
    Token vi = 0;
    bool receive = false;
    bool reported = false; // its completion has gone to the CQ
  };

  void on_host_write(std::uint64_t address, std::uint32_t length);
  void on_interrupt(std::uint32_t word);
  // The NIC (or a flush) completed `descriptor`: counted, and queued on its CQ.
  void completed(Tracked& entry, const VIP_DESCRIPTOR& descriptor);
  void count_message(ViObject& vi, bool receive, const VIP_DESCRIPTOR& descriptor);
  Token first_nic() const;

  Session& session_;
  std::uint32_t node_;
  host::HostCpu& host_;
  nic::Card& card_;
  nic::ProtectionTable& protection_;
  const profile::HardwareProfile& profile_;
  std::array<std::uint8_t, host_address_bytes> address_{};
  std::uint64_t next_serial_ = 1;
  std::optional<NicConfig> config_;
  // Outstanding descriptors by the address of their Status word, where
  // the NIC's completion write lands.
  std::map<std::uint64_t, Tracked> tracked_;
  std::deque<PendingError> errors_;
  std::uint64_t tx_reserved_ = 0;
  std::uint64_t rx_reserved_ = 0;
  std::string last_error_;
  // Set while an error callback or a notification runs: calls the program
  // makes from inside it deliver nothing more.
  bool delivering_ = false;
  bool notifications_armed_ = false;
  struct Delivering {
    explicit Delivering(bool& flag) : flag_(flag) { flag_ = true; }
    ~Delivering() { flag_ = false; }
    Delivering(const Delivering&) = delete;
    Delivering& operator=(const Delivering&) = delete;
    bool& flag_;
  };
  // Callbacks run only on this host's program, and not inside another one.
  bool may_deliver() const { return !delivering_ && host::HostCpu::current() == &host_; }
};

// Status word address of a descriptor (the key the NIC's writes are
// matched against).
std::uint64_t status_address(const VIP_DESCRIPTOR* descriptor);
// The descriptor's Status as the NIC left it.
std::uint32_t read_status(const VIP_DESCRIPTOR* descriptor);

// Why a connection between a flow-controlled VI and one without flow
// control is refused (the last error of the node that refuses it).
std::string flow_control_mismatch(std::uint32_t node);

} // namespace lanai::vipl
