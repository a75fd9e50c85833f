# The test of ccrc_mpi_merge: on 4 ranks (more than the machine's cores, hence --oversubscribe),
# the job's output equals, byte for byte, that of `ccrc merge` on the same 9 inputs; an
# unreadable input ends the job with that input's error, not a hang; inputs in two units of one
# quantity are refused.
# cmake -DCCRC=... -DMPI_MERGE=... -DMPIEXEC=... -DWORK=dir -P check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  set(status "${status}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

set(inputs)
foreach(seed RANGE 1 9)
  # Two shapes, so that the inputs share some contexts and not others.
  math(EXPR methods "20 + 20 * (${seed} % 2)")
  run(${CCRC} generate --nodes 2000 --depth 10 --methods ${methods} --seed ${seed} -o ${WORK}/in${seed}.cctb)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ccrc generate failed: ${err}")
  endif()
  list(APPEND inputs ${WORK}/in${seed}.cctb)
endforeach()

run(${CCRC} merge ${inputs} -o ${WORK}/expected.cctb)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ccrc merge failed: ${err}")
endif()

# Open MPI refuses to run as root without being told; as another user the flag changes nothing.
set(mpirun ${MPIEXEC} --allow-run-as-root --oversubscribe -np 4)
run(${mpirun} ${MPI_MERGE} -o ${WORK}/mpi.cctb --timings ${inputs})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ccrc_mpi_merge failed (${status}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/expected.cctb ${WORK}/mpi.cctb RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the MPI merge differs from ccrc merge")
endif()
string(REGEX MATCHALL "\"rank\": [0-9]" ranks "${err}")
list(LENGTH ranks rank_lines)
if(NOT rank_lines EQUAL 4)
  message(FATAL_ERROR "expected --timings for 4 ranks, got: ${err}")
endif()

# A job that must fail: a non-zero status, stderr matching `expected`, and no output file.
function(expect_failure why expected)
  run(${mpirun} ${MPI_MERGE} -o ${WORK}/failed.cctb ${ARGN})
  if(status EQUAL 0 OR NOT err MATCHES "${expected}")
    message(FATAL_ERROR "${why} should fail the job (status ${status}): ${err}")
  endif()
  if(EXISTS ${WORK}/failed.cctb)
    message(FATAL_ERROR "a failed job left an output file")
  endif()
endfunction()

# One bad input among the nine (rank 2's share): the job fails with its name and reason.
file(WRITE ${WORK}/in5.cctb "not a profile\n")
expect_failure("a bad input" "rank 2: [^\n]*in5.cctb:[ \n]+not a .cctb file" ${inputs})
# Inputs whose metrics measure one quantity in two units are refused, as ccrc merge refuses them.
file(WRITE ${WORK}/us.folded "# metrics: time_us\nmain;f 5\n")
file(WRITE ${WORK}/ns.folded "# metrics: time_ns\nmain;g 7000\n")
expect_failure("inputs in two units" "metrics 'time_us' and 'time_ns' measure one quantity in two units"
               ${WORK}/us.folded ${WORK}/ns.folded)
message(STATUS "ccrc_mpi_merge on 4 ranks equals ccrc merge; a bad input and two units fail the job")
