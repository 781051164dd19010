# The firmware SDK's CMake function: a variant of a shipped VIA firmware
# built from a few sources (docs/firmware-variants.md). Used in the tree
# and installed with the package; whoever includes it (the top-level
# CMakeLists.txt, or LanaiEmuConfig.cmake once installed) first sets
#   LANAI_EMU_FIRMWARE_ROOT    the folder of the shipped firmware folders
#   LANAI_EMU_EXECUTABLE       lanai-emu (a path, or the target in the tree)
#   LANAI_EMU_VIA_INCLUDE_DIR  the folder holding common/ (the VIA headers)
# and includes LanaiFirmware.cmake (the compiler and its flags).
#
# lanai_emu_add_via_firmware(NAME <name> BASE <shipped firmware>
#                            SOURCES <files>... [INCLUDES <dirs>...] [OPT <level>])
# Compiles SOURCES for the LANai with the flags the shipped firmware is
# built with (the clang-14 workarounds, the small code model, OPT or -O2),
# then writes the firmware folder <binary dir>/<name> with
# `lanai-emu firmware variant`: BASE's parts, less every part that defines
# a (strong) global symbol the sources also define, plus the sources'
# objects as one part; objects.txt and parts.txt beside them. Makes target
# <name>, built by default. A BASE that is not shipped stops the
# configuration with one line naming it and the shipped ones.
function(lanai_emu_add_via_firmware)
  cmake_parse_arguments(ARG "" "NAME;BASE;OPT" "SOURCES;INCLUDES" ${ARGN})
  set(me "lanai_emu_add_via_firmware")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${me}: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z0-9][A-Za-z0-9._-]*$")
    message(FATAL_ERROR "${me}: NAME '${ARG_NAME}' must be letters, digits, '.', '_' or '-' "
                        "(it names the firmware folder and the results)")
  endif()
  set(me "${me}(${ARG_NAME})")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${me}: no SOURCES")
  endif()
  if(NOT ARG_OPT)
    set(ARG_OPT ${LANAI_FIRMWARE_OPT})
  endif()

  # The shipped firmwares: those the tree builds, or the installed folders
  # made of parts.
  get_property(shipped GLOBAL PROPERTY LANAI_EMU_SHIPPED_FIRMWARES)
  if(NOT shipped)
    file(GLOB manifests RELATIVE ${LANAI_EMU_FIRMWARE_ROOT} ${LANAI_EMU_FIRMWARE_ROOT}/*/parts.txt)
    foreach(manifest IN LISTS manifests)
      get_filename_component(dir ${manifest} DIRECTORY)
      list(APPEND shipped ${dir})
    endforeach()
    list(SORT shipped)
  endif()
  if(NOT ARG_BASE)
    message(FATAL_ERROR "${me}: no BASE (a shipped firmware: ${shipped})")
  endif()
  if(NOT ARG_BASE IN_LIST shipped)
    list(JOIN shipped ", " known)
    message(FATAL_ERROR "${me}: BASE '${ARG_BASE}' is not a shipped firmware "
                        "(shipped: ${known}; in ${LANAI_EMU_FIRMWARE_ROOT})")
  endif()

  set(objects_dir ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}.objects)
  lanai_firmware_objects(${ARG_NAME}_objects OPT ${ARG_OPT} SMALL_MODEL OUTPUT_DIR ${objects_dir}
    INCLUDES ${LANAI_EMU_VIA_INCLUDE_DIR} ${ARG_INCLUDES}
    SOURCES ${ARG_SOURCES})
  get_target_property(objects ${ARG_NAME}_objects LANAI_OBJECTS)

  set(base_dir ${LANAI_EMU_FIRMWARE_ROOT}/${ARG_BASE})
  set(base_depends ${base_dir}/objects.txt)
  if(TARGET lanai_${ARG_BASE})
    # In the tree the base is built too: wait for its objects.
    get_target_property(base_depends lanai_${ARG_BASE} LANAI_OBJECTS)
  endif()
  set(folder ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME})
  add_custom_command(
    OUTPUT ${folder}/objects.txt ${folder}/parts.txt
    COMMAND ${LANAI_EMU_EXECUTABLE} firmware variant --base ${base_dir} --out ${folder} ${objects}
    DEPENDS ${objects} ${base_depends} ${LANAI_EMU_EXECUTABLE}
    COMMENT "Lanai firmware variant ${ARG_NAME}: ${ARG_BASE} with its own part"
    VERBATIM)
  add_custom_target(${ARG_NAME} ALL DEPENDS ${folder}/objects.txt)
  if(TARGET lanai_${ARG_BASE})
    add_dependencies(${ARG_NAME} lanai_${ARG_BASE})
  endif()
  set_target_properties(${ARG_NAME} PROPERTIES LANAI_FIRMWARE_DIR ${folder})
endfunction()
