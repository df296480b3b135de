// The page's state in a URL fragment, so that a link reproduces what its sender saw:
//   #v=1&model=llama-3-70b&method=full&seq_len=4096&tokens=2e9&gpus=16&zero=3&deadline_days=7
// Keys are the scenario contract's field names (engine/README.md) and the planner's
// constraint names, so a link reads like the scenario JSON it stands for. A custom
// architecture's fields carry an "m." prefix (m.layers=80), an object field's fields its
// name (claim.tokens_per_s=100000); page-only settings (language, theme) are kept apart in
// `view`. Only fields that differ from the defaults are written.
//
// Decoding never fails: a parameter that is unknown, malformed or rejected by the scenario
// parser is dropped and named in `ignored`, and the rest of the link still applies. Each
// notice is a message (input.link.*, engine/messages_input.cpp), so the page says it in
// its own language: "gpus: must be between 1 and 1048576 GPUs, got 0" is input.link.notice
// with the key and the scenario parser's error as its arguments.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog.h"
#include "engine/contract/json_fields.h"
#include "engine/message.h"

namespace engine::link {

// Version 1 is the first and current link format; DecodeUrlState keeps reading every
// older version (none yet) by migrating it to the current one.
inline constexpr int kUrlStateVersion = 1;

// Longest fragment read; a real link is under 1 KiB even with a custom architecture.
inline constexpr size_t kMaxUrlStateBytes = 16 * 1024;

struct UrlState {
  contract::Json scenario = contract::Json::object();           // scenario + constraint fields from the link
  std::map<std::string, std::string> view;  // page-only keys: "lang", "theme"
  std::vector<engine::Message> ignored;     // "key: why", one per dropped parameter
};

// `fragment` is location.hash with or without the leading '#'.
UrlState DecodeUrlState(std::string_view fragment, const engine::Catalog& catalog);

// The fragment (without '#') for a scenario document (scenario + constraint fields, as
// contract::ScenarioToJson and contract::ConstraintsToJson write them) and the page-only keys.
std::string EncodeUrlState(const contract::Json& scenario_doc, const std::map<std::string, std::string>& view);

}  // namespace engine::link
