// Every row of tests/data/bad_inputs.json through the `trainsizer` CLI, as a user's pipe
// would send it: `trainsizer estimate -` and `trainsizer plan -` must exit with status 2
// and print {"error": {"field": <the row's field>, "code", "args", "message"}} within a
// time limit, never crash, hang or name the wrong field. The same rows in process check
// that each error is a message: its code's English template, filled with its arguments,
// is exactly its message. tests/web/bad_input.test.mjs sends the rows through the page's
// JS API.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/contract/json_fields.h"
#include "engine/message.h"
#include "engine/result.h"
#include "engine/service/api.h"
#include "tests/data/bad_inputs.h"

namespace engine::service {
namespace {

constexpr int kTimeLimitS = 20;  // generous: two cores shared by several builds

struct BadInput {
  std::string name, command, field, message_contains;
  contract::Json input;
};

std::vector<BadInput> LoadRows() {
  const contract::Json doc = testdata::BadInputTable();
  std::vector<BadInput> rows;
  for (const contract::Json& row : doc["rows"]) {
    const contract::Json commands = row.value("commands", contract::Json::array({"estimate", "plan"}));
    for (const contract::Json& command : commands) {
      rows.push_back({row["name"], command, row["field"], row.value("message_contains", ""), row["input"]});
    }
  }
  return rows;
}

// "estimate_100k_unclosed_" from ("estimate", "100k unclosed '['"): gtest names are
// letters, digits and underscores.
std::string TestName(const testing::TestParamInfo<BadInput>& info) {
  std::string name = info.param.command + "_" + info.param.name;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name + "_" + std::to_string(info.index);
}

struct CliRun {
  int status = -1;  // exit status; 128 + signal when killed (through the shell)
  std::string out;
  double seconds = 0;
};

CliRun RunCli(const std::string& command, const std::string& input) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string stem = "trainsizer_bad_input_" + std::to_string(::getpid());
  const std::filesystem::path in = dir / (stem + ".in"), out = dir / (stem + ".out");
  std::ofstream(in, std::ios::binary) << input;
  const std::string line = "timeout " + std::to_string(kTimeLimitS) + " '" TRAINSIZER_CLI "' " + command + " - < '" +
                           in.string() + "' > '" + out.string() + "' 2>/dev/null";
  const auto start = std::chrono::steady_clock::now();
  const int raw = std::system(line.c_str());
  CliRun run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  run.out = testdata::ReadFileText(out);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  return run;
}

class BadInputTest : public testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, ExitsTwoWithTheFieldNamed) {
  const BadInput& row = GetParam();
  const CliRun run = RunCli(row.command, testdata::GenerateBadInput(row.input));
  ASSERT_NE(run.status, 124) << row.name << ": no answer within " << kTimeLimitS << " s";
  ASSERT_NE(run.status, 134) << row.name << ": aborted (SIGABRT)";
  ASSERT_NE(run.status, 136) << row.name << ": arithmetic exception (SIGFPE)";
  ASSERT_NE(run.status, 139) << row.name << ": segmentation fault (SIGSEGV)";
  EXPECT_EQ(run.status, 2) << row.name << ": " << run.out;
  const contract::Json answer = contract::Json::parse(run.out, nullptr, false);
  ASSERT_FALSE(answer.is_discarded()) << row.name << ": output is not JSON: " << run.out.substr(0, 300);
  ASSERT_TRUE(answer.contains("error") && answer["error"].is_object()) << row.name << ": " << run.out.substr(0, 300);
  const contract::Json& error = answer["error"];
  EXPECT_EQ(error.value("field", ""), row.field) << row.name << ": " << run.out.substr(0, 300);
  const std::string message = error.value("message", "");
  EXPECT_FALSE(message.empty()) << row.name;
  EXPECT_FALSE(error.value("code", "").empty()) << row.name << ": " << run.out.substr(0, 300);
  EXPECT_TRUE(error.contains("args") && error["args"].is_object()) << row.name << ": " << run.out.substr(0, 300);
  EXPECT_NE(message.find(row.message_contains), std::string::npos)
      << row.name << ": message '" << message << "' lacks '" << row.message_contains << "'";
}

INSTANTIATE_TEST_SUITE_P(Rows, BadInputTest, testing::ValuesIn(LoadRows()), TestName);

// A message and the messages nested in its arguments: each has an id whose English
// template, filled with its arguments, is its text.
void ExpectRendersFromItsTemplate(const engine::Message& m, const std::string& where) {
  ASSERT_FALSE(m.id.empty()) << where << ": no template id for \"" << m.english << "\"";
  EXPECT_EQ(engine::RenderEnglish(m.id, m.args), m.english) << where << ": " << m.id;
  for (const engine::MessageArg& arg : m.args) {
    if (arg.kind != engine::ArgKind::kMessage) continue;
    ASSERT_EQ(arg.nested.size(), 1u) << where << ": argument " << arg.name;
    ExpectRendersFromItsTemplate(arg.nested.front(), where + " > " + arg.name);
  }
}

class BadInputMessageTest : public testing::TestWithParam<BadInput> {};

TEST_P(BadInputMessageTest, ErrorIsItsTemplateFilled) {
  const BadInput& row = GetParam();
  const std::string text = testdata::GenerateBadInput(row.input);
  const service::Response r = row.command == "plan" ? service::Session().Plan(text) : service::Session().Estimate(text);
  ASSERT_FALSE(r.ok) << row.name;
  EXPECT_EQ(r.error.field, row.field) << row.name;
  ExpectRendersFromItsTemplate(engine::ErrorMessage(r.error), row.name);
  // The JSON carries the same: the code, and each argument by name.
  const contract::Json answer = contract::Json::parse(r.json, nullptr, false);
  ASSERT_TRUE(answer.contains("error")) << row.name;
  EXPECT_EQ(answer["error"].value("code", ""), r.error.code) << row.name;
  EXPECT_EQ(answer["error"].value("message", ""), r.error.message) << row.name;
  ASSERT_TRUE(answer["error"]["args"].is_object()) << row.name;
  for (const engine::MessageArg& arg : r.error.args) {
    EXPECT_TRUE(answer["error"]["args"].contains(arg.name)) << row.name << ": argument " << arg.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, BadInputMessageTest, testing::ValuesIn(LoadRows()), TestName);

TEST(BadInputTable, HasAtLeast45Rows) {
  const contract::Json doc = testdata::BadInputTable();
  EXPECT_GE(doc["rows"].size(), 45u);
}

// Inputs that look odd but are deliberately accepted, so the table above never grows a
// row that contradicts them.
TEST(BadInputTable, EdgeCasesThatAreNotErrors) {
  const char* accepted[] = {
      // RFC 8259 §8.1: a parser may ignore a leading UTF-8 byte order mark (Windows
      // editors write one).
      "\xEF\xBB\xBF{\"model\":\"llama-3-8b\"}",
      // -0 is zero, which global_batch (0 = default) allows.
      R"({"model":"llama-3-8b","global_batch":-0})",
      // 0 means "none" for the planner's deadline and budget (engine/planner.h), and the
      // page sends them so.
      R"({"model":"llama-3-8b","deadline_days":0,"budget":0})",
      // LoRA fields with another method are ignored, not refused: the page's full
      // scenario (contract::ScenarioToJson) always carries them.
      R"({"model":"llama-3-8b","method":"pretrain","lora_rank":8})",
  };
  for (const char* text : accepted) {
    const service::Response r = service::Session().Estimate(text);
    EXPECT_TRUE(r.ok) << text << ": " << r.json;
  }
}

}  // namespace
}  // namespace engine::service
