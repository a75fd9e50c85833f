# The test python_install: `cmake --install --component python` into a scratch DESTDIR, then
# the package imported from there (not from the build directory) reads Figure 1.
# -DBUILD= the build directory, -DDESTDIR=, -DPREFIX= the install prefix, -DPACKAGE_DIR=
# CCRC_PYTHON_INSTALL_DIR, -DPYTHON= the interpreter, -DDATA= examples/data/figure1.folded.
file(REMOVE_RECURSE ${DESTDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${DESTDIR} ${CMAKE_COMMAND} --install ${BUILD} --component python
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install --component python failed: ${status}")
endif()
if(IS_ABSOLUTE ${PACKAGE_DIR})
  set(site ${DESTDIR}${PACKAGE_DIR})
else()
  set(site ${DESTDIR}${PREFIX}/${PACKAGE_DIR})
endif()
set(check "import ccrc, pathlib, sys
here = pathlib.Path(ccrc.__file__).resolve().parent
assert here == pathlib.Path(sys.argv[1]).resolve() / 'ccrc', here
p = ccrc.read(sys.argv[2])
print(len(p), p.to_pandas()['bytecodes (inc)'].max())")
# From DESTDIR: python -c puts its working directory first on the path, and the build
# directory holds a package too.
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} PYTHONDONTWRITEBYTECODE=1 ${PYTHON} -c "${check}" ${site} ${DATA}
                WORKING_DIRECTORY ${DESTDIR}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT out STREQUAL "18 3238.0\n")
  message(FATAL_ERROR "the installed package in ${site} did not read Figure 1 (status ${status}): ${out}${err}")
endif()
message(STATUS "installed in ${site}: ${out}")
