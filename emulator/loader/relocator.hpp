// Applies the relocations of every placed section to the linked image,
// resolving each referenced symbol to its final SRAM address.
#pragma once

#include <span>
#include <vector>

#include "emulator/loader/elf_object.hpp"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/loader/section_layout.hpp"

namespace lanai::loader {

// `image.symbols` must already hold the final global and linker-defined
// symbols; an undefined non-weak reference is an error.
void apply_relocations(std::span<const ElfObject> objects,
                       const std::vector<std::vector<bool>>& kept, const Layout& layout,
                       LinkedImage& image);

} // namespace lanai::loader
