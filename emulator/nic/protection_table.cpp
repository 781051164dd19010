// The NIC's translation and protection table: registered host regions
// looked up by handle. A handle packs the owning node, a slot index and the
// slot's generation, so handles of other NICs and stale handles never match.
#include "emulator/nic/protection_table.hpp"

#include <stdexcept>

namespace lanai::nic {

namespace {

// Handle layout: bits 24-31 node, bits 16-23 slot generation, bits 0-15
// slot index + 1 (so no handle is ever 0).
constexpr std::uint32_t node_shift = 24;
constexpr std::uint32_t generation_shift = 16;
constexpr std::uint32_t index_mask = 0xFFFFu;

static_assert(ProtectionTable::max_regions < index_mask, "slot index must fit the handle");

std::uint32_t make_handle(std::uint32_t node, std::uint8_t generation, std::size_t index) {
  return (node & 0xFFu) << node_shift | std::uint32_t{generation} << generation_shift |
         static_cast<std::uint32_t>(index + 1);
}

} // namespace

std::string_view to_string(ProtectionCheck check) {
  switch (check) {
  case ProtectionCheck::ok:
    return "ok";
  case ProtectionCheck::bad_handle:
    return "bad_handle";
  case ProtectionCheck::wrong_tag:
    return "wrong_tag";
  case ProtectionCheck::out_of_bounds:
    return "out_of_bounds";
  case ProtectionCheck::remote_refused:
    return "remote_refused";
  }
  return "unknown";
}

std::uint32_t ProtectionTable::add(const Registration& region) {
  std::size_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else if (slots_.size() < max_regions) {
    index = slots_.size();
    slots_.emplace_back();
  } else {
    throw std::length_error("lanai::nic: protection table full");
  }
  Slot& slot = slots_[index];
  slot.region = region;
  slot.used = true;
  ++live_;
  return make_handle(node_, slot.generation, index);
}

bool ProtectionTable::remove(std::uint32_t handle) {
  if (!find(handle))
    return false;
  Slot& slot = slots_[(handle & index_mask) - 1];
  slot.used = false;
  slot.region = {};
  // A new generation makes every copy of the old handle stale.
  ++slot.generation;
  free_.push_back((handle & index_mask) - 1);
  --live_;
  return true;
}

bool ProtectionTable::change(std::uint32_t handle, std::uint32_t ptag, bool rdma_write,
                             bool rdma_read) {
  if (!find(handle))
    return false;
  Registration& region = slots_[(handle & index_mask) - 1].region;
  region.ptag = ptag;
  region.rdma_write = rdma_write;
  region.rdma_read = rdma_read;
  return true;
}

const Registration* ProtectionTable::find(std::uint32_t handle) const {
  const std::uint32_t index = handle & index_mask;
  if (index == 0 || index > slots_.size())
    return nullptr;
  const Slot& slot = slots_[index - 1];
  if (!slot.used || handle != make_handle(node_, slot.generation, index - 1))
    return nullptr;
  return &slot.region;
}

ProtectionCheck ProtectionTable::check(std::uint32_t handle, std::uint32_t ptag,
                                       std::uint64_t address, std::uint64_t length,
                                       Access access) const {
  const Registration* region = find(handle);
  if (!region)
    return ProtectionCheck::bad_handle;
  if (region->ptag != ptag)
    return ProtectionCheck::wrong_tag;
  // Written without address + length so that no sum can wrap around.
  if (address < region->address)
    return ProtectionCheck::out_of_bounds;
  const std::uint64_t offset = address - region->address;
  if (offset > region->length || length > region->length - offset)
    return ProtectionCheck::out_of_bounds;
  if (access == Access::remote_write && !region->rdma_write)
    return ProtectionCheck::remote_refused;
  if (access == Access::remote_read && !region->rdma_read)
    return ProtectionCheck::remote_refused;
  return ProtectionCheck::ok;
}

} // namespace lanai::nic
