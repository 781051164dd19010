// A QNA model file into a QnaNetwork. Visits are named "station.class"; a
// route's `to` may also be "out" (jobs leave), which is what the probability
// left over after a visit's routes means anyway.
#include "tools/analytic/qna_model_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "emulator/text/table_reader.hpp"
#include "emulator/text/text_file.hpp"

namespace lanai::models {

namespace {

using text::TableReader;

double finite(const TableReader& t, std::string_view key, double v, double lo, bool lo_open) {
  if (!std::isfinite(v) || v < lo || (lo_open && v == lo))
    t.fail(key, fmt::format("must be {} {} (got {})", lo_open ? ">" : ">=", lo, v));
  return v;
}

bool valid_name(std::string_view s) {
  if (s.empty() || s.size() > 64)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
}

std::string required_name(const TableReader& t, std::string_view key) {
  std::string name = t.required_string(key);
  if (!valid_name(name))
    t.fail(key, fmt::format("must be 1-64 letters, digits, '-' or '_' (got \"{}\")", name));
  return name;
}

template <typename Items, typename Name>
std::string joined(const Items& items, Name name) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty())
      out += ", ";
    out += name(item);
  }
  return out;
}

template <typename Each>
void each_table(const TableReader& top, std::string_view key, bool required, Each each) {
  const toml::array* array = top.table_array(key);
  if (!array) {
    if (required)
      top.fail(key, fmt::format("missing (at least one [[{}]] is required)", key));
    return;
  }
  for (std::size_t k = 0; k < array->size(); ++k)
    each(TableReader(*array->get(k)->as_table(), top.source(), fmt::format("{}[{}]", key, k + 1)));
}

class Builder {
public:
  explicit Builder(QnaNetwork& net) : net_(net) {}

  std::size_t station(const TableReader& t, std::string_view key, const std::string& name) const {
    for (std::size_t i = 0; i < net_.stations.size(); ++i)
      if (net_.stations[i].name == name)
        return i;
    t.fail(key, fmt::format("unknown station \"{}\" (stations: {})", name, station_list()));
  }

  // "station.class" of a declared service.
  std::size_t visit(const TableReader& t, std::string_view key) const {
    const std::string at = t.required_string(key);
    for (std::size_t v = 0; v < net_.visits.size(); ++v)
      if (net_.visits[v].name() == at)
        return v;
    t.fail(key, fmt::format("no [[service]] at \"{}\" (services: {})", at,
                            joined(net_.visits, [](const QnaVisit& v) { return v.name(); })));
  }

  std::string station_list() const {
    return joined(net_.stations, [](const QnaStation& s) { return s.name; });
  }

private:
  QnaNetwork& net_;
};

} // namespace

QnaNetwork parse_qna_model(std::string_view text, std::string_view source) {
  const toml::table root = text::parse_toml(text, source);
  const TableReader top(root, std::string(source), "");
  top.allow_only({"name", "description", "rate_per_us", "station", "service", "arrival", "route"});
  QnaNetwork net;
  net.name = required_name(top, "name");
  net.description = top.string("description").value_or("");
  net.rate_per_us = finite(top, "rate_per_us", top.required_number("rate_per_us"), 0.0, true);
  Builder build(net);

  each_table(top, "station", true, [&](const TableReader& t) {
    t.allow_only({"name", "servers"});
    QnaStation s;
    s.name = required_name(t, "name");
    if (s.name == "out")
      t.fail("name", "\"out\" is reserved for jobs leaving the network");
    for (const QnaStation& other : net.stations)
      if (other.name == s.name)
        t.fail("name", fmt::format("duplicate station \"{}\"", s.name));
    const std::int64_t servers = t.integer("servers").value_or(1);
    if (servers < 1 || servers > 1024)
      t.fail("servers", fmt::format("must be 1..1024 (got {})", servers));
    s.servers = static_cast<int>(servers);
    net.stations.push_back(s);
  });

  each_table(top, "service", true, [&](const TableReader& t) {
    t.allow_only({"station", "class", "mean_us", "scov", "idle_of", "idle_factor"});
    QnaVisit v;
    v.station_name = t.required_string("station");
    v.station = build.station(t, "station", v.station_name);
    v.job_class = required_name(t, "class");
    for (const QnaVisit& other : net.visits)
      if (other.name() == v.name())
        t.fail("class", fmt::format("duplicate service at \"{}\"", v.name()));
    v.mean_us = finite(t, "mean_us", t.required_number("mean_us"), 0.0, false);
    v.scov = finite(t, "scov", t.number("scov").value_or(0.0), 0.0, false);
    if (auto idle_of = t.string("idle_of")) {
      IdleScaling s;
      s.station = build.station(t, "idle_of", *idle_of);
      s.factor = finite(t, "idle_factor", t.number("idle_factor").value_or(1.0), 0.0, false);
      v.idle = s;
    } else if (t.has("idle_factor")) {
      t.fail("idle_factor", "only with idle_of");
    }
    net.visits.push_back(v);
  });

  each_table(top, "arrival", true, [&](const TableReader& t) {
    t.allow_only({"at", "share", "scov"});
    QnaArrival a;
    a.visit = build.visit(t, "at");
    a.share = finite(t, "share", t.number("share").value_or(1.0), 0.0, true);
    a.scov = finite(t, "scov", t.number("scov").value_or(1.0), 0.0, false);
    net.arrivals.push_back(a);
  });

  std::vector<double> leaving(net.visits.size(), 0.0);
  each_table(top, "route", false, [&](const TableReader& t) {
    t.allow_only({"from", "to", "probability"});
    QnaRoute r;
    r.from = build.visit(t, "from");
    r.probability = t.number("probability").value_or(1.0);
    if (!(r.probability > 0.0 && r.probability <= 1.0))
      t.fail("probability", fmt::format("must be in (0, 1] (got {})", r.probability));
    leaving[r.from] += r.probability;
    if (leaving[r.from] > 1.0 + 1e-12)
      t.fail("probability", fmt::format("routes from \"{}\" add up to {} (more than 1)",
                                        net.visits[r.from].name(), leaving[r.from]));
    if (t.required_string("to") == "out")
      return;
    r.to = build.visit(t, "to");
    net.routes.push_back(r);
  });
  return net;
}

QnaNetwork load_qna_model(const std::filesystem::path& file) {
  return parse_qna_model(text::text_of_file<text::InputError>(file, "cannot open model file"),
                         file.string());
}

} // namespace lanai::models
