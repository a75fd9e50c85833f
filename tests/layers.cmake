# Fails if a header of include/ccrc/ includes a header of a layer above its own, so that the
# folders keep reading one way:
#
#   config, error, fwd, concepts  ->  detail  ->  tree  ->  algorithm  ->  transform
#     ->  graph | geometry | io  ->  diff | ensemble | formats  ->  generate  ->  ccrc.hpp (the umbrella)
#
# A header may include its own folder and any folder to its left; graph, geometry and io are
# peers and include none of each other, and so are diff, ensemble (many runs reduced to
# statistics) and formats (the opt-in readers of other profilers' formats). No header includes
# a quoted name: the library reaches nothing outside include/ (examples/ builds on it, never
# the other way; examples_public_api.cmake checks that examples/ reads one way too).
# Run: cmake -DCCRC_ROOT=<source dir> -P layers.cmake
set(ranks root 0 detail 1 tree 2 algorithm 3 transform 4
          graph 5 geometry 5 io 5 diff 6 ensemble 6 formats 6 generate 7 ccrc 8)

function(layer_of path out_folder out_rank)
  string(REGEX REPLACE "^([^/.]+).*" "\\1" folder "${path}")
  if(NOT path MATCHES "/" AND NOT path STREQUAL "ccrc.hpp")
    set(folder root)  # config, error, fwd, concepts: declarations every layer may use
  endif()
  list(FIND ranks "${folder}" i)
  if(i EQUAL -1)
    message(FATAL_ERROR "layers.cmake: no layer for include/ccrc/${path}: add its folder to the ranks")
  endif()
  math(EXPR i "${i} + 1")
  list(GET ranks ${i} rank)
  set(${out_folder} "${folder}" PARENT_SCOPE)
  set(${out_rank} "${rank}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE headers RELATIVE "${CCRC_ROOT}/include/ccrc" "${CCRC_ROOT}/include/ccrc/*.hpp")
set(violations "")
foreach(header ${headers})
  layer_of("${header}" from from_rank)
  file(STRINGS "${CCRC_ROOT}/include/ccrc/${header}" quoted REGEX "^#include \"")
  foreach(line ${quoted})
    string(APPEND violations "\n  include/ccrc/${header}: ${line}")
  endforeach()
  file(STRINGS "${CCRC_ROOT}/include/ccrc/${header}" includes REGEX "^#include <ccrc/")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include <ccrc/([^>]+)>.*" "\\1" target "${line}")
    layer_of("${target}" to to_rank)
    if(to_rank GREATER from_rank OR (to_rank EQUAL from_rank AND NOT from STREQUAL to))
      string(APPEND violations "\n  include/ccrc/${header} includes ccrc/${target}")
    endif()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "includes that point up, across the layers or out of the library:${violations}")
endif()
list(LENGTH headers count)
message(STATUS "layers: ${count} headers, every include points down")
