# Installation and packaging: the emulator's libraries, public headers and
# front end, the firmware SDK (the VIA firmware's headers, the shipped
# firmwares in parts, installed where they are built, and the CMake
# function that builds variants), the shipped profiles, experiments and
# models, a relocatable CMake package (find_package(LanaiEmu), components
# libraries and firmware) and three pkg-config files: lanai-emu (the
# emulator), lanai-emu-vipl (the VIPL for host programs) and
# lanai-emu-firmware (flags for firmware). Included last, once every target
# has been defined.
include(CMakePackageConfigHelpers)

# The public libraries, each listed before the libraries it depends on: the
# order a static link line needs.
set(_lanai_library_candidates lanai_vipl lanai_host lanai_nic lanai_machine lanai_trace lanai_wire lanai_loader
    lanai_iss lanai_profile lanai_kernel)

# Returns the in-tree library target a link item names, or nothing for
# imported targets, plain library names and link flags.
function(_lanai_project_library item out)
  set(${out} "" PARENT_SCOPE)
  string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
  if(NOT TARGET "${item}")
    return()
  endif()
  get_target_property(aliased ${item} ALIASED_TARGET)
  if(aliased)
    set(item ${aliased})
  endif()
  get_target_property(imported ${item} IMPORTED)
  get_target_property(type ${item} TYPE)
  if(NOT imported AND type MATCHES "^(STATIC|SHARED|MODULE|OBJECT|INTERFACE)_LIBRARY$")
    set(${out} ${item} PARENT_SCOPE)
  endif()
endfunction()

# An exported library may link helper libraries of its own; they have to be
# installed too, or install(EXPORT) cannot describe the link. Collect the
# closure, remembering which library needs which.
set(_lanai_libraries)
foreach(_lanai_target IN LISTS _lanai_library_candidates)
  if(TARGET ${_lanai_target})
    list(APPEND _lanai_libraries ${_lanai_target})
  endif()
endforeach()
set(_lanai_worklist ${_lanai_libraries})
while(_lanai_worklist)
  list(POP_FRONT _lanai_worklist _lanai_target)
  get_target_property(_lanai_links ${_lanai_target} LINK_LIBRARIES)
  get_target_property(_lanai_iface_links ${_lanai_target} INTERFACE_LINK_LIBRARIES)
  set(_lanai_deps_of_${_lanai_target})
  foreach(_lanai_item IN LISTS _lanai_links _lanai_iface_links)
    _lanai_project_library("${_lanai_item}" _lanai_dep)
    if(_lanai_dep AND NOT _lanai_dep STREQUAL _lanai_target)
      list(APPEND _lanai_deps_of_${_lanai_target} ${_lanai_dep})
      if(NOT _lanai_dep IN_LIST _lanai_libraries)
        list(APPEND _lanai_libraries ${_lanai_dep})
        list(APPEND _lanai_worklist ${_lanai_dep})
      endif()
    endif()
  endforeach()
endwhile()

# Order the closure so that no library comes after one it depends on; ties
# keep discovery order, which starts with the candidate list above.
set(_lanai_ordered)
set(_lanai_remaining ${_lanai_libraries})
while(_lanai_remaining)
  set(_lanai_picked "")
  foreach(_lanai_target IN LISTS _lanai_remaining)
    set(_lanai_needed OFF)
    foreach(_lanai_other IN LISTS _lanai_remaining)
      if(_lanai_target IN_LIST _lanai_deps_of_${_lanai_other})
        set(_lanai_needed ON)
        break()
      endif()
    endforeach()
    if(NOT _lanai_needed)
      set(_lanai_picked ${_lanai_target})
      break()
    endif()
  endforeach()
  if(NOT _lanai_picked)
    # A link cycle: keep the rest in discovery order rather than fail.
    list(APPEND _lanai_ordered ${_lanai_remaining})
    break()
  endif()
  list(APPEND _lanai_ordered ${_lanai_picked})
  list(REMOVE_ITEM _lanai_remaining ${_lanai_picked})
endwhile()

