// What every fuzz target asserts, beyond "did not crash" (tests/fuzz/README.md, "Strict
// checks"). A failed check prints what and where on stderr and aborts, which libFuzzer
// reports as a crash and saves the input.
//
// - A response is a JSON object; an error is {"error": {"field", "code", "args", "message"}}
//   with a non-empty field and message, each at most kMaxErrorBytes, a code (a template id,
//   or empty for a sentence not yet given one) and an args object, and no "internal error"
//   (a C++ exception api.cpp caught: the page survives it, but it is still a bug).
// - A result (estimate or plan) holds only finite numbers, no integer at or beyond
//   ±9.2e18 (a double cast to int64 that overflowed) nor INT64_MIN, and no string that
//   shows a broken number: "inf days", "inf%", "-nan", "NaN GPUs", "-9223372036854775808".
//   Text the input itself contains (a model name "nan") is echoed, not a finding.
// - nlohmann writes NaN and infinity as null, so the results are walked before they are
//   written: CheckEstimateAndPlan reads the request as api.cpp does and compares its
//   estimate byte for byte with engine::service::Session::Estimate's, so the walk sees what the API returns.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/contract/json_fields.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/estimate.h"
#include "engine/planner.h"
#include "engine/scenario_check.h"
#include "engine/service/api.h"

namespace fuzz {

using engine::contract::Json;

// An error's field and message: a line next to an input on the page, not a page of text.
inline constexpr size_t kMaxErrorBytes = 2048;

[[noreturn]] inline void Fail(const std::string& what) {
  constexpr size_t kShown = 600;
  std::fprintf(stderr, "\n==fuzz_check== %s%s\n", what.substr(0, kShown).c_str(), what.size() > kShown ? "…" : "");
  std::fflush(stderr);
  std::abort();
}

inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// The text an input carries, lowercased: raw, percent-decoded (links) and, when it is
// JSON, every key and string it holds (so that "\u006ean" counts as "nan").
class Input {
 public:
  explicit Input(std::string_view raw) {
    text_ = Lower(raw);
    std::string decoded;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '%' && i + 2 < raw.size() && std::isxdigit(static_cast<unsigned char>(raw[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(raw[i + 2]))) {
        decoded.push_back(static_cast<char>(std::strtol(std::string(raw.substr(i + 1, 2)).c_str(), nullptr, 16)));
        i += 2;
      } else {
        decoded.push_back(raw[i]);
      }
    }
    text_ += "\n" + Lower(decoded);
    const Json doc = Json::parse(raw.begin(), raw.end(), nullptr, /*allow_exceptions=*/false);
    if (!doc.is_discarded()) AddStrings(doc);
  }
  // Only the first 64 levels: the loaders refuse anything deeper (catalog_loader.cpp
  // kMaxNesting), so deeper text never reaches a result, and recursing 10,000 levels (the
  // deep-nesting regressions) would overflow the stack here.
  void AddStrings(const Json& j, int depth = 0) {
    constexpr int kMaxDepth = 64;
    if (depth > kMaxDepth) return;
    if (j.is_string()) text_ += "\n" + Lower(j.get_ref<const std::string&>());
    if (j.is_object()) {
      for (const auto& [k, v] : j.items()) {
        text_ += "\n" + Lower(k);
        AddStrings(v, depth + 1);
      }
    }
    if (j.is_array()) {
      for (const auto& v : j) AddStrings(v, depth + 1);
    }
  }
  bool Mentions(std::string_view lowered_word) const { return text_.find(lowered_word) != std::string::npos; }

 private:
  std::string text_;
};

// "inf", "infinity" or "nan" standing as a word of its own ("inf days", "-nan", "NaN%"),
// not inside one ("infiniband", "finance", "nanosecond").
inline bool HasNumberWord(const std::string& lowered, std::string_view word, std::string_view* found) {
  const auto alpha = [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)) != 0; };
  for (size_t at = lowered.find(word); at != std::string::npos; at = lowered.find(word, at + 1)) {
    if (at > 0 && alpha(lowered[at - 1])) continue;
    size_t end = at + word.size();
    if (word == "inf" && lowered.compare(end, 5, "inity") == 0) end += 5;
    if (end < lowered.size() && alpha(lowered[end])) continue;
    *found = word;
    return true;
  }
  return false;
}

