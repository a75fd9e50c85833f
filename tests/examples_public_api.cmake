# Fails, listing the lines, if a file under examples/ uses ccrc's internals (ccrc::detail or a
# <ccrc/detail/...> header): the tool and the examples are library users and live on the
# public API, so a function they need is added to it rather than borrowed from detail.
#
# Also fails if an example includes a header of a folder at its own level or above, so that
# examples/ reads one way too:
#
#   whole_file  ->  frontend (what the front ends share)  ->  ccrc | python | mpi | instrument | viewer
#
# A file may include its own folder's headers and those of folders to its left; the products
# (the tool, the Python module, the MPI examples, the runtimes, the viewer) are peers and
# include none of each other's. Run: cmake -DEXAMPLES_DIR=<source>/examples -P examples_public_api.cmake
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

# The folder of examples/ a file is in ("top" for a file at the top, such as tour.cpp), and its rank.
set(ranks whole_file 0 frontend 1 ccrc 2 python 2 mpi 2 instrument 2 viewer 2 top 2)
function(rank_of name out_folder out_rank)
  set(folder top)
  if(name MATCHES "/")
    string(REGEX REPLACE "/.*" "" folder "${name}")
  endif()
  list(FIND ranks "${folder}" i)
  if(i EQUAL -1)
    message(FATAL_ERROR "examples_public_api.cmake: no rank for examples/${folder}/: add it to the ranks")
  endif()
  math(EXPR i "${i} + 1")
  list(GET ranks ${i} rank)
  set(${out_folder} "${folder}" PARENT_SCOPE)
  set(${out_rank} "${rank}" PARENT_SCOPE)
endfunction()

# Quoted includes name a header by its file name (each folder is an include directory of its
# target); a name no file of examples/ bears is generated in the build (figure1_data.hpp,
# viewer_page.inc) and names no folder.
file(GLOB_RECURSE headers RELATIVE ${EXAMPLES_DIR} ${EXAMPLES_DIR}/*.hpp)
set(violations "")
foreach(source ${sources})
  file(RELATIVE_PATH name ${EXAMPLES_DIR} ${source})
  rank_of("${name}" from from_rank)
  get_filename_component(own_dir "${source}" DIRECTORY)
  file(STRINGS ${source} includes REGEX "^#include \"")
  foreach(line ${includes})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    if(EXISTS "${own_dir}/${included}")
      continue()
    endif()
    foreach(header ${headers})
      get_filename_component(header_name "${header}" NAME)
      if(header_name STREQUAL included)
        rank_of("${header}" to to_rank)
        if(NOT to_rank LESS from_rank)
          string(APPEND violations "\n  examples/${name} includes examples/${header}")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "includes that point up or across examples/:${violations}")
endif()
list(LENGTH sources count)
message(STATUS "examples/: ${count} files, public API only, every include points down")
