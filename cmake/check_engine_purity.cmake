# Fails the build if the engine's physics (the files directly in engine/, namespace engine)
# reaches for the UI, the browser or JSON: it must stay pure C++20 + the standard library so
# it builds natively and to WASM from the same sources. Its subfolders (contract, imports,
# exports, link, validation, service) are the code around it that reads and writes JSON.
#   cmake -DENGINE_DIR=engine -P check_engine_purity.cmake
file(GLOB files "${ENGINE_DIR}/*.h" "${ENGINE_DIR}/*.cpp")
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
