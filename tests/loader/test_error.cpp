// Every way a link can fail, each reported as one LoadError line naming the
// file and, where it helps, the symbol, section and offset.

#include <doctest/doctest.h>

#include <fmt/format.h>

#include "tests/loader/test_support.hpp"

namespace lanai::loader::test {
namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// main_unit + helper_unit with main_unit replaced by `patched`.
std::string error_with_main(const ObjectInput& patched, const LinkOptions& options = {}) {
  return link_error({patched, test_object("helper_unit")}, options);
}

ViewRela first_relocation(const ObjectView& view, std::string_view section) {
  return view.relocations_for(*view.section_index(section)).at(0);
}

} // namespace

TEST_CASE("an undefined symbol names the file, symbol and referencing site") {
  const std::string message = link_error(objects({"main_unit", "helper_unit", "undefined_ref"}));
  const ObjectView view(test_object("undefined_ref").data);
  std::uint32_t offset = 0;
  for (const ViewRela& r : view.relocations_for(*view.section_index(".text"))) {
    if (view.symbols()[r.symbol].name == "missing_function")
      offset = r.offset;
  }
  CHECK(contains(message, "undefined_ref.o: undefined symbol 'missing_function' referenced from " +
                              fmt::format(".text+{:#x}", offset)));
}

TEST_CASE("a missing entry point") {
  CHECK(link_error(objects({"weak_default"})) == "undefined entry symbol _start");
  CHECK(link_error({}) == "undefined entry symbol _start");
}

TEST_CASE("two strong definitions clash") {
  const std::string message = link_error(objects({"main_unit", "helper_unit", "duplicate_start"}));
  CHECK(contains(message, "duplicate_start.o: duplicate symbol '_start' (first defined in "));
  CHECK(contains(message, "main_unit.o)"));
}

TEST_CASE("relocation errors") {
  ObjectInput main = test_object("main_unit");
  const ObjectView view(main.data);
  const ViewRela first = first_relocation(view, ".text");

  SUBCASE("unknown relocation type") {
    put32(main.data, first.entry_at + 4, (first.symbol << 8) | 9);
    CHECK(contains(
        error_with_main(main),
        fmt::format("main_unit.o: unknown relocation type 9 at .text+{:#x}", first.offset)));
  }
  SUBCASE("symbol index out of range") {
    put32(main.data, first.entry_at + 4, (0xffffu << 8) | first.type);
    const std::string message = error_with_main(main);
    CHECK(contains(message, "symbol index 65535 out of range"));
    CHECK(contains(message, fmt::format(".text+{:#x}", first.offset)));
  }
  SUBCASE("offset outside the section") {
    put32(main.data, first.entry_at, 0x10000);
    CHECK(contains(error_with_main(main), "lies outside section .text"));
  }
  SUBCASE("branch target out of range through the addend") {
    for (const ViewRela& r : view.relocations_for(*view.section_index(".text"))) {
      if (r.type == 3 && view.symbols()[r.symbol].name == "add_values") {
        put32(main.data, r.entry_at + 8, 0x02000000);
        const std::string message = error_with_main(main);
        CHECK(contains(message, fmt::format("main_unit.o: relocation R_LANAI_25 at .text+{:#x} "
                                            "out of range for 'add_values' (0x2",
                                            r.offset)));
        put32(main.data, r.entry_at + 8, 2);
        CHECK(contains(error_with_main(main), "4-byte aligned value for 'add_values'"));
      }
    }
  }
}

TEST_CASE("an image placed above 32 MiB cannot use absolute branches") {
  const LinkOptions high{.base = 1u << 25, .sram_bytes = 1u << 26};
  const std::string message = link_error(objects({"main_unit", "helper_unit"}), high);
  CHECK(contains(message, "main_unit.o: relocation R_LANAI_25 at .text+0x"));
  CHECK(contains(message, "out of range for '"));
  CHECK(contains(message, "(0x2"));
}

TEST_CASE("21-bit addresses cannot reach the middle of memory") {
  const LinkOptions above{.base = 1u << 20};
  const std::string message = link_error(objects({"small_model"}), above);
  CHECK(contains(message, "small_model.o: relocation R_LANAI_21 at .text+0x0 out of range for "
                          "'small_word' (0x10"));
}

TEST_CASE("an image that does not fit in SRAM") {
  const LinkedImage image = link(objects({"main_unit", "helper_unit"}), {});
  const std::uint32_t size = image.image_end - image.base;
  const LinkOptions tight{.sram_bytes = size + 16384 - 1};
  CHECK(link_error(objects({"main_unit", "helper_unit"}), tight) ==
        fmt::format("image ({} bytes) plus stack reserve (16384) overflows SRAM ({} bytes)", size,
                    size + 16383));
  CHECK_NOTHROW(
      link(objects({"main_unit", "helper_unit"}), LinkOptions{.sram_bytes = size + 16384}));

  // A 2 GiB bss is reported, not allocated.
  ObjectInput main = test_object("main_unit");
  const ObjectView view(main.data);
  put32(main.data, view.sections()[*view.section_index(".bss")].header_at + 20, 0x80000000);
  CHECK(contains(error_with_main(main), "overflows SRAM (2097152 bytes)"));
}

