// A firmware variant: a base firmware's parts with some replaced by the
// variant's own objects. The rule: every part of the base that defines a
// (strong) global symbol the variant's objects also define is dropped whole;
// the variant's objects become one part, in the place and under the name of
// the first part they replace (the variant folder's name if they replace
// none). A part's other symbols are then the variant's to define: a missing
// one is an undefined symbol when the firmware is linked.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/firmware_parts.hpp"

namespace lanai::loader {

struct VariantPlan {
  std::vector<FirmwarePart> parts;   // the variant's, in link order
  std::vector<std::string> replaced; // names of the base's parts it drops
  std::string own_part;              // the part its objects form
};

// Plans the variant of `base` made of `objects` (LANai objects, read and
// checked here) for the folder called `name`. Throws LoadError: a base
// without parts, no objects, an object that is not a LANai object, two
// objects or an object and a kept base object of the same file name.
VariantPlan plan_variant(const FirmwareSource& base, std::span<const std::filesystem::path> objects,
                         const std::string& name);

// Plans the variant and writes it to `folder` (made if missing): the kept
// objects of the base and the variant's objects copied in, objects.txt and
// parts.txt. Returns the plan.
VariantPlan assemble_variant(const FirmwareSource& base,
                             std::span<const std::filesystem::path> objects,
                             const std::filesystem::path& folder);

// The strong global symbols an object defines (names as in the file).
std::vector<std::string> defined_symbols(const std::filesystem::path& object);
// A symbol as its source spells it: C++ names demangled, others unchanged.
std::string demangle(std::string_view name);

} // namespace lanai::loader
