// Drawing the progress line with a carriage return, on terminals only.
#include "bench/sweep/progress_bar.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <string>

namespace lanai::bench {

ProgressBar::ProgressBar(std::FILE* stream)
    : stream_(stream), enabled_(isatty(fileno(stream)) != 0),
      start_(std::chrono::steady_clock::now()) {}

ProgressBar::ProgressBar(std::FILE* stream, bool enabled)
    : stream_(stream), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::size_t done, std::size_t total) {
  if (!enabled_)
    return;
  constexpr std::size_t width = 30;
  const std::size_t filled = total == 0 ? width : done * width / total;
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_)
          .count();
  const std::string bar = std::string(filled, '#') + std::string(width - filled, '-');
  fmt::print(stream_, "\r[{}] {:>{}}/{} points  {}:{:02} elapsed{}{}", bar, done,
             fmt::format("{}", total).size(), total, seconds / 60, seconds % 60,
             note_.empty() ? "" : "  ", note_);
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_)
    return;
  fmt::print(stream_, "\n");
  std::fflush(stream_);
  drawn_ = false;
}

} // namespace lanai::bench
