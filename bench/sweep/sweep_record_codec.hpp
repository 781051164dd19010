// Each sweep kind's record as bytes, for the trip from an MPI rank to rank
// 0: every field the result files read, written field by field with the
// record codec, so rank 0 writes the same files as a single process.
#pragma once

#include <string>
#include <string_view>

#include "bench/sweep/jitter_results.hpp"
#include "bench/sweep/pipeline_sweep.hpp"
#include "bench/sweep/queueing_sweep.hpp"
#include "bench/sweep/saturation_sweep.hpp"

namespace lanai::bench {

// decode_record throws RecordError for bytes that are not a whole record.
std::string encode_record(const PointRecord& record);
void decode_record(std::string_view bytes, PointRecord& record);

std::string encode_record(const SaturationRecord& record);
void decode_record(std::string_view bytes, SaturationRecord& record);

std::string encode_record(const QueueingPoint& record);
void decode_record(std::string_view bytes, QueueingPoint& record);

std::string encode_record(const PipelineOutcome& record);
void decode_record(std::string_view bytes, PipelineOutcome& record);

} // namespace lanai::bench
