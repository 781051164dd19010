// The NIC's translation and protection table: the host memory regions the
// driver registered, each with its protection tag. The host DMA engine
// checks handle, tag and bounds against it before moving any byte.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace lanai::nic {

struct Registration {
  std::uint64_t address = 0; // host virtual address of the first byte
  std::uint64_t length = 0;  // bytes
  std::uint32_t ptag = 0;    // protection tag the accessing VI must carry
  bool rdma_write = false;
  bool rdma_read = false;
};

enum class ProtectionCheck : std::uint8_t {
  ok,
  bad_handle,     // never issued by this NIC, or deregistered since
  wrong_tag,      // region carries another protection tag
  out_of_bounds,  // transfer not entirely inside the region
  remote_refused, // a remote write (RDMA write) or read (RDMA read) the region does not allow
};

// Who a transfer is for: the node's own VI, or a peer's RDMA write or read,
// which the region must also allow.
enum class Access : std::uint8_t { local, remote_write, remote_read };

std::string_view to_string(ProtectionCheck check);

class ProtectionTable {
public:
  // Handles carry the node so a handle from another NIC never matches.
  explicit ProtectionTable(std::uint32_t node) : node_(node) {}

  // Adds a region and returns its handle (never 0). Throws
  // std::length_error when all slots are in use.
  std::uint32_t add(const Registration& region);
  // Removes a region; false if the handle is not live.
  bool remove(std::uint32_t handle);
  // Gives a live region another protection tag and RDMA permissions (its
  // extent and handle stay); false if the handle is not live.
  bool change(std::uint32_t handle, std::uint32_t ptag, bool rdma_write, bool rdma_read);
  // The live region of a handle, or nullptr.
  const Registration* find(std::uint32_t handle) const;
  // `access`: a transfer on a peer's behalf (RDMA write or read) needs the
  // region to allow it too, checked after everything else.
  ProtectionCheck check(std::uint32_t handle, std::uint32_t ptag, std::uint64_t address,
                        std::uint64_t length, Access access = Access::local) const;
  std::size_t live() const { return live_; }
  std::uint32_t node() const { return node_; }

  static constexpr std::size_t max_regions = 4096;

private:
  struct Slot {
    Registration region;
    std::uint8_t generation = 0;
    bool used = false;
  };
  std::uint32_t node_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::size_t live_ = 0;
};

} // namespace lanai::nic
