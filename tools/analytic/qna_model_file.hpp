// Reading a QNA model file (TOML): stations, services per station and class,
// external arrivals and routes, checked with errors that name the file and
// key. The format is documented in docs/models.md; bench/models/nic-send.toml
// is an example.
#pragma once

#include <filesystem>
#include <string_view>

#include "tools/analytic/qna_network.hpp"

namespace lanai::models {

QnaNetwork parse_qna_model(std::string_view text, std::string_view source);
// Throws with "FILE: cannot open model file" when the file cannot be read.
QnaNetwork load_qna_model(const std::filesystem::path& file);

} // namespace lanai::models
