# The installed tool and runtimes, used as a user would after `cmake --install`:
#   cmake -DPREFIX=install -DLIBDIR=lib -DVERSION=X.Y.Z -DPROGRAM=consumer_instrumented -DWORK=dir -P check_installed.cmake
# bin/ccrc prints its version, the runtimes are in LIBDIR, PROGRAM (linked with the installed
# ccrc::instrument) writes a profile whose calls are those of instrument_main.cpp, and the
# installed tool reads it and writes the viewer with it inside.
set(ccrc ${PREFIX}/bin/ccrc)
foreach(library libccrc_instrument.so libccrc_instrument.a libccrc_sample.so)
  if(NOT EXISTS ${PREFIX}/${LIBDIR}/${library})
    message(FATAL_ERROR "not installed: ${PREFIX}/${LIBDIR}/${library}")
  endif()
endforeach()

function(run expected_output)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${ARGN}: exit status ${status}\n${err}")
  endif()
  if(NOT out MATCHES "${expected_output}")
    message(FATAL_ERROR "${ARGN}: printed\n${out}\nnot matching\n${expected_output}")
  endif()
endfunction()

run("^ccrc ${VERSION}\n$" ${ccrc} --version)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# 1 + 3 + 5 + (1 + 3 + 5 + 7)
run("^25\n$" ${CMAKE_COMMAND} -E env CCRC_OUT=${WORK}/consumer.cctb ${PROGRAM})
# main 1 call, branch(int) 2, leaf(int) 7, one context each below the other.
run("\"name\": \"leaf\\(int\\)\", \"self\": 7,.*\"name\": \"branch\\(int\\)\", \"self\": 2,.*\"name\": \"main\", \"self\": 1,"
    ${ccrc} flat ${WORK}/consumer.cctb --metric calls --json)
run("\"nodes\": 3, \"max_depth\": 3, \"methods\": 3," ${ccrc} stats ${WORK}/consumer.cctb --json)
# The viewer is inside the installed tool: the page, its module, and the profile in its slot.
run("^${WORK}/consumer.html: the viewer with 3 calling contexts\n$"
    ${ccrc} view ${WORK}/consumer.cctb -o ${WORK}/consumer.html)
file(READ ${WORK}/consumer.html page)
foreach(part "ccrcModule" "<script id=\"ccrc-profile\" type=\"application/x-ccrc-cctb-base64\" data-name=\"consumer.cctb\">")
  string(FIND "${page}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${WORK}/consumer.html has no ${part}")
  endif()
endforeach()
