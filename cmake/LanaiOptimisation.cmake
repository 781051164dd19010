# lanai_optimise_lightly([SETUP]): where a build optimises further than
# -O1 (release, ci), the calling directory's sources compile at -O1
# instead: a quarter to two fifths less time to compile than -O2, for code
# whose speed hardly matters to what it does (test programs, the firmware
# loader, and the set-up code that reads options and files and drives
# sweeps around the emulator). The emulator's core, devices, kernel, host
# library, workloads and metrics keep their build's level.
# SETUP code, which runs for moments in each test, compiles at -O0 under
# the sanitizers: half the time of -O1 there. Test programs and the loader
# stay at -O1 there (at -O0, the test programs' checks ran slower under the
# sanitizers than the build saved).
macro(lanai_optimise_lightly)
  if(LANAI_EMU_SANITIZE AND "${ARGV0}" STREQUAL "SETUP")
    set(_lanai_levels "-O[123s]")
    set(_lanai_level "-O0")
  else()
    set(_lanai_levels "-O[23s]")
    set(_lanai_level "-O1")
  endif()
  foreach(_lanai_lang C CXX)
    foreach(_lanai_config RELEASE RELWITHDEBINFO MINSIZEREL)
      string(REGEX REPLACE "(^| )${_lanai_levels}( |$)" "\\1${_lanai_level}\\2"
             CMAKE_${_lanai_lang}_FLAGS_${_lanai_config}
             "${CMAKE_${_lanai_lang}_FLAGS_${_lanai_config}}")
    endforeach()
  endforeach()
endmacro()
