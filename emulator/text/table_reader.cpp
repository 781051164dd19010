// Checked reading of TOML input tables: typed values by key, refused
// unknown keys, and one message format for every complaint.
#include "emulator/text/table_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lanai::text {

namespace {

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a number";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::table:
    return "a table";
  default:
    return "a date or time";
  }
}

// Edit distance, to suggest the key a typo was meant to be.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

} // namespace

void input_error(std::string_view source, std::string_view key, std::string_view problem) {
  throw InputError(fmt::format("{}: {}: {}", source, key, problem));
}

TableReader::TableReader(const toml::table& table, std::string source, std::string prefix)
    : table_(table), source_(std::move(source)), prefix_(std::move(prefix)) {}

std::string TableReader::path(std::string_view key) const {
  return prefix_.empty() ? std::string(key) : fmt::format("{}.{}", prefix_, key);
}

void TableReader::fail(std::string_view key, std::string_view problem) const {
  input_error(source_, path(key), problem);
}

void TableReader::allow_only(const std::vector<std::string_view>& allowed) const {
  for (const auto& [k, value] : table_) {
    const std::string_view key = k.str();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
      continue;
    std::string_view best;
    std::size_t best_distance = 3;
    for (const std::string_view known : allowed) {
      const std::size_t d = distance(key, known);
      if (d < best_distance) {
        best = known;
        best_distance = d;
      }
    }
    fail(key, best.empty() ? std::string("unknown key")
                           : fmt::format("unknown key (did you mean '{}'?)", best));
  }
}

const toml::node* TableReader::node(std::string_view key) const { return table_.get(key); }

bool TableReader::has(std::string_view key) const { return node(key) != nullptr; }

std::optional<std::string> TableReader::string(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  if (!n->is_string())
    fail(key, fmt::format("must be a string (got {})", type_name(*n)));
  return n->value<std::string>();
}

std::string TableReader::required_string(std::string_view key) const {
  auto v = string(key);
  if (!v)
    fail(key, "missing (a string is required)");
  return *v;
}

double TableReader::number_of(std::string_view key, const toml::node& n) const {
  if (!n.is_number())
    fail(key, fmt::format("must be a number (got {})", type_name(n)));
  // An integer a double cannot hold exactly has no value<double>().
  const std::optional<double> v = n.value<double>();
  if (!v)
    fail(key, fmt::format("must be a number a double holds exactly, within +-2^53 when written "
                          "as an integer (got {})",
                          *n.value<std::int64_t>()));
  if (!std::isfinite(*v))
    fail(key, "must be a finite number");
  return *v;
}

std::optional<double> TableReader::number(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  return number_of(key, *n);
}

double TableReader::required_number(std::string_view key) const {
  auto v = number(key);
  if (!v)
    fail(key, "missing (a number is required)");
  return *v;
}

std::optional<std::int64_t> TableReader::integer(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  if (!n->is_integer())
    fail(key, fmt::format("must be an integer (got {})", type_name(*n)));
  return n->value<std::int64_t>();
}

std::int64_t TableReader::required_integer(std::string_view key) const {
  auto v = integer(key);
  if (!v)
    fail(key, "missing (an integer is required)");
  return *v;
}

std::optional<std::vector<std::string>> TableReader::string_array(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  const toml::array* a = n->as_array();
  if (!a)
    fail(key, fmt::format("must be an array of strings (got {})", type_name(*n)));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    if (!e.is_string())
      fail(fmt::format("{}[{}]", key, i + 1),
           fmt::format("must be a string (got {})", type_name(e)));
    out.push_back(*e.value<std::string>());
  }
  return out;
}

std::optional<std::vector<std::int64_t>> TableReader::integer_array(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  const toml::array* a = n->as_array();
  if (!a)
    fail(key, fmt::format("must be an array of integers (got {})", type_name(*n)));
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::node& e = *a->get(i);
    if (!e.is_integer())
      fail(fmt::format("{}[{}]", key, i + 1),
           fmt::format("must be an integer (got {})", type_name(e)));
    out.push_back(*e.value<std::int64_t>());
  }
  return out;
}

std::optional<std::vector<double>> TableReader::number_array(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return std::nullopt;
  const toml::array* a = n->as_array();
  if (!a)
    fail(key, fmt::format("must be an array of numbers (got {})", type_name(*n)));
  std::vector<double> out;
  for (std::size_t i = 0; i < a->size(); ++i)
    out.push_back(number_of(fmt::format("{}[{}]", key, i + 1), *a->get(i)));
  return out;
}

const toml::table* TableReader::table(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return nullptr;
  if (!n->is_table())
    fail(key, fmt::format("must be a table (got {})", type_name(*n)));
  return n->as_table();
}

const toml::array* TableReader::table_array(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return nullptr;
  const toml::array* a = n->as_array();
  if (!a || !a->is_array_of_tables())
    fail(key,
         fmt::format("must be an array of tables, written [[{}]] (got {})", key, type_name(*n)));
  return a;
}

const toml::array* TableReader::array(std::string_view key) const {
  const toml::node* n = node(key);
  if (!n)
    return nullptr;
  const toml::array* a = n->as_array();
  if (!a)
    fail(key, fmt::format("must be an array (got {})", type_name(*n)));
  return a;
}

toml::table parse_toml(std::string_view text, std::string_view source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError(fmt::format("{}:{}:{}: {}", source, b.line, b.column, e.description()));
  }
}

} // namespace lanai::text
