// Writes recorded events as Chrome/Perfetto trace-event JSON (the format
// chrome://tracing and ui.perfetto.dev open): one process per node, one
// thread per device track, complete ("X") events for spans and instant
// ("i") events, timestamps in microseconds of virtual time. Host addresses
// are left out: they differ from run to run, the file must not.
#pragma once

#include <ostream>
#include <vector>

#include "emulator/trace/trace_event.hpp"

namespace lanai::trace {

void write_chrome_trace(std::ostream& out, const std::vector<Event>& events);

} // namespace lanai::trace