inline void CheckString(const std::string& s, const std::string& path, const Input& input) {
  const std::string lowered = Lower(s);
  std::string_view word;
  for (std::string_view w : {"inf", "nan"}) {
    if (!input.Mentions(w) && HasNumberWord(lowered, w, &word)) {
      Fail("'" + std::string(word) + "' as a number in the result at " + path + ": \"" + s + "\"");
    }
  }
  for (std::string_view n : {"-9223372036854775808", "9223372036854775807", "18446744073709551615", "-2147483648"}) {
    if (s.find(n) != std::string::npos && !input.Mentions(n)) {
      Fail("an overflowed integer (" + std::string(n) + ") in the result at " + path + ": \"" + s + "\"");
    }
  }
}

// Every number finite and every integer inside int64 with room to spare; every string
// free of broken numbers.
inline void CheckResult(const Json& j, const std::string& path, const Input& input) {
  constexpr double kIntLimit = 9.2e18;
  switch (j.type()) {
    case Json::value_t::object:
      for (const auto& [k, v] : j.items()) CheckResult(v, path + "." + k, input);
      return;
    case Json::value_t::array:
      for (size_t i = 0; i < j.size(); ++i) CheckResult(j[i], path + "[" + std::to_string(i) + "]", input);
      return;
    case Json::value_t::number_float: {
      const double v = j.get<double>();
      if (!std::isfinite(v)) Fail("a non-finite number (" + std::to_string(v) + ") in the result at " + path);
      if (std::fabs(v) == 9223372036854775808.0) Fail("±2^63 (a saturated int64) in the result at " + path);
      return;
    }
    case Json::value_t::number_integer: {
      const std::int64_t v = j.get<std::int64_t>();
      if (v == INT64_MIN || std::fabs(static_cast<double>(v)) >= kIntLimit) {
        Fail("an integer at the int64 limit (" + std::to_string(v) + ") in the result at " + path);
      }
      return;
    }
    case Json::value_t::number_unsigned:
      if (static_cast<double>(j.get<std::uint64_t>()) >= kIntLimit) {
        Fail("an integer at the int64 limit (" + std::to_string(j.get<std::uint64_t>()) + ") in the result at " + path);
      }
      return;
    case Json::value_t::string: CheckString(j.get_ref<const std::string&>(), path, input); return;
    default: return;
  }
}

// {"error": {"field", "code", "args", "message"}}: a field named, a message given, both
// bounded, and the message's code and arguments.
inline void CheckError(const Json& doc, const char* where) {
  const std::string w(where);
  const auto error = doc.find("error");
  if (error == doc.end() || !error->is_object()) Fail(w + ": an error response without an \"error\" object");
  const auto field = error->find("field");
  const auto message = error->find("message");
  if (field == error->end() || !field->is_string() || field->get_ref<const std::string&>().empty()) {
    Fail(w + ": an error that names no field: " + error->dump());
  }
  if (message == error->end() || !message->is_string() || message->get_ref<const std::string&>().empty()) {
    Fail(w + ": an error without a message: " + error->dump());
  }
  const std::string& f = field->get_ref<const std::string&>();
  const std::string& m = message->get_ref<const std::string&>();
  if (!error->contains("code") || !(*error)["code"].is_string() || !error->contains("args") ||
      !(*error)["args"].is_object()) {
    Fail(w + ": an error without its code and args: " + error->dump());
  }
  if (m.starts_with("internal error")) Fail(w + ": " + f + ": " + m);
  if (f.size() > kMaxErrorBytes) Fail(w + ": an error field of " + std::to_string(f.size()) + " bytes: " + f);
  if (m.size() > kMaxErrorBytes) {
    Fail(w + ": an error message of " + std::to_string(m.size()) + " bytes (field " + f + "): " + m);
  }
}

