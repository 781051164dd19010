// Firmware folders: finding them by path and their labels, parts.txt, and
// the variant rule (a base part is replaced whole when the variant defines
// one of its strong symbols; weak copies do not count), with every error.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/loader/firmware_parts.hpp"
#include "emulator/loader/firmware_variant.hpp"
#include "emulator/loader/object_input.hpp"

namespace {

namespace fs = std::filesystem;
using namespace lanai::loader;

fs::path object_path(const std::string& name) {
  return fs::path(LANAI_LOADER_TEST_OBJECTS) / (name + ".o");
}

// A fresh scratch folder for one test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(LANAI_LOADER_TEST_SCRATCH) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_file(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

// The base of the variant tests: part a (parts_a.o), part b (parts_b.o).
FirmwareSource make_base(const std::string& name) {
  const fs::path dir = scratch(name);
  fs::copy_file(object_path("parts_a"), dir / "parts_a.o");
  fs::copy_file(object_path("parts_b"), dir / "parts_b.o");
  write_manifests(dir, {{"a", {"parts_a.o"}}, {"b", {"parts_b.o"}}}, "the test base");
  return find_firmware((dir).string());
}

std::string load_error(auto&& action) {
  try {
    action();
  } catch (const LoadError& e) {
    const std::string message = e.what();
    CHECK_MESSAGE(message.find('\n') == std::string::npos, "multi-line message: " << message);
    return message;
  }
  FAIL("no LoadError");
  return "";
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST_CASE("a value with a '/' is a folder, labelled by its own name") {
  const FirmwareSource base = make_base("label");
  CHECK(base.label == "label");
  CHECK_FALSE(base.shipped);
  CHECK(firmware_objects(base).size() == 2);
  CHECK(names_firmware_folder("./x"));
  CHECK_FALSE(names_firmware_folder("pvia"));
  // Relative to a base folder, with a trailing '/' or a leading "./".
  const fs::path parent = fs::path(LANAI_LOADER_TEST_SCRATCH);
  const FirmwareSource slash = find_firmware("./label/", parent);
  CHECK(slash.label == "label");
  CHECK(slash.folder == parent / "label");
  const FirmwareSource dotted = find_firmware("../scratch/label", parent);
  CHECK(dotted.label == "label");
  CHECK(dotted.value().find('/') != std::string::npos);
}

TEST_CASE("a folder that cannot be a firmware says why in one line") {
  const fs::path dir = scratch("bad-folders");
  CHECK(load_error([&] {
          find_firmware((dir / "absent").string());
        }).ends_with("absent: no such folder"));
  write_file(dir / "plain-file", "x");
  CHECK(load_error([&] {
          find_firmware((dir / "plain-file").string());
        }).ends_with("plain-file: not a folder"));
  fs::create_directories(dir / "empty");
  CHECK(load_error([&] { find_firmware((dir / "empty").string()); })
            .ends_with("empty: no objects.txt (a firmware folder lists its objects there, in link "
                       "order)"));
  fs::create_directories(dir / "blank");
  write_file(dir / "blank/objects.txt", "\n# nothing\n");
  CHECK(load_error([&] {
          find_firmware((dir / "blank").string());
        }).ends_with("blank: objects.txt lists no objects"));
  fs::create_directories(dir / "gone");
  write_file(dir / "gone/objects.txt", "missing.o\n");
  CHECK(load_error([&] {
          find_firmware((dir / "gone").string());
        }).ends_with("gone: objects.txt lists missing.o, which is not there"));
  CHECK(load_error([&] {
          find_firmware("no-such-firmware");
        }).starts_with("unknown firmware 'no-such-firmware' (known: "));
}

TEST_CASE("parts.txt: names and objects, each once") {
  const fs::path dir = scratch("parts");
  write_file(dir / "parts.txt", "# comment\ncommon x.o y.o\n\nengine z.o\n");
  const auto parts = read_parts(dir);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].name == "common");
  CHECK(parts[0].objects == std::vector<std::string>{"x.o", "y.o"});
  CHECK(has_part(dir, "engine"));
  CHECK_FALSE(has_part(dir, "scheduler"));
  CHECK(read_parts(scratch("no-parts")).empty());
  write_file(dir / "parts.txt", "common x.o\nlonely\n");
  CHECK(
      load_error([&] { read_parts(dir); }).ends_with("parts.txt:2: part lonely lists no objects"));
  write_file(dir / "parts.txt", "common x.o\ncommon y.o\n");
  CHECK(load_error([&] { read_parts(dir); }).ends_with("parts.txt:2: part common is listed twice"));
  write_file(dir / "parts.txt", "common x.o\nengine x.o\n");
  CHECK(
      load_error([&] { read_parts(dir); }).ends_with("parts.txt:2: x.o is already in part common"));
}

