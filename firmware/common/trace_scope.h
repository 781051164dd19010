// A stretch of a firmware's own work marked in the device trace under a
// name of its own ("edf:late"): while a TraceScope lives the LANai span
// carries that name, and when it ends the span goes back to the state it
// interrupted, so the engine's marks around it stay as they were. Two port
// accesses (a read and a write) each way, as any trace mark costs.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/register_map.h>

#include "common/devices.h"

namespace via {

class TraceScope {
public:
  explicit TraceScope(const char* name) : previous_(lanai_mmio_read(LANAI_REG_TRACE_STATE)) {
    trace_state(name);
  }
  ~TraceScope() { trace_port_write<LANAI_REG_TRACE_STATE>(previous_); }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

private:
  uint32_t previous_; // the state it interrupted (0: polling)
};

} // namespace via
