# Runs browser_test.js with a page script of its own on PAGE?profiles=<the URLs in LIST>.
#   cmake -DLIST=list.txt -DNODE=node -DSCRIPT=browser_test.js -DCHROMIUM=chromium -DPAGE=url
#         -DPAGE_SCRIPT=first_view.js -DOUT=out.json -P run_page_script.cmake
file(READ ${LIST} urls)
execute_process(COMMAND ${CMAKE_COMMAND} -E env CCRC_PAGE_SCRIPT=${PAGE_SCRIPT}
  ${NODE} ${SCRIPT} ${CHROMIUM} "${PAGE}?profiles=${urls}" ${OUT} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "the page script failed")
endif()
