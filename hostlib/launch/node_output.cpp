// Swapping descriptors 1 and 2 as programs take turns: the C library's
// buffers are flushed at every switch, so each byte lands in the stream of
// the node that wrote it. In prefixed mode a node writes into an in-memory
// file that is emptied into the launcher's stream, line by line, whenever
// the node stops running: lines appear in virtual-time order, and output
// never blocks a node.
#include "hostlib/launch/node_output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace lanai::vipl {

namespace {

[[noreturn]] void output_failure(const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", what, std::strerror(errno)));
}

int duplicate_descriptor(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0)
    output_failure(fmt::format("cannot duplicate descriptor {}", fd));
  return copy;
}

void write_fully(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return; // the launcher's stream is gone; nothing better to do
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

int open_node_stream(const std::filesystem::path& dir, std::uint32_t node, const char* kind) {
  if (dir.empty()) {
    const std::string name = fmt::format("node{}.{}", node, kind);
    const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC);
    if (fd < 0)
      output_failure(fmt::format("cannot create the buffer of {}", name));
    return fd;
  }
  const std::filesystem::path file = dir / fmt::format("node{}.{}", node, kind);
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    output_failure(fmt::format("cannot write {}", file.string()));
  return fd;
}

} // namespace

NodeOutput::NodeOutput(std::size_t nodes, const std::filesystem::path& dir)
    : prefixed_(dir.empty()) {
  if (!dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error)
      throw std::runtime_error(
          fmt::format("cannot create the output folder {}: {}", dir.string(), error.message()));
  }
  out_.resize(nodes);
  err_.resize(nodes);
  try {
    for (std::uint32_t node = 0; node < nodes; ++node) {
      out_[node].fd = open_node_stream(dir, node, "out");
      err_[node].fd = open_node_stream(dir, node, "err");
    }
    launcher_out_ = duplicate_descriptor(1);
    launcher_err_ = duplicate_descriptor(2);
  } catch (...) {
    for (auto* streams : {&out_, &err_})
      for (Stream& stream : *streams)
        if (stream.fd >= 0)
          ::close(stream.fd);
    if (launcher_out_ >= 0)
      ::close(launcher_out_);
    throw;
  }
  outer_ = host::HostCpu::set_switch_observer(this);
}

NodeOutput::~NodeOutput() {
  host::HostCpu::set_switch_observer(outer_);
  std::fflush(nullptr);
  for (std::uint32_t node = 0; node < out_.size(); ++node) {
    if (prefixed_) {
      drain(out_[node], node, launcher_out_, true);
      drain(err_[node], node, launcher_err_, true);
    }
    ::close(out_[node].fd);
    ::close(err_[node].fd);
  }
  ::close(launcher_out_);
  ::close(launcher_err_);
}

void NodeOutput::entering(std::uint32_t node) {
  std::fflush(nullptr);
  ::dup2(out_.at(node).fd, 1);
  ::dup2(err_.at(node).fd, 2);
}

void NodeOutput::left(std::uint32_t node) {
  std::fflush(nullptr);
  ::dup2(launcher_out_, 1);
  ::dup2(launcher_err_, 2);
  if (prefixed_) {
    drain(out_.at(node), node, launcher_out_, false);
    drain(err_.at(node), node, launcher_err_, false);
  }
}

void NodeOutput::drain(Stream& stream, std::uint32_t node, int to, bool finish) {
  struct stat about {};
  if (::fstat(stream.fd, &about) != 0)
    return;
  const auto size = static_cast<std::size_t>(about.st_size);
  if (size > 0) {
    std::string bytes(size, '\0');
    std::size_t got = 0;
    while (got < size) {
      const ssize_t n = ::pread(stream.fd, bytes.data() + got, size - got, static_cast<off_t>(got));
      if (n <= 0)
        break;
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
    // Emptied for the node's next turn: it writes from the start again.
    if (::ftruncate(stream.fd, 0) == 0)
      ::lseek(stream.fd, 0, SEEK_SET);
    stream.partial += bytes;
  }
  const std::string prefix = fmt::format("[node{}] ", node);
  std::string lines;
  std::size_t begin = 0;
  for (std::size_t end; (end = stream.partial.find('\n', begin)) != std::string::npos;
       begin = end + 1)
    lines += prefix + stream.partial.substr(begin, end + 1 - begin);
  stream.partial.erase(0, begin);
  if (finish && !stream.partial.empty()) {
    lines += prefix + stream.partial + "\n";
    stream.partial.clear();
  }
  write_fully(to, lines.data(), lines.size());
}

} // namespace lanai::vipl
