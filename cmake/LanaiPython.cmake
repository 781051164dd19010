# The Python interpreter the tests and scripts run under (Python3_EXECUTABLE).
#
# A version manager's shim found first on PATH (pyenv's, asdf's) is a
# program that looks up the interpreter it stands for and starts it, on
# every call: most of a second of start-up on a small machine, where the
# interpreter alone takes a tenth. The test suite starts Python for about
# four hundred tests, so the interpreter behind the shim (what it reports
# as sys.executable) is named instead, once, at configure time. The choice
# is the one the shim makes in this directory when CMake first configures;
# pass -DPython3_EXECUTABLE=... to choose another.
if(NOT DEFINED Python3_EXECUTABLE AND NOT DEFINED CACHE{Python3_EXECUTABLE})
  find_program(LANAI_PYTHON_ON_PATH NAMES python3 NO_CACHE)
  if(LANAI_PYTHON_ON_PATH)
    execute_process(
      COMMAND ${LANAI_PYTHON_ON_PATH} -c "import sys; print(sys.executable)"
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
      OUTPUT_VARIABLE lanai_python_behind OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE lanai_python_status ERROR_QUIET)
    if(lanai_python_status EQUAL 0 AND IS_ABSOLUTE "${lanai_python_behind}"
       AND EXISTS "${lanai_python_behind}")
      set(Python3_EXECUTABLE "${lanai_python_behind}" CACHE FILEPATH
          "The Python interpreter of the tests and scripts")
    endif()
  endif()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# How the tests start it: -S leaves out the site module. The scripts use
# only the standard library, so nothing a machine's site-packages runs at
# start-up (its .pth files) can change or slow a test; on the build machine
# such a file took two thirds of the interpreter's start-up.
set(LANAI_PYTHON ${Python3_EXECUTABLE} -S)
