# Fails the build if engine/ reaches for the UI, the browser or JSON: the engine must stay
# pure C++20 + the standard library so it builds natively and to WASM from the same sources.
#   cmake -DENGINE_DIR=engine -P check_engine_purity.cmake
file(GLOB_RECURSE files "${ENGINE_DIR}/*.h" "${ENGINE_DIR}/*.cpp")
set(problems "")
foreach(f IN LISTS files)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line IN LISTS lines)
    if(line MATCHES "imgui|emscripten|nlohmann|GLFW|GLES")
      string(APPEND problems "\n  ${f}: ${line}")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "engine/ must use only the C++ standard library; forbidden includes:${problems}")
endif()
