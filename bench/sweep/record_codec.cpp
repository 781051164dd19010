// Fixed-width little-endian fields, read back with a bounds check on every
// field, so a short or damaged record is an error and never a wrong value.
#include "bench/sweep/record_codec.hpp"

#include <bit>

namespace lanai::bench {

void RecordWriter::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    u8(static_cast<std::uint8_t>(v >> (8 * i)));
}

void RecordWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    u8(static_cast<std::uint8_t>(v >> (8 * i)));
}

void RecordWriter::f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }

void RecordWriter::text(std::string_view s) {
  u64(s.size());
  bytes_.append(s);
}

void RecordReader::need(std::size_t n) const {
  if (bytes_.size() - pos_ < n)
    throw RecordError("record cut short: " + std::to_string(n) + " more bytes needed at byte " +
                      std::to_string(pos_) + " of " + std::to_string(bytes_.size()));
}

std::uint8_t RecordReader::u8() {
  need(1);
  return static_cast<std::uint8_t>(bytes_[pos_++]);
}

std::uint32_t RecordReader::u32() {
  need(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(u8()) << (8 * i);
  return v;
}

std::uint64_t RecordReader::u64() {
  need(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(u8()) << (8 * i);
  return v;
}

double RecordReader::f64() { return std::bit_cast<double>(u64()); }

bool RecordReader::boolean() {
  const std::uint8_t v = u8();
  if (v > 1)
    throw RecordError("record holds " + std::to_string(v) + " where a flag belongs");
  return v == 1;
}

std::string RecordReader::text() {
  const std::size_t n = count(1);
  std::string s(bytes_.substr(pos_, n));
  pos_ += n;
  return s;
}

std::size_t RecordReader::count(std::size_t min_bytes) {
  const std::uint64_t n = u64();
  const std::size_t left = bytes_.size() - pos_;
  if (min_bytes > 0 && n > left / min_bytes)
    throw RecordError("record claims " + std::to_string(n) + " items in " + std::to_string(left) +
                      " bytes");
  return static_cast<std::size_t>(n);
}

void RecordReader::finish() const {
  if (pos_ != bytes_.size())
    throw RecordError("record has " + std::to_string(bytes_.size() - pos_) + " bytes past its end");
}

} // namespace lanai::bench
