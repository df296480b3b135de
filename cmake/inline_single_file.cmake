# Builds the offline single-file page: the shell HTML with the SINGLE_FILE build's script
# (WASM embedded as base64) inlined, so one trainsizer.html works from file:// offline.
#   cmake -DSHELL=web/index.html -DSCRIPT=trainsizer_single.js -DOUTPUT=trainsizer.html -P inline_single_file.cmake
file(READ "${SHELL}" html)
file(READ "${SCRIPT}" js)
set(marker "<script src=\"trainsizer.js\"></script>")
string(FIND "${html}" "${marker}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "inline_single_file.cmake: ${SHELL} lacks the line ${marker}")
endif()
# "</script" inside the code would end the inline script early.
string(REPLACE "</script" "<\\/script" js "${js}")
string(REPLACE "${marker}" "<script>\n${js}\n</script>" html "${html}")
string(REPLACE "<html lang=\"en\">" "<html lang=\"en\" data-offline=\"1\">" html "${html}")
file(WRITE "${OUTPUT}" "${html}")
