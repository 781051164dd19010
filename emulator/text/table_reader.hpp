// Reading one table of a TOML input file (an experiment file, a queueing
// model file) with checked keys: every value is
// fetched by name with its expected type, unknown keys are refused (typos
// are caught), and every complaint names the file, the dotted key and the
// problem, as `file: class[2].rate_MBps: must be > 0 (got -1)`.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

namespace lanai::text {

// A bad input file or option; what() is the whole one-line message.
class InputError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void input_error(std::string_view source, std::string_view key,
                              std::string_view problem);

class TableReader {
public:
  // `prefix`: the dotted path of the table itself ("" for the top level).
  TableReader(const toml::table& table, std::string source, std::string prefix);

  // Refuses any key of the table outside `allowed` (with a hint when a
  // known key is a near miss).
  void allow_only(const std::vector<std::string_view>& allowed) const;

  bool has(std::string_view key) const;
  std::optional<std::string> string(std::string_view key) const;
  std::string required_string(std::string_view key) const;
  // Integers are accepted where a number is expected.
  std::optional<double> number(std::string_view key) const;
  double required_number(std::string_view key) const;
  std::optional<std::int64_t> integer(std::string_view key) const;
  std::int64_t required_integer(std::string_view key) const;
  std::optional<std::vector<std::string>> string_array(std::string_view key) const;
  std::optional<std::vector<std::int64_t>> integer_array(std::string_view key) const;
  // Integers are accepted as numbers here too.
  std::optional<std::vector<double>> number_array(std::string_view key) const;
  // A sub-table, or null if absent.
  const toml::table* table(std::string_view key) const;
  // An array of any elements, or null if absent.
  const toml::array* array(std::string_view key) const;
  // An array of tables ([[key]]), or null if absent.
  const toml::array* table_array(std::string_view key) const;

  // The full dotted name of `key` in this table, e.g. "class[2].rate_MBps".
  std::string path(std::string_view key) const;
  const std::string& source() const { return source_; }
  [[noreturn]] void fail(std::string_view key, std::string_view problem) const;

private:
  const toml::node* node(std::string_view key) const;
  // A number node's value as a double, exactly, or the failure naming `key`.
  double number_of(std::string_view key, const toml::node& n) const;

  const toml::table& table_;
  std::string source_;
  std::string prefix_;
};

// Parses TOML text; a syntax error becomes `source:line:column: problem`.
toml::table parse_toml(std::string_view text, std::string_view source);

} // namespace lanai::text
