#include "tools/analytic/qna_report.hpp"

#include <fmt/format.h>

#include "emulator/text/json_text.hpp"

namespace lanai::models {

namespace {

// Nine significant digits: enough to compare, identical on every run.
std::string num(double v) { return fmt::format("{:.9g}", v); }

} // namespace

std::string qna_table(const QnaResult& r) {
  std::string out =
      fmt::format("# QNA of {} at rate {} per us (variability fixed point in {} iterations)\n",
                  r.model, num(r.rate_per_us), r.iterations);
  out += "# times in us; Lq waiting, L present (waiting and in service)\n";
  out += fmt::format("{:<14}{:>4}{:>12}{:>9}{:>8}{:>8}{:>11}{:>11}{:>10}{:>10}\n", "station", "m",
                     "lambda/us", "util", "c2A", "c2S", "Wq", "W", "Lq", "L");
  for (const QnaStationResult& s : r.stations)
    out += fmt::format("{:<14}{:>4}{:>12.6f}{:>9.4f}{:>8.3f}{:>8.3f}{:>11.3f}{:>11.3f}{:>10.4f}"
                       "{:>10.4f}\n",
                       s.name, s.servers, s.arrival_rate, s.utilization, s.scov_arrival,
                       s.scov_service, s.wait_us, s.time_us, s.queue, s.present);
  out += fmt::format("\n{:<22}{:>12}{:>11}{:>9}{:>8}{:>11}{:>10}{:>10}\n", "visit", "lambda/us",
                     "service", "util", "c2A", "W", "Lq", "L");
  for (const QnaVisitResult& v : r.visits)
    out += fmt::format("{:<22}{:>12.6f}{:>11.4f}{:>9.4f}{:>8.3f}{:>11.3f}{:>10.4f}{:>10.4f}\n",
                       v.name, v.arrival_rate, v.service_us, v.utilization, v.scov_arrival,
                       v.time_us, v.queue, v.present);
  out +=
      fmt::format("\n{:<22}{:>12}{:>11}{:>10}{:>10}\n", "class", "entries/us", "time", "Lq", "L");
  for (const QnaClassResult& c : r.classes)
    out += fmt::format("{:<22}{:>12.6f}{:>11.3f}{:>10.4f}{:>10.4f}\n", c.name, c.entry_rate,
                       c.time_us, c.queue, c.present);
  return out;
}

std::string qna_json(const QnaResult& r) {
  using text::json_string;
  std::string out = fmt::format("{{\"model\":{},\"rate\":{},\"iterations\":{},\"stations\":{{",
                                json_string(r.model), num(r.rate_per_us), r.iterations);
  for (std::size_t k = 0; k < r.stations.size(); ++k) {
    const QnaStationResult& s = r.stations[k];
    out += fmt::format("{}{}:{{\"servers\":{},\"arrival_rate\":{},\"utilization\":{},"
                       "\"scov_arrival\":{},\"scov_service\":{},\"Wq\":{},\"W\":{},\"Lq\":{},"
                       "\"L\":{}}}",
                       k ? "," : "", json_string(s.name), s.servers, num(s.arrival_rate),
                       num(s.utilization), num(s.scov_arrival), num(s.scov_service), num(s.wait_us),
                       num(s.time_us), num(s.queue), num(s.present));
  }
  out += "},\"visits\":{";
  for (std::size_t k = 0; k < r.visits.size(); ++k) {
    const QnaVisitResult& v = r.visits[k];
    out += fmt::format("{}{}:{{\"arrival_rate\":{},\"service\":{},\"utilization\":{},"
                       "\"scov_arrival\":{},\"W\":{},\"Lq\":{},\"L\":{}}}",
                       k ? "," : "", json_string(v.name), num(v.arrival_rate), num(v.service_us),
                       num(v.utilization), num(v.scov_arrival), num(v.time_us), num(v.queue),
                       num(v.present));
  }
  out += "},\"classes\":{";
  for (std::size_t k = 0; k < r.classes.size(); ++k) {
    const QnaClassResult& c = r.classes[k];
    out += fmt::format("{}{}:{{\"entry_rate\":{},\"W\":{},\"Lq\":{},\"L\":{}}}", k ? "," : "",
                       json_string(c.name), num(c.entry_rate), num(c.time_us), num(c.queue),
                       num(c.present));
  }
  out += "}}\n";
  return out;
}

} // namespace lanai::models
