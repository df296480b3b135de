// `trainsizer link FRAGMENT` and `trainsizer link --encode FILE|-`: links decoded as the
// page decodes them (the links that once crashed or froze the page give clean notices),
// and a scenario encoded to the fragment the page writes, which decodes back to the
// same estimate and plan.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/contract/json_fields.h"

namespace {

struct CliResult {
  int status = -1;  // exit status; 128 + signal when killed
  std::string out;
};

// The shell sees every argument single-quoted, so a fragment's & ; # % reach the CLI as is.
std::string Quoted(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CliResult Cli(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  const std::string input = ::testing::TempDir() + "link_cli_" +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
  std::ofstream(input, std::ios::binary) << stdin_text;
  std::string cmd = "timeout 60 " + Quoted(TRAINSIZER_CLI);
  for (const std::string& a : args) cmd += " " + Quoted(a);
  cmd += " < " + Quoted(input) + " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  CliResult run;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) run.out.append(buf.data(), n);
  const int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  std::remove(input.c_str());
  return run;
}

engine::contract::Json Parsed(const CliResult& run) { return engine::contract::Json::parse(run.out, nullptr, false); }

// The decoded link's shape: {"scenario": {}, "view": {}, "notices": [{"code", "args",
// "message"}], "applied": bool}.
void ExpectDecoded(const std::string& fragment, const engine::contract::Json& j) {
  ASSERT_TRUE(j.is_object()) << fragment;
  EXPECT_TRUE(j["scenario"].is_object()) << fragment;
  EXPECT_TRUE(j["view"].is_object()) << fragment;
  EXPECT_TRUE(j["applied"].is_boolean()) << fragment;
  ASSERT_TRUE(j["notices"].is_array()) << fragment;
  for (const engine::contract::Json& n : j["notices"]) {
    ASSERT_TRUE(n.is_object() && n["message"].is_string() && n["args"].is_object()) << fragment << ": " << n;
    EXPECT_FALSE(n.value("code", "").empty()) << fragment << ": " << n;
    EXPECT_EQ(n["message"].get<std::string>().find("internal error"), std::string::npos) << fragment << ": " << n;
  }
}

bool HasNoticeFor(const engine::contract::Json& j, const std::string& key) {
  for (const engine::contract::Json& n : j["notices"]) {
    if (n["message"].get<std::string>().rfind(key + ":", 0) == 0) return true;
  }
  return false;
}

TEST(LinkCli, TheLinksThatBrokeThePageDecodeToCleanNotices) {
  struct Case {
    std::string fragment;
    std::string notice_key;  // a notice must name this key ("" for none in particular)
  };
  const std::vector<Case> cases = {
      {"#v=1&claim=x&claim.wall_hours=1", "claim"},
      {"#v=1&model=llama-3-70b&mfu=5e-324&tokens=1e9&gpus=16&zero=3", ""},
      {"#v=1&model=%FF%FE%00", "model"},
      {"v=1&depreciation_years=0&purchase=own", ""},
      {"#v=1&seq_len=%ZZ&tp=%4", ""},
      {"#v=1&gpus=1e400&tokens=-0&seq_len=NaN&budget=Infinity&mfu=-inf", "gpus"},
      {"#v=1&m.layers=0&m.hidden=4096", ""},
      {"#v=1&gpu=warp-drive-9000", "gpu"},
      {"#v=999&model=llama-3-8b", "v"},
      {"#%", ""},
      {"#", ""},
      {"#v=1&model=llama-3-8b&model=qwen2.5-7b", "model"},
      {"#" + std::string(2001, '&'), ""},
      {"#v=1&model=" + std::string(10000, 'x'), "model"},
  };
  for (const Case& c : cases) {
    const CliResult run = Cli({"link", c.fragment});
    EXPECT_EQ(run.status, 0) << c.fragment << "\n" << run.out;
    const engine::contract::Json j = Parsed(run);
    ExpectDecoded(c.fragment, j);
    if (!c.notice_key.empty()) {
      EXPECT_TRUE(HasNoticeFor(j, c.notice_key)) << c.fragment << "\n" << run.out;
    }
  }
}

TEST(LinkCli, AGoodLinkDecodesWithoutNotices) {
  const CliResult run = Cli({"link", "#v=1&model=llama-3-8b&method=lora&gpus=4&lang=zh"});
  ASSERT_EQ(run.status, 0) << run.out;
  const engine::contract::Json j = Parsed(run);
  ExpectDecoded("good", j);
  EXPECT_TRUE(j["notices"].empty()) << run.out;
  EXPECT_EQ(j["applied"], true);
  EXPECT_EQ(j["scenario"]["model"], "llama-3-8b");
  EXPECT_EQ(j["scenario"]["method"], "lora");
  EXPECT_EQ(j["scenario"]["gpus"], 4);
  EXPECT_EQ(j["view"]["lang"], "zh");
}

TEST(LinkCli, AFragmentTooLongToReadExitsTwoWithTheErrorShape) {
  const CliResult run = Cli({"link", "#v=1&model=" + std::string(20000, 'x')});
  EXPECT_EQ(run.status, 2);
  const engine::contract::Json j = Parsed(run);
  ASSERT_TRUE(j.is_object()) << run.out;
  EXPECT_EQ(j["error"]["field"], "link");
  EXPECT_TRUE(j["error"]["message"].is_string());
}

TEST(LinkCli, EncodeThenDecodeGivesTheSameEstimateAndPlan) {
  const std::vector<std::string> scenarios = {
      R"({"model":"llama-3-70b","method":"lora","lora_rank":64,"seq_len":8192,"tokens":2e9,"gpus":16,"tp":4,
          "zero":1,"deadline_days":7,"budget":40000,"currency":"EUR","objective":"cost"})",
      // Naming the default GPU is not written (only what differs from the defaults is), and
      // the page's planner then searches every GPU: such a scenario's plan differs.
      R"({"model":{"params_b":13.3},"method":"full","gpus":8,"zero":3,"tokens":1e9})",
      R"({"model":{"layers":24,"hidden":2048,"heads":16,"kv_heads":4,"ffn":5632,"vocab":32000},"method":"qlora",
          "gpu":"rtx-4090-24gb","activation_checkpointing":"full","tokens":1e8,"purchase":"own"})",
      R"({"model":"llama-3-8b"})",
  };
  for (const std::string& scenario : scenarios) {
    const CliResult encoded = Cli({"link", "--encode", "-"}, scenario);
    ASSERT_EQ(encoded.status, 0) << scenario << "\n" << encoded.out;
    ASSERT_EQ(encoded.out.rfind("#v=1&", 0), 0u) << encoded.out;
    ASSERT_EQ(encoded.out.back(), '\n');
    const std::string fragment = encoded.out.substr(0, encoded.out.size() - 1);

    const CliResult decoded = Cli({"link", fragment});
    ASSERT_EQ(decoded.status, 0) << fragment;
    const engine::contract::Json d = Parsed(decoded);
    ExpectDecoded(fragment, d);
    EXPECT_TRUE(d["notices"].empty()) << fragment << "\n" << decoded.out;
    EXPECT_EQ(d["applied"], true) << fragment;
    const std::string back = d["scenario"].dump();

    // The decoded fields stand for the same scenario: same estimate, same plan, same link.
    // (EXPECT_TRUE: a differing plan is pages long; the fragment says which scenario.)
    EXPECT_TRUE(Cli({"estimate", "-"}, back).out == Cli({"estimate", "-"}, scenario).out) << fragment;
    EXPECT_TRUE(Cli({"plan", "-"}, back).out == Cli({"plan", "-"}, scenario).out) << fragment;
    EXPECT_EQ(Cli({"link", "--encode", "-"}, back).out, encoded.out) << back;
  }
}

TEST(LinkCli, EncodeRefusesWhatEstimateRefusesWithTheSameError) {
  for (const std::string bad : {R"({"model":"llama-3-8b","zero":7})", R"({"model":"gpt-9"})", "not json",
                                "{\"model\":\"\xFF\xFE\"}"}) {
    const CliResult encoded = Cli({"link", "--encode", "-"}, bad);
    EXPECT_EQ(encoded.status, 2) << bad;
    EXPECT_EQ(encoded.out, Cli({"estimate", "-"}, bad).out) << bad;
    EXPECT_TRUE(Parsed(encoded).contains("error")) << encoded.out;
  }
}

TEST(LinkCli, HelpNamesBothForms) {
  const CliResult help = Cli({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("trainsizer link FRAGMENT"), std::string::npos);
  EXPECT_NE(help.out.find("trainsizer link --encode FILE|-"), std::string::npos);
  EXPECT_EQ(Cli({"link"}).status, 2);
  EXPECT_EQ(Cli({"link", "--encode"}).status, 2);
}

}  // namespace
