// Reading the target table: the shipped one, and each kind of bad input
// named by file and line.
#include <doctest/doctest.h>

#include <set>

#include "bench/calibration/target_table.hpp"

using lanai::bench::CalibrationError;
using lanai::bench::parse_target_table;
using lanai::bench::read_target_table;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_target_table(text, "t.csv");
  } catch (const CalibrationError& e) {
    return e.what();
  }
  return "no error";
}

const char* header = "firmware,size,quantity,target_us\n";

} // namespace

TEST_CASE("the shipped table has every cell of the published breakdown") {
  const auto cells = read_target_table(CALIBRATION_PUBLISHED_TABLE);
  CHECK(cells.size() == 3 * 4 * 14);
  std::set<std::string> firmwares;
  for (const auto& c : cells)
    firmwares.insert(c.firmware);
  CHECK(firmwares == std::set<std::string>{"svia", "pvia", "qosvia"});
  CHECK(cells.back().firmware == "qosvia");
  CHECK(cells.back().size == 16384);
  CHECK(cells.back().quantity == "one_way");
  CHECK(cells.back().target_us == 426);
}

TEST_CASE("comments, blank lines, spaces and size suffixes") {
  const auto cells = parse_target_table(
      "# comment\n\nfirmware, size, quantity, target_us\r\nsvia, 1K, send_desc_down, 6\n"
      "pvia,16k,one_way,423.5\n",
      "t.csv");
  REQUIRE(cells.size() == 2);
  CHECK(cells[0].size == 1024);
  CHECK(cells[0].line == 4);
  CHECK(cells[1].size == 16384);
  CHECK(cells[1].target_us == 423.5);
}

TEST_CASE("bad rows name the file and line") {
  CHECK(error_of("firmware,size,quantity\nsvia,4,one_way\n") ==
        "t.csv:1: expected the header 'firmware,size,quantity,target_us', got "
        "'firmware,size,quantity'");
  CHECK(error_of(std::string(header) + "svia,4,one_way\n") ==
        "t.csv:2: expected 4 fields (firmware,size,quantity,target_us), got 3");
  CHECK(error_of(std::string(header) + "svia,four,one_way,30\n") ==
        "t.csv:2: size must be a positive byte count, got 'four'");
  CHECK(error_of(std::string(header) + "svia,0,one_way,30\n").starts_with("t.csv:2: size"));
  CHECK(error_of(std::string(header) + "svia,4,one_way,-1\n") ==
        "t.csv:2: target_us must be a time >= 0 in microseconds, got '-1'");
  CHECK(error_of(std::string(header) + "svia,4,one_way,x\n").starts_with("t.csv:2: target_us"));
  CHECK(error_of(std::string(header) + "svia,4,latency,3\n")
            .starts_with("t.csv:2: unknown quantity 'latency'; valid: send_hdma_prog_desc, "));
  CHECK(error_of(std::string(header) + ",4,one_way,3\n") == "t.csv:2: empty firmware name");
  CHECK(error_of(std::string(header) + "svia,4,one_way,3\n\nsvia,4,one_way,4\n") ==
        "t.csv:4: svia 4 B one_way given twice");
  CHECK(error_of("# only a comment\n") ==
        "t.csv: no header line 'firmware,size,quantity,target_us'");
  CHECK(error_of(header) == "t.csv: no cells");
}

TEST_CASE("an unreadable file is named") {
  CHECK_THROWS_WITH_AS(read_target_table("/no/such/dir/table.csv"),
                       "/no/such/dir/table.csv: cannot read the target table", CalibrationError);
  // A device is refused before a byte is read.
  CHECK_THROWS_WITH_AS(read_target_table("/dev/zero"),
                       "/dev/zero: not a regular file (a directory, device or pipe cannot be read "
                       "as input)",
                       CalibrationError);
}
