// The messages of a sweep spread over MPI ranks, on a communicator of the
// sweep's own. Rank 0 serves points and gathers records:
//   want(slots)  rank -> 0   free threads: give me up to this many points
//   give(points) 0 -> rank   these points (none: there are no more)
//   record(i, bytes?) rank -> 0   point i's encoded record (none: discarded)
//   failed(why)  rank -> 0   this rank takes no more points
//   done         rank -> 0   nothing more will come from this rank
//   stop         0 -> rank   stop running points (Ctrl-C reached rank 0 only)
// Payloads are written with the record codec. Only a rank's main thread
// sends and receives (MPI_THREAD_FUNNELED).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::bench::sweep_mpi {

enum class Tag : int { want = 1, give, record, failed, done, stop };

struct Message {
  int source = 0;
  Tag tag = Tag::done;
  std::string bytes;
};

// The sweep's communicator, a duplicate of MPI_COMM_WORLD, made once at
// start-up and freed before MPI_Finalize.
void open_channel();
void close_channel();

void send(int destination, Tag tag, std::string_view bytes = {});
// The next message already arrived, from anyone, if there is one.
std::optional<Message> poll();

std::string want_bytes(std::size_t slots);
std::size_t read_want(std::string_view bytes);
std::string give_bytes(const std::vector<std::size_t>& points);
std::vector<std::size_t> read_give(std::string_view bytes);
std::string record_bytes(std::size_t point, const std::optional<std::string>& record);
std::pair<std::size_t, std::optional<std::string>> read_record(std::string_view bytes);

} // namespace lanai::bench::sweep_mpi