TEST_CASE("header checks") {
  ObjectInput main = test_object("main_unit");
  SUBCASE("wrong machine") {
    put16(main.data, 18, 62);
    CHECK(error_with_main(main).ends_with("main_unit.o: not a Lanai object (e_machine 62)"));
  }
  SUBCASE("not ELF") {
    main.data = {'h', 'e', 'l', 'l', 'o', '\n'};
    CHECK(error_with_main(main).ends_with("main_unit.o: not an ELF file"));
    main.data.clear();
    CHECK(error_with_main(main).ends_with("main_unit.o: not an ELF file"));
  }
  SUBCASE("wrong class") {
    main.data[4] = 2;
    CHECK(contains(error_with_main(main), "not a 32-bit ELF file (class 2)"));
  }
  SUBCASE("wrong endianness") {
    main.data[5] = 1;
    CHECK(contains(error_with_main(main), "not a big-endian ELF file (data encoding 1)"));
  }
  SUBCASE("not relocatable") {
    put16(main.data, 16, 2);
    CHECK(contains(error_with_main(main), "not a relocatable object (e_type 2)"));
  }
  SUBCASE("section header size") {
    put16(main.data, 46, 64);
    CHECK(contains(error_with_main(main), "bad section header size 64 (expected 40)"));
  }
  SUBCASE("misaligned section header table") {
    put32(main.data, 32, get32(main.data, 32) - 2);
    CHECK(contains(error_with_main(main), "misaligned section header table"));
  }
  SUBCASE("no section headers") {
    put16(main.data, 48, 0);
    CHECK(contains(error_with_main(main), "no section headers"));
  }
  SUBCASE("bad section name table index") {
    put16(main.data, 50, 0x7fff);
    CHECK(contains(error_with_main(main), "bad section name table index 32767"));
  }
  SUBCASE("truncated header") {
    main.data.resize(30);
    CHECK(contains(error_with_main(main), "main_unit.o: truncated (ELF header)"));
  }
  SUBCASE("truncated section header table") {
    main.data.resize(main.data.size() - 1);
    CHECK(contains(error_with_main(main),
                   "main_unit.o: truncated (section header table past end of file)"));
  }
}

TEST_CASE("table checks") {
  ObjectInput main = test_object("main_unit");
  const ObjectView view(main.data);
  const ViewSection& symtab = view.sections()[*view.section_index(".symtab")];

  SUBCASE("bad section index in a symbol") {
    put16(main.data, view.symbols()[*view.symbol_index("_start")].entry_at + 14, 200);
    CHECK(
        contains(error_with_main(main), "main_unit.o: symbol '_start' has bad section index 200"));
  }
  SUBCASE("reserved section index in a symbol") {
    put16(main.data, view.symbols()[*view.symbol_index("_start")].entry_at + 14, 0xff10);
    CHECK(contains(error_with_main(main), "symbol '_start' has bad section index 0xff10"));
  }
  SUBCASE("symbol value beyond its section") {
    put32(main.data, view.symbols()[*view.symbol_index("_start")].entry_at + 4, 0x100000);
    CHECK(contains(error_with_main(main),
                   "symbol '_start' value 0x100000 lies outside section .text"));
  }
  SUBCASE("bad symbol name offset") {
    put32(main.data, view.symbols()[*view.symbol_index("_start")].entry_at, 0xffffff);
    CHECK(contains(error_with_main(main), "has bad name offset 0xffffff"));
  }
  SUBCASE("bad section name offset") {
    put32(main.data, view.sections()[2].header_at, 0x7fffffff);
    CHECK(contains(error_with_main(main), "section [2] has bad name offset 0x7fffffff"));
  }
  SUBCASE("symbol table overlapping code") {
    put32(main.data, symtab.header_at + 16, view.sections()[*view.section_index(".text")].offset);
    CHECK(contains(error_with_main(main), "overlaps"));
  }
  SUBCASE("misaligned symbol table") {
    put32(main.data, symtab.header_at + 16, symtab.offset + 2);
    put32(main.data, symtab.header_at + 20, symtab.size - 16);
    CHECK(contains(error_with_main(main), "misaligned symbol table"));
  }
  SUBCASE("symbol table entry size") {
    put32(main.data, symtab.header_at + 36, 24);
    CHECK(contains(error_with_main(main), "symbol table entry size 24 (expected 16)"));
  }
  SUBCASE("section contents past the end of the file") {
    put32(main.data, symtab.header_at + 20, 0xfffffff0);
    CHECK(contains(error_with_main(main),
                   fmt::format("truncated (section [{}] contents past end of file)",
                               *view.section_index(".symtab"))));
  }
  SUBCASE("bad section alignment") {
    put32(main.data, view.sections()[2].header_at + 32, 12);
    CHECK(contains(error_with_main(main), "section [2] has bad alignment 12"));
  }
}

TEST_CASE("a symbol that the linker defines may not be defined by an object") {
  ObjectInput main = test_object("main_unit");
  const ObjectView view(main.data);
  // Rename "main_result" in place to "__bss_end\0..." (same string table slot).
  const ViewSymbol& s = view.symbols()[*view.symbol_index("main_result")];
  const ViewSection& strings =
      view.sections()[view.sections()[*view.section_index(".symtab")].link];
  const std::size_t at = strings.offset + get32(main.data, s.entry_at);
  const std::string reserved = "__bss_end";
  std::copy(reserved.begin(), reserved.end(), main.data.begin() + static_cast<std::ptrdiff_t>(at));
  main.data[at + reserved.size()] = 0;
  CHECK(contains(error_with_main(main),
                 "main_unit.o: symbol '__bss_end' is reserved for the linker"));
}

TEST_CASE("reading object files") {
  const ObjectInput& input = test_object("main_unit");
  CHECK(input.name.ends_with("main_unit.o"));
  CHECK(input.data.size() > 52);
  CHECK_THROWS_AS(read_object_file("/nonexistent/dir/x.o"), LoadError);
  try {
    (void)read_object_file("/nonexistent/dir/x.o");
  } catch (const LoadError& error) {
    CHECK(contains(error.what(), "/nonexistent/dir/x.o"));
  }
}

} // namespace lanai::loader::test
