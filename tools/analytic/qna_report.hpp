// QNA results as a table for people and as JSON for scripts.
#pragma once

#include <string>

#include "tools/analytic/qna_solver.hpp"

namespace lanai::models {

std::string qna_table(const QnaResult& result);
// {"model":..,"rate":..,"iterations":..,
//  "stations":{"lanai":{"servers":..,"arrival_rate":..,"utilization":..,"scov_arrival":..,
//                       "scov_service":..,"Wq":..,"W":..,"Lq":..,"L":..},..},
//  "visits":{"lanai.doorbell":{..},..},"classes":{"doorbell":{..},..}}
std::string qna_json(const QnaResult& result);

} // namespace lanai::models
