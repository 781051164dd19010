// Assembling a variant folder from a base firmware's parts and the
// variant's objects, by the replacement rule of firmware_variant.hpp. Only
// strong definitions count: the weak copies of inline functions every
// object that uses a shared header carries must not make a variant replace
// parts it never meant to.
#include "emulator/loader/firmware_variant.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/elf_object.hpp"
#include "emulator/loader/object_input.hpp"

namespace lanai::loader {

namespace {

namespace fs = std::filesystem;

std::string folder_name(const fs::path& folder) {
  fs::path p = folder.lexically_normal();
  if (p.filename().empty())
    p = p.parent_path();
  return p.filename().string();
}

[[noreturn]] void variant_error(const std::string& name, std::string_view what) {
  throw LoadError(fmt::format("firmware variant {}: {}", detail::printable(name), what));
}

} // namespace

std::vector<std::string> defined_symbols(const fs::path& object) {
  const ObjectInput input = read_object_file(object);
  const ElfObject elf = ElfObject::parse(input);
  std::vector<std::string> names;
  for (const ElfSymbol& s : elf.symbols())
    if (!s.local() && !s.weak() && !s.undefined() && !s.name.empty())
      names.emplace_back(s.name);
  return names;
}

std::string demangle(std::string_view name) { return detail::demangled(name); }

VariantPlan plan_variant(const FirmwareSource& base, std::span<const fs::path> objects,
                         const std::string& name) {
  const std::vector<FirmwarePart> base_parts = read_parts(base.folder);
  if (base_parts.empty())
    variant_error(name, fmt::format("base {} has no parts.txt, so no parts to keep or replace",
                                    detail::printable(base.label)));
  if (objects.empty())
    variant_error(name, "no objects of its own");

  std::set<std::string> own_symbols;
  std::vector<std::string> own_names;
  for (const fs::path& object : objects) {
    const std::string file = object.filename().string();
    if (std::find(own_names.begin(), own_names.end(), file) != own_names.end())
      variant_error(name, fmt::format("two objects are called {}", detail::printable(file)));
    own_names.push_back(file);
    for (std::string& symbol : defined_symbols(object))
      own_symbols.insert(std::move(symbol));
  }

  VariantPlan plan;
  std::size_t own_place = base_parts.size();
  for (std::size_t i = 0; i < base_parts.size(); ++i) {
    bool overlaps = false;
    for (const std::string& object : base_parts[i].objects) {
      for (const std::string& symbol : defined_symbols(base.folder / object))
        overlaps = overlaps || own_symbols.contains(symbol);
      if (overlaps)
        break;
    }
    if (!overlaps)
      continue;
    plan.replaced.push_back(base_parts[i].name);
    own_place = std::min(own_place, i);
  }
  plan.own_part = plan.replaced.empty() ? name : plan.replaced.front();
  for (std::size_t i = 0; i <= base_parts.size(); ++i) {
    if (i == own_place)
      plan.parts.push_back({plan.own_part, own_names});
    if (i == base_parts.size())
      break;
    const FirmwarePart& part = base_parts[i];
    if (std::find(plan.replaced.begin(), plan.replaced.end(), part.name) != plan.replaced.end())
      continue;
    if (part.name == plan.own_part)
      variant_error(name, fmt::format("its part would be called {}, as a part it keeps",
                                      detail::printable(part.name)));
    for (const std::string& object : part.objects)
      if (std::find(own_names.begin(), own_names.end(), object) != own_names.end())
        variant_error(name, fmt::format("{} is also an object of part {} of {}, which it keeps: "
                                        "rename the source",
                                        detail::printable(object), part.name,
                                        detail::printable(base.label)));
    plan.parts.push_back(part);
  }
  return plan;
}

VariantPlan assemble_variant(const FirmwareSource& base, std::span<const fs::path> objects,
                             const fs::path& folder) {
  const std::string name = folder_name(folder);
  VariantPlan plan = plan_variant(base, objects, name);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    variant_error(
        name, fmt::format("cannot make {}: {}", detail::printable(folder.string()), ec.message()));
  auto copy = [&](const fs::path& from, const std::string& file) {
    const fs::path to = folder / file;
    // Copying an object onto itself (the variant built in its own folder) is a no-op.
    if (fs::equivalent(from, to, ec))
      return;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec)
      variant_error(name, fmt::format("cannot copy {} to {}: {}", detail::printable(from.string()),
                                      detail::printable(to.string()), ec.message()));
  };
  for (const FirmwarePart& part : plan.parts) {
    if (part.name == plan.own_part)
      continue;
    for (const std::string& object : part.objects)
      copy(base.folder / object, object);
  }
  for (const fs::path& object : objects)
    copy(object, object.filename().string());
  const std::string what =
      plan.replaced.empty() ? fmt::format("part {} added", plan.own_part)
                            : fmt::format("part{} {} replaced", plan.replaced.size() > 1 ? "s" : "",
                                          fmt::join(plan.replaced, ", "));
  write_manifests(folder, plan.parts,
                  fmt::format("Firmware {}: {} with {}. Each line a part's name, then its "
                              "objects in link order.",
                              name, base.label, what));
  return plan;
}

} // namespace lanai::loader
