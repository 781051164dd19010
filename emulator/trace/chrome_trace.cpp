#include "emulator/trace/chrome_trace.hpp"

#include <fmt/format.h>

#include <set>
#include <string>

#include "emulator/text/json_text.hpp"

namespace lanai::trace {

namespace {

// Picoseconds as microseconds with all six decimals: exact, so identical
// runs give identical files.
std::string micros(kernel::SimTime t) {
  const std::int64_t ps = t.ps();
  const char* sign = ps < 0 ? "-" : "";
  const std::uint64_t v = static_cast<std::uint64_t>(ps < 0 ? -ps : ps);
  return fmt::format("{}{}.{:06}", sign, v / 1'000'000, v % 1'000'000);
}

std::string args_of(const Event& e) {
  std::string args;
  auto add = [&](std::string_view key, const std::string& value) {
    args += fmt::format("{}\"{}\":{}", args.empty() ? "" : ",", key, value);
  };
  if (e.vi != no_label)
    add("vi", std::to_string(e.vi));
  if (e.msg != no_label)
    add("msg", std::to_string(e.msg));
  if (e.bytes != 0)
    add("bytes", std::to_string(e.bytes));
  if (e.track == Track::hdma)
    add("programmed_us", micros(e.programmed));
  if (e.peer != no_label)
    add("peer", std::to_string(e.peer));
  if (e.stamp != 0)
    add("stamp", std::to_string(e.stamp));
  return args;
}

} // namespace

void write_chrome_trace(std::ostream& out, const std::vector<Event>& events) {
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto line = [&](const std::string& text) {
    out << (first ? "" : ",\n") << text;
    first = false;
  };
  std::set<std::uint32_t> nodes;
  for (const Event& e : events)
    nodes.insert(e.node);
  for (std::uint32_t node : nodes) {
    line(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"node{}"}}}})",
                     node, node));
    for (int t = 0; t <= static_cast<int>(Track::link); ++t) {
      const auto track = static_cast<Track>(t);
      line(fmt::format(
          R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{}"}}}})", node, t,
          to_string(track)));
      line(fmt::format(
          R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
          node, t, t));
    }
  }
  for (const Event& e : events) {
    std::string label = e.name;
    if (e.vi != no_label)
      label += fmt::format(" vi{}", e.vi);
    if (e.msg != no_label)
      label += fmt::format(" #{}", e.msg);
    const std::string name = text::json_string(label);
    const int tid = static_cast<int>(e.track);
    if (e.end > e.begin)
      line(fmt::format(R"({{"ph":"X","name":{},"pid":{},"tid":{},"ts":{},"dur":{},"args":{{{}}}}})",
                       name, e.node, tid, micros(e.begin), micros(e.end - e.begin), args_of(e)));
    else
      line(fmt::format(R"({{"ph":"i","s":"t","name":{},"pid":{},"tid":{},"ts":{},"args":{{{}}}}})",
                       name, e.node, tid, micros(e.begin), args_of(e)));
  }
  out << "\n]}\n";
}

} // namespace lanai::trace