// The same for an error in memory, whose message is also its template filled.
inline void CheckError(const engine::InputError& e, const char* where) {
  CheckError(engine::contract::ErrorToJson(e), where);
  if (!e.code.empty() && engine::RenderEnglish(e.code, e.args) != e.message) {
    Fail(std::string(where) + ": " + e.field + ": the message is not its template " + e.code + " filled: " + e.message);
  }
}

// An engine::service::Response: JSON, an object, a clean error or a result that passes CheckResult.
inline void CheckResponse(const engine::service::Response& r, const Input& input, const char* where = "response") {
  const Json doc = Json::parse(r.json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) Fail(std::string(where) + ": not a JSON object: " + r.json);
  if (r.ok) CheckResult(doc, "$", input);
  else CheckError(doc, where);
}

// api.cpp's Dump: compact, invalid UTF-8 replaced.
inline std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// session.Estimate on `text`, checked; then the same request read as api.cpp reads it
// (ReadRequest, CheckConstraints) against the session's catalog, its estimate walked
// before it is written and required to equal session.Estimate's, and, when `plan`, its
// plan walked too. The plan is run here rather than through session.Plan (the same
// request reader) so that it is computed once.
inline void CheckEstimateAndPlan(std::string_view text, const engine::service::Session& session, const Input& input, bool plan) {
  const engine::Catalog& cat = session.catalog();
  const engine::service::Response estimate = session.Estimate(text);
  // A result is walked below, before it is written, and must equal this text byte for
  // byte; an error is checked here.
  if (!estimate.ok) CheckResponse(estimate, input, "estimate");
  const auto same_as_api = [&](const std::string& replica, bool ok) {
    if (ok != estimate.ok || replica != estimate.json) {
      Fail("fuzz_check.h's copy of api.cpp's request reading no longer matches engine::service::Session::Estimate (update "
           "CheckEstimateAndPlan): api " + estimate.json.substr(0, 200) + " | copy " + replica.substr(0, 200));
    }
  };
  const auto refused = [&](const engine::InputError& e) { same_as_api(Dump(engine::contract::ErrorToJson(e)), false); };
  auto doc = engine::contract::ParseScenarioDocument(text);
  if (!doc.ok()) return refused(doc.error());
  auto scenario = engine::contract::ScenarioFromJson(doc.value(), cat);
  if (!scenario.ok()) return refused(scenario.error());
  auto constraints = engine::contract::ConstraintsFromJson(doc.value());
  if (!constraints.ok()) return refused(constraints.error());
  const Json& d = doc.value();
  if (d.contains("gpu") && !d.contains("allowed_gpus")) {
    if (auto e = engine::CheckGpuId(scenario.value().gpu_id, cat)) return refused(*e);
  }
  if (auto e = engine::ValidateConstraints(constraints.value(), cat)) {
    const bool from_budget = d.contains("budget") && d["budget"].is_object() && d["budget"].contains("currency");
    if (e->field == "currency" && from_budget && !d.contains("currency")) e->field = "budget.currency";
    return refused(*e);
  }
  auto result = engine::RunEstimate(scenario.value(), cat, engine::CostBasisOf(constraints.value()));
  if (result.ok()) {
    const Json j = engine::contract::EstimateToJson(result.value());
    CheckResult(j, "estimate", input);
    same_as_api(Dump(j), true);
  } else {
    refused(result.error());
  }
  if (!plan) return;
  auto planned = engine::RunPlan(scenario.value(), constraints.value(), cat);
  if (planned.ok()) {
    CheckResult(engine::contract::PlanToJson(planned.value(), constraints.value(), cat, scenario.value()), "plan", input);
  } else {
    CheckError(planned.error(), "plan");
  }
}

}  // namespace fuzz
