// The model file reader: what it builds, and a clear error for each mistake.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "emulator/text/table_reader.hpp"
#include "tools/analytic/qna_model_file.hpp"
#include "tools/analytic/qna_solver.hpp"

using namespace lanai::models;

namespace {

const std::string kStations = R"(
name = "m"
rate_per_us = 0.1
[[station]]
name = "a"
[[station]]
name = "b"
servers = 2
)";

const std::string kServices = R"(
[[service]]
station = "a"
class = "x"
mean_us = 1.0
[[service]]
station = "b"
class = "y"
mean_us = 4.0
scov = 1.0
[[arrival]]
at = "a.x"
)";

void refused(const std::string& text, const std::string& message) {
  CAPTURE(text);
  CHECK_THROWS_WITH_AS(parse_qna_model(text, "m.toml"), doctest::Contains(message.c_str()),
                       lanai::text::InputError);
}

} // namespace

TEST_CASE("a model file with class switching reads into visits and routes") {
  const QnaNetwork n = parse_qna_model(kStations + kServices + R"(
[[route]]
from = "a.x"
to = "b.y"
probability = 0.5
[[route]]
from = "a.x"
to = "out"
probability = 0.5
)",
                                       "m.toml");
  CHECK(n.name == "m");
  REQUIRE(n.stations.size() == 2);
  CHECK(n.stations[1].servers == 2);
  REQUIRE(n.visits.size() == 2);
  CHECK(n.visits[1].name() == "b.y");
  REQUIRE(n.routes.size() == 1);
  const QnaResult r = solve_qna(n);
  CHECK(r.visits[1].arrival_rate == doctest::Approx(0.05));
  REQUIRE(r.classes.size() == 2);
  CHECK(r.classes[1].name == "y");
  CHECK(r.classes[1].entry_rate == doctest::Approx(0.05));
}

TEST_CASE("mistakes in a model file name the file, the key and the problem") {
  refused("speed = 1\n" + kStations + kServices, "m.toml: speed: unknown key");
  refused(kStations + kServices + "[[route]]\nfrom = \"a.x\"\nto = \"c.z\"\n",
          "m.toml: route[1].to: no [[service]] at \"c.z\" (services: a.x, b.y)");
  refused(kStations + kServices +
              "[[route]]\nfrom = \"a.x\"\nto = \"b.y\"\nprobability = 0.7\n"
              "[[route]]\nfrom = \"a.x\"\nto = \"out\"\nprobability = 0.7\n",
          "m.toml: route[2].probability: routes from \"a.x\" add up to 1.4 (more than 1)");
  refused(kStations + "[[service]]\nstation = \"c\"\nclass = \"x\"\nmean_us = 1\n",
          "m.toml: service[1].station: unknown station \"c\" (stations: a, b)");
  refused(kStations + "[[service]]\nstation = \"a\"\nclass = \"x\"\nmean_us = -1\n",
          "m.toml: service[1].mean_us: must be >= 0 (got -1)");
  refused(R"(name = "m"
rate_per_us = 0
[[station]]
name = "a"
)",
          "m.toml: rate_per_us: must be > 0 (got 0)");
  refused(kStations + "[[station]]\nname = \"a\"\n",
          "m.toml: station[3].name: duplicate station \"a\"");
  refused("name = \"m\"\nrate_per_us = 0.1\n", "m.toml: station: missing");
  // An integer a double cannot hold exactly is refused, not rounded.
  refused(kStations + "[[service]]\nstation = \"a\"\nclass = \"x\"\nmean_us = 9007199254740993\n",
          "m.toml: service[1].mean_us: must be a number a double holds exactly, within +-2^53 "
          "when written as an integer (got 9007199254740993)");
  refused("name = \"m\"\nrate_per_us = [\n", "m.toml:");
}

TEST_CASE("a scaled service may not refer to a station whose service is scaled") {
  const QnaNetwork n = parse_qna_model(kStations + R"(
[[service]]
station = "a"
class = "x"
mean_us = 1.0
idle_of = "b"
[[service]]
station = "b"
class = "y"
mean_us = 1.0
idle_of = "a"
[[arrival]]
at = "a.x"
)",
                                       "m.toml");
  CHECK_THROWS_WITH_AS(solve_qna(n), doctest::Contains("whose own service is scaled too"),
                       QnaError);
}

TEST_CASE("a missing model file is reported by name") {
  CHECK_THROWS_WITH_AS(load_qna_model("no-such-model.toml"),
                       doctest::Contains("no-such-model.toml: cannot open model file"),
                       lanai::text::InputError);
}

TEST_CASE("a model path that is not a regular file is refused before a byte is read") {
  // A device would be read until memory ran out, a pipe might block.
  CHECK_THROWS_WITH_AS(load_qna_model("/dev/zero"),
                       doctest::Contains("/dev/zero: not a regular file"), lanai::text::InputError);
  CHECK_THROWS_WITH_AS(load_qna_model(std::filesystem::temp_directory_path()),
                       doctest::Contains("not a regular file"), lanai::text::InputError);
}
