// The sweep's progress line on a terminal:
//   [#######-------]  7/36 points  0:42 elapsed
// redrawn in place; silent when the stream is not a terminal, so logs and
// pipes get no control characters. Wall time appears here and nowhere else.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>

namespace lanai::bench {

class ProgressBar {
public:
  // Enabled only if `stream` is a terminal.
  explicit ProgressBar(std::FILE* stream);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  void update(std::size_t done, std::size_t total);
  // Ends the line (once), so later messages start on a fresh one.
  void finish();
  bool enabled() const { return enabled_; }

private:
  std::FILE* stream_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

} // namespace lanai::bench