TEST_CASE("a variant replaces the parts whose strong symbols it defines, in their place") {
  const FirmwareSource base = make_base("base-replace");
  const std::vector<fs::path> own{object_path("variant_b")};
  const VariantPlan plan = plan_variant(base, own, "v");
  // variant_b.o defines beta() (part b) and the weak helper parts a and b carry.
  CHECK(plan.replaced == std::vector<std::string>{"b"});
  CHECK(plan.own_part == "b");
  REQUIRE(plan.parts.size() == 2);
  CHECK(plan.parts[0].name == "a");
  CHECK(plan.parts[1].objects == std::vector<std::string>{"variant_b.o"});

  const fs::path out = fs::path(LANAI_LOADER_TEST_SCRATCH) / "v-out";
  fs::remove_all(out);
  assemble_variant(base, own, out);
  CHECK(text_of(out / "objects.txt") == "parts_a.o\nvariant_b.o\n");
  CHECK(text_of(out / "parts.txt") ==
        "# Firmware v-out: base-replace with part b replaced. Each line a part's name, then its "
        "objects in link order.\na parts_a.o\nb variant_b.o\n");
  CHECK(fs::exists(out / "variant_b.o"));
  CHECK_FALSE(fs::exists(out / "parts_b.o"));
  const FirmwareSource made = find_firmware(out.string());
  CHECK(made.label == "v-out");
}

TEST_CASE("a variant that replaces nothing adds a part named after it, last") {
  const FirmwareSource base = make_base("base-add");
  const std::vector<fs::path> own{object_path("variant_new")};
  const VariantPlan plan = plan_variant(base, own, "extra");
  CHECK(plan.replaced.empty());
  REQUIRE(plan.parts.size() == 3);
  CHECK(plan.parts[2].name == "extra");
  CHECK(plan.parts[2].objects == std::vector<std::string>{"variant_new.o"});
}

TEST_CASE("variant errors: no parts, no objects, names that clash, objects that are not LANai") {
  const FirmwareSource base = make_base("base-errors");
  const fs::path dir = scratch("variant-errors");
  CHECK(load_error([&] { plan_variant(base, {}, "v"); }) ==
        "firmware variant v: no objects of its own");

  // A folder without parts.txt cannot serve as a base.
  fs::create_directories(dir / "flat");
  fs::copy_file(object_path("parts_a"), dir / "flat/parts_a.o");
  write_file(dir / "flat/objects.txt", "parts_a.o\n");
  const std::vector<fs::path> own{object_path("variant_new")};
  CHECK(load_error([&] { plan_variant(find_firmware((dir / "flat").string()), own, "v"); }) ==
        "firmware variant v: base flat has no parts.txt, so no parts to keep or replace");

  // An object called as one of a part the variant keeps.
  fs::create_directories(dir / "clash");
  fs::copy_file(object_path("variant_new"), dir / "clash/parts_a.o");
  const std::vector<fs::path> clash{dir / "clash/parts_a.o"};
  CHECK(load_error([&] { plan_variant(base, clash, "v"); }) ==
        "firmware variant v: parts_a.o is also an object of part a of base-errors, which it "
        "keeps: rename the source");
  const std::vector<fs::path> twice{object_path("variant_new"), object_path("variant_new")};
  CHECK(load_error([&] { plan_variant(base, twice, "v"); }) ==
        "firmware variant v: two objects are called variant_new.o");

  // Not an object at all (the CLI tests give a host compiler's object).
  write_file(dir / "text.o", "not an object");
  const std::vector<fs::path> text{dir / "text.o"};
  CHECK(load_error([&] { plan_variant(base, text, "v"); }).ends_with("text.o: not an ELF file"));
}

TEST_CASE("symbols are shown as their source spells them") {
  CHECK(demangle("_ZN3via12stamp_servedEy") == "via::stamp_served(unsigned long long)");
  CHECK(demangle("alpha") == "alpha");
  const auto defined = defined_symbols(object_path("variant_b"));
  CHECK(defined == std::vector<std::string>{"beta"});
}
