// Point-to-point messages as bytes (MPI_BYTE), probed before they are
// received so that any length arrives whole.
#include "bench/mpi/sweep_messages.hpp"

#include <mpi.h>

#include "bench/sweep/record_codec.hpp"

namespace lanai::bench::sweep_mpi {

namespace {

MPI_Comm channel = MPI_COMM_NULL;

} // namespace

void open_channel() { MPI_Comm_dup(MPI_COMM_WORLD, &channel); }

void close_channel() {
  if (channel != MPI_COMM_NULL)
    MPI_Comm_free(&channel);
}

void send(int destination, Tag tag, std::string_view bytes) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, destination,
           static_cast<int>(tag), channel);
}

std::optional<Message> poll() {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, channel, &arrived, &status);
  if (!arrived)
    return std::nullopt;
  int length = 0;
  MPI_Get_count(&status, MPI_BYTE, &length);
  Message m;
  m.source = status.MPI_SOURCE;
  m.tag = static_cast<Tag>(status.MPI_TAG);
  m.bytes.resize(static_cast<std::size_t>(length));
  MPI_Recv(m.bytes.data(), length, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, channel,
           MPI_STATUS_IGNORE);
  return m;
}

std::string want_bytes(std::size_t slots) {
  RecordWriter w;
  w.u64(slots);
  return w.take();
}

std::size_t read_want(std::string_view bytes) {
  RecordReader r(bytes);
  const std::size_t slots = r.u64();
  r.finish();
  return slots;
}

std::string give_bytes(const std::vector<std::size_t>& points) {
  RecordWriter w;
  w.u64(points.size());
  for (const std::size_t p : points)
    w.u64(p);
  return w.take();
}

std::vector<std::size_t> read_give(std::string_view bytes) {
  RecordReader r(bytes);
  std::vector<std::size_t> points(r.count(8));
  for (std::size_t& p : points)
    p = r.u64();
  r.finish();
  return points;
}

std::string record_bytes(std::size_t point, const std::optional<std::string>& record) {
  RecordWriter w;
  w.u64(point);
  w.boolean(record.has_value());
  if (record)
    w.text(*record);
  return w.take();
}

std::pair<std::size_t, std::optional<std::string>> read_record(std::string_view bytes) {
  RecordReader r(bytes);
  const std::size_t point = r.u64();
  std::optional<std::string> record;
  if (r.boolean())
    record = r.text();
  r.finish();
  return {point, std::move(record)};
}

} // namespace lanai::bench::sweep_mpi
