// Runs the trainsizer CLI on `stdin_text` for the export and launch tests. The input file
// is named for the test and the process: ctest runs each test on its own and in parallel,
// and a shared file let one test truncate the scenario another's CLI was reading.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace engine::testing_cli {

#ifdef TRAINSIZER_CLI
// The CLI's exit status; its stdout into *out (stderr discarded).
inline int RunCli(const std::string& args, const std::string& stdin_text, std::string* out) {
  const std::string input = ::testing::TempDir() + "cli_" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                            std::to_string(getpid()) + ".json";
  FILE* f = std::fopen(input.c_str(), "w");
  std::fputs(stdin_text.c_str(), f);
  std::fclose(f);
  const std::string cmd = std::string(TRAINSIZER_CLI) + " " + args + " < " + input + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out->append(buf, n);
  return WEXITSTATUS(pclose(pipe));
}
#endif

}  // namespace engine::testing_cli
