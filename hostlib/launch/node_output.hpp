// The standard output and error of each node's program, kept apart: while
// node i's program runs, file descriptors 1 and 2 are node i's. Either
// every line is written to the launcher's own stream behind "[node<i>] "
// as it completes, or each node writes DIR/node<i>.out and DIR/node<i>.err.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "emulator/host/host_cpu.hpp"

namespace lanai::vipl {

class NodeOutput final : public host::SwitchObserver {
public:
  // Prefixed lines on the launcher's streams (`dir` empty), or per-node
  // files in `dir` (created if missing). Throws std::runtime_error if a
  // stream cannot be set up. Becomes the thread's switch observer.
  NodeOutput(std::size_t nodes, const std::filesystem::path& dir);
  // Writes what is left (an unfinished last line gets its newline) and
  // stops observing.
  ~NodeOutput() override;
  NodeOutput(const NodeOutput&) = delete;
  NodeOutput& operator=(const NodeOutput&) = delete;

  void entering(std::uint32_t node) override;
  void left(std::uint32_t node) override;

private:
  struct Stream {
    int fd = -1;         // what the node's descriptor 1 or 2 is
    std::string partial; // prefixed mode: the unfinished last line
  };
  // Prefixed mode: writes the complete lines `stream` gained to `to`.
  void drain(Stream& stream, std::uint32_t node, int to, bool finish);

  bool prefixed_;
  std::vector<Stream> out_, err_;
  int launcher_out_ = -1, launcher_err_ = -1; // the launcher's own 1 and 2
  host::SwitchObserver* outer_ = nullptr;
};

} // namespace lanai::vipl