set(_lanai_installed_targets)
set(_lanai_pc_libs)
foreach(_lanai_target IN LISTS _lanai_ordered)
  # Export under the short name the in-tree alias uses (LanaiEmu::kernel),
  # unless the library chose its own.
  get_target_property(_lanai_export_name ${_lanai_target} EXPORT_NAME)
  if(NOT _lanai_export_name)
    string(REGEX REPLACE "^lanai_" "" _lanai_export_name ${_lanai_target})
    set_target_properties(${_lanai_target} PROPERTIES EXPORT_NAME ${_lanai_export_name})
  endif()
  list(APPEND _lanai_installed_targets ${_lanai_target})
  get_target_property(_lanai_type ${_lanai_target} TYPE)
  if(_lanai_type MATCHES "^(STATIC|SHARED)_LIBRARY$")
    get_target_property(_lanai_output_name ${_lanai_target} OUTPUT_NAME)
    if(NOT _lanai_output_name)
      set(_lanai_output_name ${_lanai_target})
    endif()
    # The VIPL carries the launcher's main(): programs link the shared VIPL
    # (lanai-emu-vipl.pc) instead.
    if(NOT _lanai_target STREQUAL "lanai_vipl")
      string(APPEND _lanai_pc_libs " -l${_lanai_output_name}")
    endif()
  endif()
endforeach()
if(TARGET lanai-emu)
  list(APPEND _lanai_installed_targets lanai-emu)
endif()

# Static libraries carry their private dependencies to the consumer's link,
# so the package must find whatever any installed library links against.
set(LANAI_EMU_NEEDS_BOOST_CONTEXT OFF)
set(LANAI_EMU_NEEDS_THREADS OFF)
set(LANAI_EMU_NEEDS_TOMLPLUSPLUS OFF)
set(_lanai_pc_requires "fmt")
set(_lanai_pc_extra_libs)
foreach(_lanai_target IN LISTS _lanai_ordered)
  get_target_property(_lanai_links ${_lanai_target} LINK_LIBRARIES)
  get_target_property(_lanai_iface_links ${_lanai_target} INTERFACE_LINK_LIBRARIES)
  foreach(_lanai_item IN LISTS _lanai_links _lanai_iface_links)
    if(_lanai_item MATCHES "Boost::context")
      set(LANAI_EMU_NEEDS_BOOST_CONTEXT ON)
    elseif(_lanai_item MATCHES "Threads::Threads")
      set(LANAI_EMU_NEEDS_THREADS ON)
    elseif(_lanai_item MATCHES "tomlplusplus::tomlplusplus")
      set(LANAI_EMU_NEEDS_TOMLPLUSPLUS ON)
    endif()
  endforeach()
endforeach()
if(LANAI_EMU_NEEDS_TOMLPLUSPLUS)
  string(APPEND _lanai_pc_requires ", tomlplusplus")
endif()
if(LANAI_EMU_NEEDS_BOOST_CONTEXT)
  # Boost ships no pkg-config file.
  string(APPEND _lanai_pc_extra_libs " -lboost_context")
endif()
if(LANAI_EMU_NEEDS_THREADS)
  string(APPEND _lanai_pc_extra_libs " -pthread")
endif()

set(LANAI_EMU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/LanaiEmu)
set(LANAI_EMU_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR}/lanai-emu)

if(_lanai_installed_targets)
  install(TARGETS ${_lanai_installed_targets}
    EXPORT LanaiEmuTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/lanai-emu-objects
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT LanaiEmuTargets
    NAMESPACE LanaiEmu::
    FILE LanaiEmuTargets.cmake
    DESTINATION ${LANAI_EMU_CMAKE_DIR})
endif()

# Headers keep their path from the top of the tree, so the include lines
# used inside it ("emulator/kernel/sim_time.hpp") work unchanged against the
# installed copy.
foreach(_lanai_dir kernel text iss loader profile machine wire nic host)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/emulator/${_lanai_dir}/
    DESTINATION ${LANAI_EMU_INCLUDE_DIR}/emulator/${_lanai_dir}
    FILES_MATCHING PATTERN "*.hpp")
endforeach()
# The VIPL's C headers sit at the top, so programs say #include <vipl.h>.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/hostlib/include/
  DESTINATION ${LANAI_EMU_INCLUDE_DIR}
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/firmware/include/lanai/
  DESTINATION ${LANAI_EMU_INCLUDE_DIR}/lanai
  FILES_MATCHING PATTERN "*.h")
