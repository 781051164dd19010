// The descriptor fuzzer's cluster and connection steps.
#include "tests/fuzz/fuzz_cluster.hpp"

#include <map>
#include <vector>

namespace fuzz {

namespace {

struct Address {
  VIP_NET_ADDRESS header{};
  unsigned char room[8]{};
  explicit Address(int node) {
    header.HostAddressLen = 2;
    header.DiscriminatorLen = 1;
    unsigned char* bytes = header.HostAddress;
    bytes[0] = 0;
    bytes[1] = static_cast<unsigned char>(node);
    bytes[2] = 7;
  }
};

// Links each firmware once: every run of the fuzzer uses the same images.
const lanai::loader::LinkedImage& image_of(const std::string& firmware,
                                           const lanai::profile::HardwareProfile& profile) {
  static std::map<std::string, lanai::loader::LinkedImage> images;
  auto it = images.find(firmware);
  if (it == images.end())
    it = images
             .emplace(firmware, lanai::machine::link_program(
                                    lanai::loader::firmware_objects(firmware), profile))
             .first;
  return it->second;
}

} // namespace

bool Endpoint::connect_to(int peer) {
  Address local(0), remote(peer);
  VIP_VI_ATTRIBUTES theirs{};
  return VipConnectRequest(vi_, &local.header, &remote.header, 50, &theirs) == VIP_SUCCESS;
}

bool Endpoint::accept() {
  Address local(1), remote(0);
  VIP_VI_ATTRIBUTES theirs{};
  VIP_CONN_HANDLE conn = nullptr;
  if (VipConnectWait(nic_, &local.header, 50, &remote.header, &theirs, &conn) != VIP_SUCCESS)
    return false;
  return VipConnectAccept(conn, vi_) == VIP_SUCCESS;
}

void run_pair(const char* firmware, std::function<int()> poster, std::function<int()> receiver) {
  lanai::host::ClusterConfig config;
  config.profile = lanai::profile::default_profile();
  config.nodes = 2;
  config.firmware.assign(2, image_of(firmware, config.profile));
  config.time_limit = lanai::kernel::milliseconds(500);
  lanai::host::Cluster cluster(std::move(config));
  std::vector<std::function<int()>> programs{std::move(poster), std::move(receiver)};
  const lanai::host::RunReport report = lanai::vipl::run_programs(cluster, std::move(programs));
  if (report.outcome == lanai::host::RunOutcome::firmware_stop)
    __builtin_trap();
}

} // namespace fuzz
