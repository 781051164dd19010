// A firmware folder's parts: named groups of its objects (parts.txt), in
// link order, which a variant keeps or replaces whole. A shipped VIA
// firmware is made of parts ("common", "pvia", "scheduler", ...); a folder
// without parts.txt is one unnamed group and cannot serve as a base.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lanai::loader {

struct FirmwarePart {
  std::string name;
  std::vector<std::string> objects; // file names in the folder, in link order
};

// The parts listed in FOLDER/parts.txt: one line per part, its name and
// then its objects, separated by spaces; '#' starts a comment line. Empty
// if there is no parts.txt. Throws LoadError, one line naming the file and
// line, for a part without objects, a name used twice or an object listed
// twice.
std::vector<FirmwarePart> read_parts(const std::filesystem::path& folder);

// True if the folder's parts include one called `name`.
bool has_part(const std::filesystem::path& folder, std::string_view name);

// Writes FOLDER/objects.txt (every part's objects, in order) and
// FOLDER/parts.txt, which opens with `comment` (one line, without '#').
// Throws LoadError if either cannot be written.
void write_manifests(const std::filesystem::path& folder, const std::vector<FirmwarePart>& parts,
                     const std::string& comment);

} // namespace lanai::loader
