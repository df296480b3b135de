# trainsizer_embed(): the one way files become a generated C++ source of byte arrays
# (catalog JSON, validation runs, UI fonts, translations). The work is done at build time
# by cmake/embed_files.cmake, a `cmake -P` script, so cross-compiling needs no host compiler.
#
#   trainsizer_embed(OUTPUT <file.cpp> HEADER <header> NAMESPACE <ns> FUNCTION <fn>
#                    INPUTS <files...> [COMMENT <text>])
#
# <file.cpp> defines `std::span<const EmbeddedFile> <ns>::<fn>()`, declared in <header>
# (an include path from the source root), with one entry per input in the order given.
# It is regenerated when an input or the script changes. Add <file.cpp> to a target in
# the same directory.
function(trainsizer_embed)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "OUTPUT;HEADER;NAMESPACE;FUNCTION;COMMENT" "INPUTS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "trainsizer_embed: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required OUTPUT HEADER NAMESPACE FUNCTION INPUTS)
    if(NOT arg_${required})
      message(FATAL_ERROR "trainsizer_embed: ${required} is missing")
    endif()
  endforeach()
  if(NOT arg_COMMENT)
    set(arg_COMMENT "Embedding ${arg_OUTPUT}")
  endif()
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_files.cmake")
  # The script takes the inputs as one argument, so the list is passed |-separated.
  string(REPLACE ";" "|" inputs "${arg_INPUTS}")
  add_custom_command(
    OUTPUT ${arg_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${arg_OUTPUT} "-DINPUTS=${inputs}" -DHEADER=${arg_HEADER}
            -DNAMESPACE=${arg_NAMESPACE} -DFUNCTION=${arg_FUNCTION} -P ${script}
    DEPENDS ${arg_INPUTS} ${script}
    COMMENT "${arg_COMMENT}"
    VERBATIM)
endfunction()
