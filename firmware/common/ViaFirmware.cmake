# Building one shipped VIA firmware as named parts: groups of objects a
# variant can keep or replace whole (docs/firmware-variants.md). Every VIA
# firmware starts with part "common" (device access, descriptors, the VI
# table, packets, doorbells, arrival checks, the shared counters); its own
# parts follow, e.g. PVIA's engine, its fragmentation planner and stage
# meter, and the scheduler.
#
# lanai_via_firmware(<name> [DEFINES <macro>=<value>...] PART <part> <sources>... [PART <part> <sources>...]...)
# Makes target lanai_<name>; DEFINES are given to every source of it (one
# engine's sources built two ways, e.g. VIA_REGULATED=1). Its folder, <build>/share/lanai-emu/firmware/<name>
# (the installed layout, so a shipped firmware named by path is labelled by
# its name), holds the objects, objects.txt (every object in link order:
# the parts in the order given) and parts.txt (one line per part: its name,
# then its objects). Installed to share/lanai-emu/firmware/<name>. Sources
# include the shared headers as "common/<file>.h".
set(LANAI_VIA_COMMON_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/nic_config.cpp
    ${CMAKE_CURRENT_LIST_DIR}/devices.cpp
    ${CMAKE_CURRENT_LIST_DIR}/descriptor.cpp
    ${CMAKE_CURRENT_LIST_DIR}/via_counters.cpp
    ${CMAKE_CURRENT_LIST_DIR}/doorbells.cpp
    ${CMAKE_CURRENT_LIST_DIR}/flow_control.cpp
    ${CMAKE_CURRENT_LIST_DIR}/arrival_checks.cpp
    ${CMAKE_CURRENT_LIST_DIR}/via_counter_table.cpp)

function(lanai_via_firmware name)
  # PART <part> <sources>... groups, in order.
  set(parts common)
  set(sources_of_common ${LANAI_VIA_COMMON_SOURCES})
  set(part "")
  set(defines)
  set(in_defines FALSE)
  foreach(word IN LISTS ARGN)
    if(word STREQUAL "PART")
      set(part "")
      set(in_defines FALSE)
    elseif(word STREQUAL "DEFINES")
      set(in_defines TRUE)
    elseif(in_defines)
      list(APPEND defines ${word})
    elseif(part STREQUAL "")
      if(word IN_LIST parts)
        message(FATAL_ERROR "lanai_via_firmware(${name}): part '${word}' given twice")
      endif()
      set(part ${word})
      list(APPEND parts ${part})
      set(sources_of_${part})
    else()
      list(APPEND sources_of_${part} ${word})
    endif()
  endforeach()

  set(target lanai_${name})
  set(dir ${LANAI_EMU_BUILD_FIRMWARE_ROOT}/${name})
  set(all_sources)
  set(manifest "# Parts of firmware ${name}: each line a part's name, then its objects in link order.\n")
  foreach(p IN LISTS parts)
    list(APPEND all_sources ${sources_of_${p}})
    set(line ${p})
    foreach(src IN LISTS sources_of_${p})
      get_filename_component(n ${src} NAME_WE)
      string(APPEND line " ${n}.o")
    endforeach()
    string(APPEND manifest "${line}\n")
  endforeach()
  lanai_firmware_objects(${target} OPT -O2 SMALL_MODEL OUTPUT_DIR ${dir}
    INCLUDES ${PROJECT_SOURCE_DIR}/firmware
    DEFINES ${defines}
    SOURCES ${all_sources})
  file(WRITE ${dir}/parts.txt "${manifest}")
  set_property(GLOBAL APPEND PROPERTY LANAI_EMU_SHIPPED_FIRMWARES ${name})
  get_target_property(objects ${target} LANAI_OBJECTS)
  install(FILES ${objects} ${dir}/objects.txt ${dir}/parts.txt
          DESTINATION ${CMAKE_INSTALL_DATADIR}/lanai-emu/firmware/${name})
endfunction()
