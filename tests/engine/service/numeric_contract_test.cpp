// The numeric contract (engine/input_limits.h): every numeric field refuses the edge values
// an outside test found (subnormal, huge, negative, not a number) with an error naming the
// field and its range, accepts both ends of its range, and every figure that comes back
// is finite. Also the issue-14 findings that were silently wrong from valid input.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "catalog/catalog_loader.h"
#include "engine/contract/scenario_json.h"
#include "engine/efficiency.h"
#include "engine/input_limits.h"
#include "engine/link/url_state.h"
#include "engine/planner.h"
#include "engine/service/api.h"

namespace {

using engine::contract::Json;

const engine::Catalog& Cat() { return catalog::Embedded().value(); }

// A small scenario that runs fast and fits, with `field` (a table name: "claim.wall_hours",
// "model.params_b", "model.kv_heads") set to `value`. An architecture field is set in
// Llama 3 8B's published shape (config.json: 32 layers, 4096 hidden, 32 heads, 8 KV heads,
// 14336 FFN, 128256 vocabulary).
Json WithField(std::string_view field, double value) {
  Json doc = {{"model", "llama-3-8b"}, {"method", "lora"}, {"tokens", 1e8}};
  const std::string name(field);
  const size_t dot = name.find('.');
  if (dot == std::string::npos) {
    doc[name] = value;
  } else if (name == "model.params_b") {
    doc["model"] = Json{{"params_b", value}};
  } else if (name.starts_with("model.")) {
    doc["model"] = Json{{"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"kv_heads", 8},
                        {"ffn", 14336}, {"vocab", 128256}};
    doc["model"][name.substr(dot + 1)] = value;
  } else {
    doc[name.substr(0, dot)][name.substr(dot + 1)] = value;
  }
  return doc;
}

Json Reply(const Json& doc) { return Json::parse(engine::service::Session().Estimate(doc.dump()).json); }

// Every number in a reply is finite (nlohmann writes inf/NaN as null, which cannot be
// told from "not given" in a few places, so the doubles are checked before any dump).
void ExpectAllFinite(const Json& j, const std::string& path) {
  if (j.is_number_float()) {
    EXPECT_TRUE(std::isfinite(j.get<double>())) << path;
  }
  if (j.is_structured()) {
    for (const auto& [key, value] : j.items()) ExpectAllFinite(value, path + "/" + key);
  }
  if (j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    EXPECT_EQ(text.find("inf "), std::string::npos) << path << ": " << text;
    EXPECT_EQ(text.find("nan"), std::string::npos) << path << ": " << text;
    EXPECT_EQ(text.find("9223372036854775808"), std::string::npos) << path << ": " << text;
  }
}

TEST(NumericContract, TheContractDocStatesEveryRange) {
  std::ifstream file(std::string(TRAINSIZER_SOURCE_DIR) + "/engine/README.md");
  std::stringstream text;
  text << file.rdbuf();
  for (const engine::NumericLimit& limit : engine::NumericLimits()) {
    const std::string row = "| `" + std::string(limit.field) + "` | " + engine::AllowedText(limit) + " |";
    EXPECT_NE(text.str().find(row), std::string::npos) << "engine/README.md lacks the row " << row;
  }
}

TEST(NumericContract, EdgeValuesAreRefusedNamingTheFieldAndItsRange) {
  // The outside test's values: subnormal, the smallest normal, negative zero's neighbour,
  // negatives, past every ceiling, and what wraps a 32- or 64-bit integer.
  const double edges[] = {5e-324, 2.2250738585072014e-308, 1e-300, -1, -1e-300, 1e308, 9.3e18, 4294967296.0};
  for (const engine::NumericLimit& limit : engine::NumericLimits()) {
    for (double value : edges) {
      const bool allowed = (limit.zero_is_unset && value == 0) || (value >= limit.min && value <= limit.max);
      if (allowed) continue;
      const Json reply = Reply(WithField(limit.field, value));
      ASSERT_TRUE(reply.contains("error")) << limit.field << "=" << value << ": " << reply.dump().substr(0, 200);
      const std::string field = limit.field == "budget" ? "budget" : std::string(limit.field);
      EXPECT_EQ(reply["error"]["field"], field) << value;
      EXPECT_NE(reply["error"]["message"].get<std::string>().find("must be"), std::string::npos)
          << limit.field << ": " << reply["error"]["message"];
    }
  }
}

TEST(NumericContract, BothEndsOfEveryRangeAreAcceptedAndGiveFiniteFigures) {
  for (const engine::NumericLimit& limit : engine::NumericLimits()) {
    // The range itself accepts both ends; a value may still clash with the rest of the
    // scenario (tp 1024 does not divide 32 heads, pp 1000 exceeds 32 layers: tested below).
    for (double value : {limit.min, limit.max}) {
      const Json reply = Reply(WithField(limit.field, value));
      if (reply.contains("error")) {
        const std::string message = reply["error"]["message"];
        EXPECT_EQ(message.find(engine::AllowedText(limit)), std::string::npos) << limit.field << "=" << value;
        EXPECT_EQ(reply["error"]["message"].get<std::string>().find("outside what the engine can compute"),
                  std::string::npos)
            << limit.field << "=" << value;
        continue;
      }
      ExpectAllFinite(reply, std::string(limit.field) + "=" + std::to_string(value));
    }
  }
}

TEST(NumericContract, TheSlowestAllowedJobStillHasFiniteTimeAndCost) {
  // mfu at its floor with 10^15 tokens on a 70B model: 1.4e301 h before the contract; now a
  // very long but finite wall time, and a plan whose every cost is a number.
  const Json doc = {{"model", "llama-3-70b"}, {"mfu", 0.001}, {"tokens", 1e15}, {"gpus", 16}, {"zero", 3}};
  const Json estimate = Reply(doc);
  ASSERT_FALSE(estimate.contains("error")) << estimate.dump();
  ExpectAllFinite(estimate, "estimate");
  EXPECT_GT(estimate["time"]["wall_hours"].get<double>(), 1e6);
  const Json plan = Json::parse(engine::service::Session().Plan(doc.dump()).json);
  ExpectAllFinite(plan, "plan");
  const std::string markdown = engine::service::Session().Export(doc.dump(), "plan", "markdown").json;
  EXPECT_EQ(markdown.find("-9223372036854775808"), std::string::npos);
}

TEST(NumericContract, ModelSetCeilingsNameTheModel) {
  // A 1-layer model: the freeze default (2 layers) is not refused unless the run freezes.
  const Json one_layer = {{"layers", 1}, {"hidden", 64}, {"heads", 1}, {"ffn", 256}, {"vocab", 1000}};
  EXPECT_FALSE(Reply({{"model", one_layer}, {"method", "full"}}).contains("error"));
  const Json freeze = Reply({{"model", one_layer}, {"method", "freeze"}});
  ASSERT_TRUE(freeze.contains("error"));
  EXPECT_EQ(freeze["error"]["field"], "freeze_trainable_layers");
  EXPECT_NE(freeze["error"]["message"].get<std::string>().find("between 1 and 1 (the model's layers)"),
            std::string::npos);
  EXPECT_EQ(Reply({{"model", "llama-3-8b"}, {"pp", 33}, {"gpus", 33}})["error"]["field"], "pp");  // 32 layers
}

TEST(NumericContract, ParamsBWorksAtBothDocumentedEnds) {
  // engine/README.md: params_b 0.01–10000. Both ends derive a shape; just past them is refused.
  for (double billions : {0.01, 10000.0}) {
    const Json reply = Reply({{"model", {{"params_b", billions}}}});
    ASSERT_FALSE(reply.contains("error")) << billions << ": " << reply.dump().substr(0, 300);
    EXPECT_LE(reply["params"]["total"].get<double>(), 1e13);
  }
  EXPECT_EQ(Reply({{"model", {{"params_b", 0.009}}}})["error"]["field"], "model.params_b");
  EXPECT_EQ(Reply({{"model", {{"params_b", 10001}}}})["error"]["field"], "model.params_b");
}

TEST(NumericContract, AClaimInDaysReadsBackInHoursUpToItsCeiling) {
  // 36,500 days (the ceiling) is written as 876,000 hours, which reads back.
  const Json doc = {{"model", "llama-3-8b"}, {"tokens", 1e9}, {"claim", {{"wall_days", 36500}}}};
  auto scenario = engine::contract::ScenarioFromJson(doc, Cat());
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  const Json written = engine::contract::ScenarioToJson(scenario.value());
  EXPECT_EQ(written["claim"]["wall_hours"].get<double>(), 876000);
  auto again = engine::contract::ScenarioFromJson(written, Cat());
  EXPECT_TRUE(again.ok()) << again.error().field << ": " << again.error().message;
}

TEST(NumericContract, AHugeValueIsNotEchoedWhole) {
  const std::string megabyte(1 << 20, 'x');
  for (const char* field : {"gpu", "network", "storage", "currency", "region", "method", "precision", "objective"}) {
    const Json reply = Reply({{"model", "llama-3-8b"}, {field, megabyte}});
    ASSERT_TRUE(reply.contains("error")) << field;
    EXPECT_LT(reply["error"]["message"].get<std::string>().size(), 4096u) << field;
  }
  const Json preset = Reply({{"model", megabyte}});
  EXPECT_LT(preset["error"]["message"].get<std::string>().size(), 4096u);
  // A megabyte key is not echoed whole as the error's field either.
  const Json key = Reply({{"model", "llama-3-8b"}, {megabyte, 1}});
  EXPECT_LT(key["error"]["field"].get<std::string>().size(), 100u);
  const Json claim_key = Reply({{"model", "llama-3-8b"}, {"claim", {{megabyte, 1}}}});
  EXPECT_LT(claim_key["error"]["field"].get<std::string>().size(), 100u);
}

TEST(NumericContract, AnEmptyKeyIsAnErrorThatNamesAField) {
  // Fuzz finding 2 (tests/fuzz/README.md): {"": ...} gave {"field": ""}.
  const Json top = Json::parse(engine::service::Session().Estimate(R"({"":"80gb090-24gb"})").json);
  EXPECT_EQ(top["error"]["field"], "scenario");
  const Json claim = Json::parse(engine::service::Session().Estimate(R"({"model":"llama-3-8b","claim":{"":1}})").json);
  EXPECT_EQ(claim["error"]["field"], "claim");
}

TEST(Precision, Fp16OnGeForceRunsAtTheFp32AccumulateRate) {
  // NVIDIA Ada whitepaper, RTX 4090: 165.2 dense TFLOPS FP16 with FP32 accumulate (330.3 only
  // with FP16 accumulate, which mixed-precision training does not use). RTX 3090 (GA102
  // whitepaper): 71 TFLOPS.
  EXPECT_DOUBLE_EQ(engine::PeakFlops(*Cat().FindGpu("rtx-4090-24gb"), engine::Precision::kFp16), 165.2e12);
  EXPECT_DOUBLE_EQ(engine::PeakFlops(*Cat().FindGpu("rtx-3090-24gb"), engine::Precision::kFp16), 71e12);
  // So no fp16 plan on a GeForce card shows an MFU above 1 (the grid found 706).
  const Json plan = Json::parse(engine::service::Session().Plan(R"({"model":"llama-3-8b","method":"qlora","precision":"fp16",
      "tokens":1e8,"allowed_gpus":["rtx-4090-24gb","rtx-3090-24gb","rtx-5090-32gb","rtx-4090d-24gb"]})").json);
  ASSERT_FALSE(plan.contains("error")) << plan.dump().substr(0, 300);
  ASSERT_FALSE(plan["pareto"].empty());
  for (const Json& p : plan["pareto"]) EXPECT_LE(p["mfu"].get<double>(), 1.0) << p["gpu"];
}

TEST(Precision, Bf16IsRefusedWhereTheHardwareHasNone) {
  // V100 (Volta) and T4 (Turing) have no bfloat16; fp16 runs there.
  for (const char* gpu : {"v100-sxm2-32gb", "t4-16gb"}) {
    const Json bf16 = Reply({{"model", "llama-3-8b"}, {"method", "qlora"}, {"gpu", gpu}});
    ASSERT_TRUE(bf16.contains("error")) << gpu;
    EXPECT_EQ(bf16["error"]["field"], "precision");
    EXPECT_FALSE(Reply({{"model", "llama-3-8b"}, {"method", "qlora"}, {"gpu", gpu}, {"precision", "fp16"}})
                     .contains("error"))
        << gpu;
  }
  // The planner says why it passes over them for a bf16 run, and still plans the others.
  const Json plan = Json::parse(
      engine::service::Session().Plan(R"({"model":"llama-3-8b","method":"qlora","tokens":1e8,"allowed_gpus":["v100-sxm2-32gb","a100-sxm-80gb"]})")
          .json);
  ASSERT_FALSE(plan.contains("error")) << plan.dump().substr(0, 300);
  bool v100_rejected = false;
  for (const Json& r : plan["rejected"]) v100_rejected |= r.dump().find("bfloat16") != std::string::npos;
  EXPECT_TRUE(v100_rejected) << plan["rejected"].dump();
}

TEST(UrlStateEdges, AGroupGivenAsAValueIsANoticeNotACrash) {
  // Issue 14 finding 1: `claim=x` stored a string where claim.wall_hours then indexed an object.
  for (const char* link : {"#v=1&claim=x&claim.wall_hours=1", "#v=1&claim.wall_hours=1&claim=x",
                           "#claim=v=\x1a&claim.wall_hours=0e-32"}) {
    const engine::link::UrlState s = engine::link::DecodeUrlState(link, Cat());
    bool named = false;
    for (const engine::Message& notice : s.ignored) named |= notice.english.starts_with("claim:");
    EXPECT_TRUE(named) << link;
    EXPECT_NO_THROW((void)s.scenario.dump()) << link;
  }
  const engine::link::UrlState s = engine::link::DecodeUrlState("#v=1&claim=x&claim.wall_hours=1", Cat());
  EXPECT_EQ(s.scenario["claim"]["wall_hours"], 1);
}

TEST(UrlStateEdges, TextThatIsNotUtf8IsRefusedWhereItEnters) {
  // Issue 14 finding 3: %FF%FE%00 reached the state JSON, whose dump() then threw.
  const engine::link::UrlState s = engine::link::DecodeUrlState("#v=1&model=%FF%FE%00&gpus=2", Cat());
  ASSERT_FALSE(s.ignored.empty());
  EXPECT_TRUE(s.ignored.front().english.starts_with("model:")) << s.ignored.front().english;
  EXPECT_FALSE(s.scenario.contains("model"));
  EXPECT_EQ(s.scenario["gpus"], 2);
  EXPECT_NO_THROW((void)s.scenario.dump());
  // Overlong forms and lone surrogates are not UTF-8 either; real text is.
  for (const char* bad : {"#model=%C0%AF", "#model=%ED%A0%80", "#model=%F4%90%80%80", "#%FF=1"}) {
    const engine::link::UrlState t = engine::link::DecodeUrlState(bad, Cat());
    EXPECT_FALSE(t.ignored.empty()) << bad;
    EXPECT_NO_THROW((void)t.scenario.dump()) << bad;
  }
  EXPECT_TRUE(engine::link::DecodeUrlState("#v=1&lang=zh&region=cn", Cat()).ignored.empty());
}

TEST(UrlStateEdges, HexadecimalIsNotANumberInALink) {
  // strtod reads "0x10" as 16; a link's numbers are decimal (found by a link grid, 2026-12-01).
  const engine::link::UrlState s = engine::link::DecodeUrlState("#v=1&pp=0x10&tokens=0x1p3", Cat());
  ASSERT_EQ(s.ignored.size(), 2u);
  EXPECT_TRUE(s.ignored[0].english.starts_with("pp: must be a number")) << s.ignored[0].english;
  EXPECT_FALSE(s.scenario.contains("pp"));
  EXPECT_FALSE(s.scenario.contains("tokens"));
}

TEST(UrlStateEdges, AGoalFieldIsCheckedEvenWhenTheScenarioHasAnErrorLeftForThePage) {
  // pp=16 against the default single GPU is the gpus field's error, left for the page to
  // show in place; own_utilization=9.3e18 was kept because the goal was never checked.
  const engine::link::UrlState s = engine::link::DecodeUrlState("#v=1&pp=16&own_utilization=9.3e18", Cat());
  bool named = false;
  for (const engine::Message& notice : s.ignored) named |= notice.english.starts_with("own_utilization:");
  EXPECT_TRUE(named);
  EXPECT_FALSE(s.scenario.contains("own_utilization"));
  EXPECT_EQ(s.scenario["pp"], 16);
}

TEST(UrlStateEdges, SubnormalAndHugeLinkValuesAreDroppedWithTheRange) {
  const engine::link::UrlState s =
      engine::link::DecodeUrlState("#v=1&model=llama-3-70b&mfu=5e-324&tokens=1e9&gpus=16&zero=3&node_gbps=1e308", Cat());
  ASSERT_EQ(s.ignored.size(), 2u);
  // In the order the fields are read (engine/scenario_fields.cpp): node_gbps, then mfu.
  EXPECT_TRUE(s.ignored[1].english.starts_with("mfu: must be 0 (predicted) or between 0.001 and 1"))
      << s.ignored[1].english;
  EXPECT_TRUE(s.ignored[0].english.starts_with("node_gbps: must be 0 (the fabric's usual) or between 1 and 1000000"))
      << s.ignored[0].english;
  EXPECT_FALSE(s.scenario.contains("mfu"));
  EXPECT_EQ(s.scenario["gpus"], 16);
}

}  // namespace
