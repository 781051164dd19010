# Compiling NIC firmware: freestanding C/C++ and assembly for the Lanai target.
# No linker supports Lanai, so firmware stays a set of relocatable objects
# that the emulator's loader links at load time. Installed with the package
# (the firmware SDK compiles variants with the same flags); whoever includes
# it sets LANAI_FIRMWARE_INCLUDE_DIRS, the directories every source sees
# (firmware/include in the tree, include/lanai-emu once installed).

find_program(LANAI_CLANG NAMES clang-14 clang REQUIRED)

# Two clang-14 Lanai code-generation passes miscompile (docs/toolchain.md):
# the compare-folding peephole swaps sub.f operands without swapping the
# condition of a following s<cc>, and the memory/ALU combiner creates
# post-increment stores that the delay-slot filler moves past a loop test.
set(LANAI_FIRMWARE_FLAGS --target=lanai -ffreestanding -fno-builtin -nostdlib
    -mllvm -disable-peephole -mllvm -disable-lanai-mem-alu-combiner
    -Wall -Wextra)
# With SMALL_MODEL: the small code model reaches every global with one
# instruction (a signed 21-bit absolute address: the lowest and the highest
# 1 MiB, where the device registers are) instead of building each address in
# registers; objects too large for that go in .ldata sections, which the
# loader places last (firmware/common/sram_placement.h). Constant hoisting is
# off because it keeps those addresses in registers anyway, and the LANai
# has too few callee-saved ones: they end up spilled to the stack.
set(LANAI_FIRMWARE_SMALL_MODEL_FLAGS -mcmodel=small -mllvm -disable-constant-hoisting)
set(LANAI_FIRMWARE_CXX_FLAGS -std=c++20 -fno-exceptions -fno-rtti)
set(LANAI_FIRMWARE_C_FLAGS -std=c11)
set(LANAI_FIRMWARE_OPT -O2)
# A program that runs each firmware compile (ccache, say), as
# CMAKE_CXX_COMPILER_LAUNCHER does the host's: build trees of one source
# tree (the ci and sanitize presets) then compile each firmware source once.
set(LANAI_FIRMWARE_LAUNCHER "" CACHE STRING
    "Program that runs each firmware compile, e.g. ccache (empty: none)")

# lanai_firmware_objects(<target> [OPT <level>] [SMALL_MODEL] [OUTPUT_DIR dir]
#                        [INCLUDES dirs...] [DEFINES macro=value...] SOURCES files...)
# Compiles each source to <dir>/<name>.o (default dir: <binary dir>/<target>)
# and makes <target> a custom target that builds them. The list of objects
# is stored in the target properties LANAI_OBJECTS (and their folder in
# LANAI_OBJECTS_DIR) and in <dir>/objects.txt.
function(lanai_firmware_objects target)
  cmake_parse_arguments(ARG "SMALL_MODEL" "OPT;OUTPUT_DIR" "SOURCES;INCLUDES;DEFINES" ${ARGN})
  if(NOT ARG_OPT)
    set(ARG_OPT ${LANAI_FIRMWARE_OPT})
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${target})
  endif()
  set(model_flags)
  if(ARG_SMALL_MODEL)
    set(model_flags ${LANAI_FIRMWARE_SMALL_MODEL_FLAGS})
  endif()
  set(objects)
  set(includes)
  foreach(dir IN LISTS LANAI_FIRMWARE_INCLUDE_DIRS ARG_INCLUDES)
    list(APPEND includes -I${dir})
  endforeach()
  foreach(d IN LISTS ARG_DEFINES)
    list(APPEND includes -D${d})
  endforeach()
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME_WE)
    get_filename_component(ext ${src} LAST_EXT)
    set(obj ${ARG_OUTPUT_DIR}/${name}.o)
    set(lang_flags)
    if(ext STREQUAL ".cpp")
      set(lang_flags ${LANAI_FIRMWARE_CXX_FLAGS})
    elseif(ext STREQUAL ".c")
      set(lang_flags ${LANAI_FIRMWARE_C_FLAGS})
    endif()
    # A source compiled the same way for an earlier set (the firmware
    # variants share most of their parts) is copied from that set's object,
    # byte for byte what compiling it again would give.
    set(compile ${LANAI_FIRMWARE_LAUNCHER} ${LANAI_CLANG} ${LANAI_FIRMWARE_FLAGS} ${model_flags}
                ${lang_flags} ${ARG_OPT} ${includes} -c ${abs})
    string(MD5 key "${compile}")
    get_property(compiled GLOBAL PROPERTY LANAI_FIRMWARE_OBJECT_${key})
    if(compiled)
      add_custom_command(
        OUTPUT ${obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
        COMMAND ${CMAKE_COMMAND} -E copy ${compiled} ${obj}
        DEPENDS ${compiled}
        COMMENT "Lanai firmware ${target}/${name}.o (as compiled for another set)"
        VERBATIM)
    else()
      set_property(GLOBAL PROPERTY LANAI_FIRMWARE_OBJECT_${key} ${obj})
      add_custom_command(
        OUTPUT ${obj}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${ARG_OUTPUT_DIR}
        COMMAND ${compile} -MD -MF ${obj}.d -o ${obj}
        DEPENDS ${abs}
        DEPFILE ${obj}.d
        COMMENT "Lanai firmware ${target}/${name}.o"
        VERBATIM)
    endif()
    list(APPEND objects ${obj})
  endforeach()
  # The manifest names exactly the objects of this set (in link order), so
  # stale objects left in the directory are never picked up.
  set(names)
  foreach(obj IN LISTS objects)
    get_filename_component(n ${obj} NAME)
    string(APPEND names "${n}\n")
  endforeach()
  file(WRITE ${ARG_OUTPUT_DIR}/objects.txt "${names}")
  add_custom_target(${target} ALL DEPENDS ${objects})
  set_target_properties(${target} PROPERTIES LANAI_OBJECTS "${objects}"
                        LANAI_OBJECTS_DIR "${ARG_OUTPUT_DIR}")
endfunction()
