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
set(script_body "\n${js}\n")
string(REPLACE "${marker}" "<script>${script_body}</script>" html "${html}")
string(REPLACE "<html lang=\"en\">" "<html lang=\"en\" data-offline=\"1\">" html "${html}")

# The Content-Security-Policy allows exactly this inline script (by its SHA-256, which CSP
# wants in base64) and no network at all: the only 'connection' is to data: (the inlined
# WebAssembly, decoded from base64), so the file can never make a request.
string(SHA256 digest_hex "${script_body}")
set(alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
set(digest_b64 "")
foreach(group RANGE 0 10)  # 32 bytes = 10 groups of 3 + 2 left over
  math(EXPR offset "${group} * 6")
  string(SUBSTRING "${digest_hex}" ${offset} 6 chunk)
  string(LENGTH "${chunk}" chunk_len)
  math(EXPR bytes "${chunk_len} / 2")
  if(bytes EQUAL 2)
    set(chunk "${chunk}00")
  endif()
  math(EXPR value "0x${chunk}")
  foreach(shift 18 12 6 0)
    math(EXPR index "(${value} >> ${shift}) & 63")
    string(SUBSTRING "${alphabet}" ${index} 1 char)
    string(APPEND digest_b64 "${char}")
  endforeach()
  if(bytes EQUAL 2)
    string(SUBSTRING "${digest_b64}" 0 43 digest_b64)
    string(APPEND digest_b64 "=")
  endif()
endforeach()
string(REGEX REPLACE "<meta http-equiv=\"Content-Security-Policy\" content=\"[^\"]*\">"
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-${digest_b64}' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; connect-src data:; object-src 'none'; base-uri 'none'; form-action 'none'\">"
       html "${html}")
file(WRITE "${OUTPUT}" "${html}")
