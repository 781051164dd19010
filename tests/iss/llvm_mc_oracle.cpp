// Running llvm-mc over batches of words and parsing its answers.
#include "tests/iss/llvm_mc_oracle.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace lanai::test {

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One llvm-mc run; nullopt if it crashed or its output does not account
// for every word.
std::optional<std::vector<OracleAnswer>> run_batch(const std::string& llvm_mc,
                                                   const std::vector<std::uint32_t>& words) {
  const auto dir = std::filesystem::temp_directory_path() /
                   fmt::format("lanai-oracle-{}", static_cast<long>(::getpid()));
  std::filesystem::create_directories(dir);
  const auto in_path = dir / "words.txt";
  {
    std::ofstream in(in_path);
    for (const auto w : words)
      in << fmt::format("0x{:02x} 0x{:02x} 0x{:02x} 0x{:02x}\n", w >> 24, (w >> 16) & 0xFF,
                        (w >> 8) & 0xFF, w & 0xFF);
  }
  const std::string cmd =
      fmt::format("'{}' --disassemble -triple=lanai '{}' > '{}' 2> '{}'", llvm_mc, in_path.string(),
                  (dir / "out.txt").string(), (dir / "err.txt").string());
  const int status = std::system(cmd.c_str());
  const std::string out = read_file(dir / "out.txt");
  const std::string err = read_file(dir / "err.txt");
  std::filesystem::remove_all(dir);
  if (status != 0)
    return std::nullopt;

  std::set<std::size_t> invalid_lines;
  std::istringstream err_lines(err);
  for (std::string line; std::getline(err_lines, line);) {
    if (line.find("invalid instruction encoding") == std::string::npos)
      continue;
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    invalid_lines.insert(std::stoul(line.substr(first + 1, second - first - 1)) - 1);
  }
  std::vector<std::string> texts;
  std::istringstream out_lines(out);
  for (std::string line; std::getline(out_lines, line);) {
    if (line.empty() || line[0] != '\t' || line == "\t.text")
      continue;
    texts.push_back(line.substr(1));
  }
  if (texts.size() + invalid_lines.size() != words.size())
    return std::nullopt;
  std::vector<OracleAnswer> answers(words.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i < words.size(); ++i)
    if (!invalid_lines.count(i))
      answers[i].text = texts[next++];
  return answers;
}

} // namespace

std::vector<OracleAnswer> ask_llvm_mc(const std::string& llvm_mc,
                                      const std::vector<std::uint32_t>& words) {
  if (words.empty())
    return {};
  if (auto answers = run_batch(llvm_mc, words))
    return *answers;
  if (words.size() == 1) {
    OracleAnswer crashed;
    crashed.crashed = true;
    return {crashed};
  }
  const std::vector<std::uint32_t> left(words.begin(), words.begin() + words.size() / 2);
  const std::vector<std::uint32_t> right(words.begin() + words.size() / 2, words.end());
  auto a = ask_llvm_mc(llvm_mc, left);
  auto b = ask_llvm_mc(llvm_mc, right);
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

} // namespace lanai::test
