// The byte encoding sweep records travel in between MPI ranks: integers
// little-endian, doubles by their IEEE-754 bits, strings and sequences with
// a length in front. Explicit, so a record decodes to the same bits on any
// machine and compiler, whatever the structs' layout in memory.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lanai::bench {

// A record that does not decode: cut short, too long, or out of range.
class RecordError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class RecordWriter {
public:
  void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void f64(double v);
  void boolean(bool v) { u8(v ? 1 : 0); }
  void text(std::string_view s);
  std::string take() { return std::move(bytes_); }

private:
  std::string bytes_;
};

class RecordReader {
public:
  explicit RecordReader(std::string_view bytes) : bytes_(bytes) {}
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  double f64();
  bool boolean();
  std::string text();
  // A count of items still to read, each at least `min_bytes` long: a
  // count that could not fit in what is left is refused before anything
  // is allocated for it.
  std::size_t count(std::size_t min_bytes);
  // Throws unless every byte was read.
  void finish() const;

private:
  void need(std::size_t n) const;
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

} // namespace lanai::bench
