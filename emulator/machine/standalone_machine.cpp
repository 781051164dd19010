// Loading an image into the LANai and running it to completion.
#include "emulator/machine/standalone_machine.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace lanai::machine {

StandaloneMachine::StandaloneMachine(const profile::HardwareProfile& profile,
                                     const loader::LinkedImage& image)
    : image_(image.layout_only()), clock_mhz_(profile.lanai.clock_mhz),
      system_(profile.lanai.sram_bytes), cpu_(profile.lanai.sram_bytes, profile.lanai, &system_) {
  // The SRAM starts as zeros: the image's long runs of zeros (the bss, the
  // buffers and rings in .ldata) need not be written.
  for (const auto& piece : image.nonzero_pieces())
    cpu_.write_sram(piece.address, piece.bytes);
  cpu_.reset(image_.entry);
}

ExecResult StandaloneMachine::run(std::uint64_t max_cycles) { return run(max_cycles, nullptr); }

ExecResult StandaloneMachine::run(std::uint64_t max_cycles, ClockedCore::StepObserver observer) {
  ClockedCore core(kernel_, cpu_, kernel::Frequency::megahertz(clock_mhz_));
  core.set_step_observer(std::move(observer));
  iss::StopReason reason = iss::StopReason::cycle_limit;
  const std::uint64_t events_before = kernel_.events_executed();
  core.start(max_cycles, [&](iss::StopReason r) {
    reason = r;
    kernel_.stop();
  });
  kernel_.run();
  ExecResult r;
  r.end_time_ps = kernel_.now().ps();
  r.kernel_events = kernel_.events_executed() - events_before;
  r.instructions = cpu_.instructions();
  r.cycles = cpu_.cycles();
  switch (reason) {
  case iss::StopReason::halted:
    r.stop = ExecStop::exited;
    r.exit_code = system_.exit_code().value_or(0);
    break;
  case iss::StopReason::fault: {
    r.stop = ExecStop::fault;
    const auto where = image_.symbol_at(cpu_.fault().pc);
    r.fault_report = iss::format_fault(cpu_.fault(), where.value_or(""));
    break;
  }
  case iss::StopReason::cycle_limit:
    r.stop = ExecStop::cycle_limit;
    break;
  }
  return r;
}

std::uint32_t StandaloneMachine::symbol(std::string_view name) const {
  const auto addr = image_.find_symbol(name);
  if (!addr)
    throw std::out_of_range(fmt::format("no symbol '{}' in the firmware image", name));
  return *addr;
}

std::uint64_t StandaloneMachine::read_u64(std::uint32_t addr) const {
  return std::uint64_t(cpu_.read_word(addr)) << 32 | cpu_.read_word(addr + 4);
}

void StandaloneMachine::write_u64(std::uint32_t addr, std::uint64_t value) {
  cpu_.write_word(addr, static_cast<std::uint32_t>(value >> 32));
  cpu_.write_word(addr + 4, static_cast<std::uint32_t>(value));
}

loader::LinkedImage link_program(std::span<const std::filesystem::path> objects,
                                 const profile::HardwareProfile& profile, bool with_runtime) {
  std::vector<loader::ObjectInput> inputs;
  for (const auto& p : objects)
    inputs.push_back(loader::read_object_file(p));
  if (with_runtime)
    for (const auto& p : runtime_objects())
      inputs.push_back(loader::read_object_file(p));
  loader::LinkOptions options;
  options.sram_bytes = profile.lanai.sram_bytes;
  return loader::link(inputs, options);
}

loader::LinkedImage link_firmware(const loader::FirmwareSource& firmware,
                                  const profile::HardwareProfile& profile) {
  const auto objects = loader::firmware_objects(firmware);
  return link_program(objects, profile);
}

} // namespace lanai::machine
