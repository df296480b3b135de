// trainsizer: the command-line front end over the same entry point as the page's JS API.
//   trainsizer estimate FILE|-    scenario JSON in, result JSON out
//   trainsizer catalog            the embedded catalog
// Exit 0 on success, 2 on bad input (error JSON on stdout, one line on stderr).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include "catalog/codec/api.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

constexpr const char* kUsage =
    "TrainSizer: sizes, prices and compares servers for training and fine-tuning LLMs.\n"
    "\n"
    "Usage:\n"
    "  trainsizer estimate FILE|-   Read a scenario JSON (file, or - for stdin), print the result JSON\n"
    "  trainsizer catalog           Print the embedded hardware and model catalog as JSON\n"
    "  trainsizer --version         Print the engine and catalog versions\n"
    "  trainsizer --help            Show this help\n"
    "\n"
    "Example:\n"
    "  echo '{\"model\":\"llama-3-8b\",\"method\":\"qlora\",\"gpu\":\"rtx-4090-24gb\"}' | trainsizer estimate -\n"
    "\n"
    "Exit status: 0 success, 2 bad input ({\"error\":{\"field\",\"message\"}} on stdout).\n";

// Reads at most 16 MiB: the scenario parser refuses anything over 1 MiB with a clear
// error, and the cap keeps a runaway pipe from exhausting memory first.
constexpr std::streamsize kMaxReadBytes = 16 << 20;

bool ReadAll(std::istream& in, std::string* out) {
  std::string text(static_cast<size_t>(kMaxReadBytes) + 1, '\0');
  in.read(text.data(), kMaxReadBytes + 1);
  text.resize(static_cast<size_t>(in.gcount()));
  *out = std::move(text);
  return !in.bad();
}

int Fail(std::string_view field, std::string_view message) {
  std::string f(field), m(message);
  std::ostringstream json;
  // Both strings are fixed ASCII text from this file, so no escaping is needed.
  json << "{\"error\":{\"field\":\"" << f << "\",\"message\":\"" << m << "\"}}";
  std::cout << json.str() << "\n";
  std::cerr << "trainsizer: " << f << ": " << m << "\n";
  return kExitBadInput;
}

int Estimate(const std::string& path) {
  std::string text;
  if (path == "-") {
    if (!ReadAll(std::cin, &text)) return Fail("input", "cannot read standard input");
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file || !ReadAll(file, &text)) return Fail("input", "cannot read the scenario file");
  }
  const api::Response response = api::Estimate(text);
  std::cout << response.json << "\n";
  if (response.ok) return kExitOk;
  std::cerr << "trainsizer: " << response.json << "\n";
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "--version") {
    std::cout << api::VersionJson() << "\n";
    return kExitOk;
  }
  if (command == "catalog" && argc == 2) {
    std::cout << api::CatalogJson() << "\n";
    return kExitOk;
  }
  if (command == "estimate" && argc == 3) return Estimate(argv[2]);
  std::cerr << kUsage;
  return kExitBadInput;
}
