// The emulator's extensions to the VIPL: the virtual clock, charged host
// computation and the node's place in the cluster, for host programs.
#include <cstdio>

#include "emulator/host/host_cpu.hpp"
#include "hostlib/driver/session.hpp"
#include "vipl_emu.h"

using namespace lanai::vipl;

uint64_t lanai_emu_now_ns(void) {
  Session* session = Session::active();
  if (!session)
    return 0;
  // The program's own clock, which may run ahead of the kernel's after a
  // poll (HostCpu::look).
  const lanai::host::HostCpu* host = lanai::host::HostCpu::current();
  const lanai::kernel::SimTime now = host ? host->time() : session->cluster().kernel().now();
  return static_cast<uint64_t>(now.ps() / 1000);
}

namespace {
// Longer than SimTime can hold is a program bug; cap it rather than wrap.
constexpr uint64_t longest_ns = 1'000'000'000'000'000; // about 11.6 days
} // namespace

void lanai_emu_compute_ns(uint64_t ns) {
  NodeDriver* driver = Session::current_driver();
  if (!driver || ns == 0)
    return;
  driver->host().compute(
      lanai::kernel::nanoseconds(static_cast<std::int64_t>(ns < longest_ns ? ns : longest_ns)));
  // Completions that came meanwhile are noticed as the computation ends.
  driver->deliver_notifications();
}

void lanai_emu_sleep_ns(uint64_t ns) {
  NodeDriver* driver = Session::current_driver();
  if (!driver || ns == 0)
    return;
  driver->host().sleep(
      lanai::kernel::nanoseconds(static_cast<std::int64_t>(ns < longest_ns ? ns : longest_ns)));
  driver->deliver_notifications();
}

uint64_t lanai_emu_clock_read_ns(void) {
  NodeDriver* driver = Session::current_driver();
  if (!driver)
    return 0;
  driver->host().compute(lanai::kernel::nanoseconds(driver->costs().clock_read_ns));
  return lanai_emu_now_ns();
}

void lanai_emu_exit(int status) {
  NodeDriver* driver = Session::current_driver();
  if (!driver)
    return;
  std::fflush(nullptr);
  driver->host().exit_program(status);
}

int lanai_emu_node(void) {
  NodeDriver* driver = Session::current_driver();
  return driver ? static_cast<int>(driver->node()) : -1;
}

int lanai_emu_nodes(void) {
  Session* session = Session::active();
  return session ? static_cast<int>(session->cluster().size()) : 0;
}

const char* lanai_emu_last_error(void) {
  NodeDriver* driver = Session::current_driver();
  return driver ? driver->last_error().c_str() : "";
}

uint64_t lanai_emu_seed(void) {
  Session* session = Session::active();
  return session ? session->cluster().seed() : 0;
}
