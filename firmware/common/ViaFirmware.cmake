# Building one VIA firmware variant: its own sources plus the pieces every
# variant shares (device access, descriptors, the VI table, packets, the
# configuration block), compiled into one object set under the name the
# emulator looks firmware up by.
#
# lanai_via_firmware(<name> SOURCES files...)
# Makes target lanai_<name> with its objects and objects.txt in
# <binary dir>/lanai_<name>/ and installs them to
# share/lanai-emu/firmware/<name>. Sources include the shared headers as
# "common/<file>.h".
function(lanai_via_firmware name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  set(common ${PROJECT_SOURCE_DIR}/firmware/common)
  set(target lanai_${name})
  lanai_firmware_objects(${target} OPT -O2 SMALL_MODEL
    INCLUDES ${PROJECT_SOURCE_DIR}/firmware
    SOURCES
      ${common}/nic_config.cpp
      ${common}/devices.cpp
      ${common}/descriptor.cpp
      ${common}/via_counters.cpp
      ${common}/doorbells.cpp
      ${common}/arrival_checks.cpp
      ${ARG_SOURCES})
  get_target_property(objects ${target} LANAI_OBJECTS)
  install(FILES ${objects} ${CMAKE_CURRENT_BINARY_DIR}/${target}/objects.txt
          DESTINATION ${CMAKE_INSTALL_DATADIR}/lanai-emu/firmware/${name})
endfunction()
