# lanai_optimise_lightly(): where a build optimises further than -O1
# (release, ci), the calling directory's sources compile at -O1 instead.
# For code whose speed does not matter to what it does: test programs, and
# the parts that read options and files, link firmware and drive sweeps
# around the emulator. The emulator's core, devices, kernel, host library,
# workloads and metrics keep their build's level. -O1 takes a quarter to
# two fifths less time to compile than -O2 for such code.
macro(lanai_optimise_lightly)
  foreach(_lanai_lang C CXX)
    foreach(_lanai_config RELEASE RELWITHDEBINFO MINSIZEREL)
      string(REGEX REPLACE "(^| )-O[23s]( |$)" "\\1-O1\\2"
             CMAKE_${_lanai_lang}_FLAGS_${_lanai_config}
             "${CMAKE_${_lanai_lang}_FLAGS_${_lanai_config}}")
    endforeach()
  endforeach()
endmacro()
