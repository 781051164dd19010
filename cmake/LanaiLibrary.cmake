# lanai_emu_library(<name> <sources>...): the static library lanai_<name>,
# known in-tree and once installed as LanaiEmu::<name>, with the emulator
# and firmware headers as its public include directories.
function(lanai_emu_library name)
  set(target lanai_${name})
  add_library(${target} STATIC ${ARGN})
  add_library(LanaiEmu::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/firmware/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/lanai-emu>)
endfunction()
