# Converts every real profile listed in tests/data/real_profiles.txt to .cctb in OUT (the viewer
# page reads .cctb), and writes OUT/list.txt: their file:// URLs, comma-separated.
#   cmake -DTOOL=ccrc -DDATA=tests/data -DOUT=dir -P real_profiles.cmake
file(STRINGS ${DATA}/real_profiles.txt lines REGEX "^[^#]")
file(MAKE_DIRECTORY ${OUT})
set(urls)
foreach(profile ${lines})
  string(MAKE_C_IDENTIFIER ${profile} name)
  execute_process(COMMAND ${TOOL} convert ${DATA}/${profile} -o ${OUT}/${name}.cctb RESULT_VARIABLE failed ERROR_VARIABLE err)
  if(failed)
    message(FATAL_ERROR "ccrc convert ${profile}: ${err}")
  endif()
  list(APPEND urls "file://${OUT}/${name}.cctb")
endforeach()
list(JOIN urls "," urls)
file(WRITE ${OUT}/list.txt "${urls}")