# The VIA firmware's headers, included as "common/<file>.h" by variants
# (each says whether it is stable or internal; docs/firmware-variants.md).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/firmware/common/
  DESTINATION ${LANAI_EMU_INCLUDE_DIR}/firmware/common
  FILES_MATCHING PATTERN "*.h")
# Profiles, experiments and models, in the layout the experiments' relative
# paths expect; the installed lanai-emu finds profiles by name beside itself.
foreach(_lanai_dir profiles experiments models)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/bench/${_lanai_dir}/
    DESTINATION ${CMAKE_INSTALL_DATADIR}/lanai-emu/${_lanai_dir}
    FILES_MATCHING PATTERN "*.toml")
endforeach()

# What the firmware component points at, relative to the package.
set(LANAI_EMU_INSTALL_FIRMWARE_DIR ${CMAKE_INSTALL_DATADIR}/lanai-emu/firmware)
set(LANAI_EMU_INSTALL_EXECUTABLE ${CMAKE_INSTALL_BINDIR}/lanai-emu)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/LanaiEmuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/LanaiEmuConfig.cmake
  INSTALL_DESTINATION ${LANAI_EMU_CMAKE_DIR}
  PATH_VARS LANAI_EMU_INCLUDE_DIR LANAI_EMU_INSTALL_FIRMWARE_DIR LANAI_EMU_INSTALL_EXECUTABLE)
# 0.x releases may break compatibility between minor versions.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/LanaiEmuConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/LanaiEmuConfig.cmake
  ${PROJECT_BINARY_DIR}/LanaiEmuConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/LanaiFirmware.cmake
  ${CMAKE_CURRENT_LIST_DIR}/LanaiEmuFirmware.cmake
  DESTINATION ${LANAI_EMU_CMAKE_DIR})

# The .pc file locates the prefix relative to itself, so an installation
# moved elsewhere (or made with cmake --install --prefix) stays usable.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(LANAI_EMU_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(LANAI_EMU_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _lanai_pc_up
    /lanai-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /lanai-prefix)
  string(REGEX REPLACE "/$" "" _lanai_pc_up "${_lanai_pc_up}")
  set(LANAI_EMU_PC_PREFIX "\${pcfiledir}/${_lanai_pc_up}")
  set(LANAI_EMU_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(LANAI_EMU_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/lanai-emu")
else()
  set(LANAI_EMU_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}/lanai-emu")
endif()
set(LANAI_EMU_PC_LIBS "${_lanai_pc_libs}${_lanai_pc_extra_libs}")
set(LANAI_EMU_PC_REQUIRES "${_lanai_pc_requires}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/lanai-emu.pc.in ${PROJECT_BINARY_DIR}/lanai-emu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lanai-emu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# Firmware: the compiler and the flags the shipped firmware is built with
# (the clang-14 workarounds among them), in the order the build gives them.
list(JOIN LANAI_FIRMWARE_FLAGS " " _lanai_fw_flags)
list(JOIN LANAI_FIRMWARE_SMALL_MODEL_FLAGS " " _lanai_fw_model)
list(JOIN LANAI_FIRMWARE_OPT " " _lanai_fw_opt)
set(LANAI_EMU_PC_FIRMWARE_CFLAGS "${_lanai_fw_flags} ${_lanai_fw_model} ${_lanai_fw_opt}")
list(JOIN LANAI_FIRMWARE_CXX_FLAGS " " LANAI_EMU_PC_FIRMWARE_CXX_FLAGS)
list(JOIN LANAI_FIRMWARE_C_FLAGS " " LANAI_EMU_PC_FIRMWARE_C_FLAGS)
configure_file(${CMAKE_CURRENT_LIST_DIR}/lanai-emu-firmware.pc.in
               ${PROJECT_BINARY_DIR}/lanai-emu-firmware.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lanai-emu-firmware.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET lanai_vipl_shared)
  # What VIPL programs link: the shared VIPL (the emulator inside, only the
  # C API exported) and the process library linked into the program.
  install(TARGETS lanai_vipl_shared lanai_vipl_process
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/lanai-emu-vipl.pc.in
                 ${PROJECT_BINARY_DIR}/lanai-emu-vipl.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/lanai-emu-vipl.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
