#include "emulator/trace/trace_recorder.hpp"

#include <algorithm>

namespace lanai::trace {

std::string_view to_string(Track track) {
  switch (track) {
  case Track::lanai:
    return "LANai";
  case Track::doorbell:
    return "doorbells";
  case Track::hdma:
    return "HDMA";
  case Track::nsdma:
    return "NSDMA";
  case Track::nrdma:
    return "NRDMA";
  case Track::link:
    return "link";
  }
  return "?";
}

std::vector<Event> Recorder::sorted() const {
  std::vector<Event> out = events_;
  std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
    if (a.begin != b.begin)
      return a.begin < b.begin;
    if (a.node != b.node)
      return a.node < b.node;
    return a.track < b.track;
  });
  return out;
}

Tag decode_tag(std::uint32_t word) {
  Tag tag;
  if ((word >> 16) != 0xFFFFu)
    tag.vi = word >> 16;
  if ((word & 0xFFFFu) != 0xFFFFu)
    tag.msg = word & 0xFFFFu;
  return tag;
}

} // namespace lanai::trace
