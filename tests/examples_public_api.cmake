# Fails, listing the lines, if a file under examples/ uses ccrc's internals (ccrc::detail or a
# <ccrc/detail/...> header): the tool and the examples are library users and live on the
# public API, so a function they need is added to it rather than borrowed from detail.
# Run: cmake -DEXAMPLES_DIR=<source>/examples -P examples_public_api.cmake
if(NOT EXAMPLES_DIR)
  message(FATAL_ERROR "set EXAMPLES_DIR")
endif()
file(GLOB_RECURSE sources ${EXAMPLES_DIR}/*.cpp ${EXAMPLES_DIR}/*.hpp ${EXAMPLES_DIR}/*.in)
set(found "")
foreach(source ${sources})
  file(STRINGS ${source} lines REGEX "detail::|ccrc/detail/")
  foreach(line ${lines})
    file(RELATIVE_PATH name ${EXAMPLES_DIR} ${source})
    string(STRIP "${line}" line)
    string(APPEND found "\n  examples/${name}: ${line}")
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "examples/ use ccrc's internals; add a public function instead:${found}")
endif()
list(LENGTH sources count)
message(STATUS "examples/: ${count} files, public API only")
