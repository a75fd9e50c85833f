# Fails when the committed viewer module (COMMITTED) is not the one em++ built (BUILT) from the
# same sources: the library or viewer.cpp changed and the bundle was not refreshed.
#   cmake -DBUILT=build/.../ccrc_viewer.js -DCOMMITTED=examples/viewer/generated/ccrc_viewer.js -P bundle_current.cmake
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${BUILT} ${COMMITTED} RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "examples/viewer/generated/ccrc_viewer.js is not what em++ makes of these sources: "
    "refresh it with `cmake --build build/viewer --target viewer_bundle_refresh` and commit it")
endif()
message(STATUS "the committed viewer module is em++'s")
