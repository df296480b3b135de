// trainsizer: the command-line front end over the same entry point as the page's JS API.
//   trainsizer estimate FILE|- [--format json|csv|markdown|table]   scenario JSON in, result out
//   trainsizer plan FILE|- [--format json|csv|markdown|table|proposal]   search hardware and layouts
//     (without --format: the result JSON, as the JS API's estimate/plan; --format json: the
//     export, {"scenario", "result"} plus "constraints" for a plan, as the page downloads it)
//   trainsizer launch FILE|- [--tool deepspeed|torchrun|llamafactory|swift|megatron|verl|openrlhf|trl|all]   launch configs
//   trainsizer catalog [--stale DAYS]   the embedded catalog, or its prices older than DAYS
//   trainsizer validate [--format table|markdown|json]   predicted vs measured, published runs
//   trainsizer calibrate                                 the calibrated constants fitted on them
//   trainsizer link FRAGMENT      a page link decoded as the page reads it: scenario and notices
//   trainsizer link --encode FILE|-   the link fragment (#v=1&...) the page writes for a scenario
//   --catalog-overlay FILE        merge a user's catalog JSON first (validated like the catalog)
// Exit 0 on success, 2 on bad input (error JSON on stdout, one line on stderr).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/contract/contract_doc.h"
#include "engine/contract/json_fields.h"
#include "engine/contract/message_json.h"
#include "engine/contract/model_json.h"
#include "engine/contract/plan_json.h"
#include "engine/contract/result_json.h"
#include "engine/contract/scenario_json.h"
#include "engine/link/url_state.h"
#include "engine/service/api.h"
#include "engine/validation/validation_cases.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

constexpr const char* kUsage =
    "TrainSizer: sizes, prices and compares servers for training and fine-tuning LLMs.\n"
    "\n"
    "Usage:\n"
    "  trainsizer estimate FILE|- [--format json|csv|markdown|table]\n"
    "                               Read a scenario JSON (file, or - for stdin), print the result JSON;\n"
    "                               with --format: the export (json: {\"scenario\", \"result\"}; CSV\n"
    "                               name,value,unit rows; a Markdown report; a text table)\n"
    "  trainsizer plan FILE|- [--format json|csv|markdown|table|proposal]\n"
    "                               Search GPUs, counts and layouts for the scenario within its\n"
    "                               deadline_days / budget / objective / purchase constraints\n"
    "                               (--format json adds \"constraints\" to the scenario and result;\n"
    "                               --format proposal prints the printable proposal in Markdown)\n"
    "  trainsizer launch FILE|- [--tool deepspeed|torchrun|llamafactory|swift|megatron|verl|openrlhf|trl|all]\n"
    "                               Print ready-to-run launch configs for the scenario: DeepSpeed JSON,\n"
    "                               torchrun + FSDP command, LLaMA-Factory YAML, ms-swift command,\n"
    "                               Megatron-LM arguments; a TRL script for a vision-language model's\n"
    "                               fine-tuning; for post-training, verl and OpenRLHF commands and a TRL script\n"
    "                               (default all); settings a tool cannot express are listed as notes\n"
    "  trainsizer import FILE... [--from auto|llamafactory|axolotl|trl|deepspeed|torchtune|megatron|verl|openrlhf|swift]\n"
    "                    [--base SCENARIO]\n"
    "                               Read your own configs (LLaMA-Factory or axolotl YAML, TRL/Trainer\n"
    "                               arguments or a torchrun line, a DeepSpeed JSON, a torchtune recipe,\n"
    "                               Megatron-LM/NeMo arguments, verl, OpenRLHF or ms-swift lines, a\n"
    "                               config.json)\n"
    "                               as one scenario: {\"scenario\", \"files\", \"used\", \"ignored\",\n"
    "                               \"assumed\"}; --base: the scenario the import lands on\n"
    "  trainsizer catalog           Print the embedded hardware and model catalog as JSON\n"
    "  trainsizer fields            Print the scenario contract as Markdown tables: every field\n"
    "                               (type, unit, default, meaning) and every number's allowed range\n"
    "  trainsizer catalog --stale DAYS   List catalog prices (not datasheet figures) seen more than DAYS ago\n"
    "  trainsizer validate [--format table|markdown|json]\n"
    "                               Run every published training run in the embedded validation set;\n"
    "                               print predicted vs measured, the error per case, and the median and\n"
    "                               worst error for memory and throughput, in sample and with each\n"
    "                               source left out of the calibration (what to expect on new runs)\n"
    "  trainsizer calibrate         Fit the calibrated constants (GEMM efficiency per GPU generation,\n"
    "                               FP8, launch overhead, overlap, allocator slack) on every published\n"
    "                               run and print them next to their priors (engine/calibration.cpp)\n"
    "  trainsizer link FRAGMENT     Decode a page link's #fragment (with or without '#', quoted for the\n"
    "                               shell) as the page does: {\"scenario\": the link's fields, \"view\":\n"
    "                               lang/theme, \"notices\": each ignored parameter and why, as\n"
    "                               {\"code\", \"args\", \"message\"}, \"applied\"};\n"
    "                               exit 0 even with notices, 2 only when none of it can be read\n"
    "  trainsizer link --encode FILE|-\n"
    "                               Print the fragment the page writes for a scenario JSON (as estimate\n"
    "                               and plan read it, planner fields included): '#v=1&...', with the '#'\n"
    "  trainsizer --catalog-overlay FILE <command>   Merge your own catalog JSON (prices, GPUs,\n"
    "                               clouds) into the catalog first; same validation rules\n"
    "  trainsizer --version         Print the engine and catalog versions\n"
    "  trainsizer --help            Show this help\n"
    "\n"
    "Example:\n"
    "  echo '{\"model\":\"llama-3-8b\",\"method\":\"qlora\",\"gpu\":\"rtx-4090-24gb\"}' | trainsizer estimate -\n"
    "\n"
    "Exit status: 0 success, 2 bad input ({\"error\":{\"field\",\"code\",\"args\",\"message\"}} on stdout).\n";

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

// A command line this file refuses: the error JSON on stdout, "field: message" on stderr.
int Fail(const std::string& field, const char* id) {
  const engine::InputError error = engine::MakeInputError(field, id);
  std::cout << engine::contract::DumpJson(engine::contract::ErrorToJson(error)) << "\n";
  std::cerr << "trainsizer: " << error.field << ": " << error.message << "\n";
  return kExitBadInput;
}

bool ReadInput(const std::string& path, std::string* text) {
  if (path == "-") return ReadAll(std::cin, text);
  std::ifstream file(path, std::ios::binary);
  return file && ReadAll(file, text);
}

// An API error: its JSON on stdout, and on stderr after `what` ("catalog overlay: ").
int FailResponse(const engine::service::Response& response, const std::string& what = "") {
  std::cout << response.json << "\n";
  std::cerr << "trainsizer: " << what << response.json << "\n";
  return kExitBadInput;
}

// `what` is estimate or plan; `format` "" prints the result JSON alone (Session::Estimate or
// Session::Plan, byte for byte what the JS API returns), any other the export. JSON output ends
// with a newline; the other formats carry their own.
int Export(const engine::service::Session& session, const std::string& path, const std::string& what,
           const std::string& format) {
  if (format != "" && format != "json" && format != "csv" && format != "table" && format != "markdown" &&
      format != "proposal") {
    return Fail("--format", "input.export_format");
  }
  std::string text;
  if (!ReadInput(path, &text)) return Fail("input", "input.cli.unreadable_scenario");
  const engine::service::Response response = format.empty()
                                     ? (what == "plan" ? session.Plan(text) : session.Estimate(text))
                                     : session.Export(text, what, format);
  if (!response.ok) return FailResponse(response);
  std::cout << response.json << (format.empty() || format == "json" ? "\n" : "");
  return kExitOk;
}

constexpr const char* kLaunchTitles[][2] = {{"deepspeed", "ds_config.json (DeepSpeed)"},
                                             {"torchrun", "torchrun.sh (torchrun + FSDP)"},
                                             {"llamafactory", "llamafactory.yaml (LLaMA-Factory)"},
                                             {"swift", "swift.sh (ms-swift)"},
                                             {"megatron", "megatron.sh (Megatron-LM)"},
                                             {"verl", "verl.sh (verl main_ppo)"},
                                             {"openrlhf", "openrlhf.sh (OpenRLHF)"},
                                             {"trl", "train_trl.py (TRL)"}};

// One tool: its text alone on stdout (ready to redirect into a file), its notes on stderr.
// All: every text under a header, then all notes.
int Launch(const engine::service::Session& session, const std::string& path, const std::string& tool) {
  bool known = tool == "all";
  for (const auto& title : kLaunchTitles) known = known || tool == title[0];
  if (!known) return Fail("--tool", "input.cli.launch_tool");
  std::string text;
  if (!ReadInput(path, &text)) return Fail("input", "input.cli.unreadable_scenario");
  const engine::service::Response response = session.LaunchConfigs(text);
  if (!response.ok) return FailResponse(response);
  const engine::contract::Json configs = engine::contract::Json::parse(response.json);
  for (const auto& title : kLaunchTitles) {
    if (tool == title[0]) std::cout << configs[title[0]].get<std::string>();
    if (tool == "all") std::cout << "==> " << title[1] << " <==\n" << configs[title[0]].get<std::string>() << "\n";
  }
  if (tool == "all" && !configs["notes"].empty()) std::cout << "==> notes <==\n";
  for (const engine::contract::Json& note : configs["notes"]) {
    const std::string line = note["tool"].get<std::string>() + ": " + note["note"].get<std::string>() + "\n";
    if (tool == "all") std::cout << line;
    if (tool == note["tool"].get<std::string>()) std::cerr << "trainsizer: note: " << line;
  }
  return kExitOk;
}

int FailJson(const engine::InputError& error);

// `import FILE... [--from TOOL] [--base SCENARIO]`: the files as one run, through the same
// Session call the page's importConfig makes.
int Import(const engine::service::Session& session, const std::vector<std::string>& args) {
  engine::contract::Json request = {{"files", engine::contract::Json::array()}};
  for (size_t i = 1; i < args.size(); ++i) {
    if ((args[i] == "--from" || args[i] == "--base") && i + 1 >= args.size()) return Fail(args[i], "input.cli.missing_value");
    if (args[i] == "--from") {
      request["from"] = args[++i];
    } else if (args[i] == "--base") {
      std::string text;
      if (!ReadInput(args[++i], &text)) return Fail("--base", "input.cli.unreadable_scenario");
      auto base = engine::contract::ParseScenarioDocument(text);
      if (!base.ok()) return FailJson(base.error());
      request["base"] = base.value();
    } else {
      std::string text;
      if (!ReadInput(args[i], &text)) return Fail(args[i], "input.cli.unreadable_config");
      const std::string name = args[i] == "-" ? "stdin" : args[i].substr(args[i].find_last_of('/') + 1);
      request["files"].push_back({{"name", name}, {"text", text}});
    }
  }
  if (request["files"].empty()) return Fail("files", "import.no_files");
  const engine::service::Response response = session.ImportConfigs(request.dump());
  if (!response.ok) return FailResponse(response);
  std::cout << engine::contract::Json::parse(response.json).dump(2) << "\n";
  return kExitOk;
}

// Days since 1970-01-01 today, from the system clock (the CLI may read it; the engine never does).
long Today() {
  using namespace std::chrono;
  return static_cast<long>(floor<days>(system_clock::now()).time_since_epoch().count());
}

int Stale(const std::string& days_text) {
  char* end = nullptr;
  const long days = std::strtol(days_text.c_str(), &end, 10);
  if (end == days_text.c_str() || *end != '\0' || days < 0 || days > 36500) {
    return Fail("--stale", "input.cli.stale_days");
  }
  std::cout << engine::service::StaleJson(static_cast<int>(days), Today()) << "\n";
  return kExitOk;
}

// Exit 1 if a published run's scenario was refused: the validation set is ours, so that
// is a bug, not bad input.
int Validate(const std::string& format) {
  if (format != "table" && format != "markdown" && format != "json") {
    return Fail("--format", "input.cli.validate_format");
  }
  const std::vector<engine::validation::ValidationCase> cases = engine::validation::RunValidationCases();
  std::cout << engine::validation::ValidationReport(cases, format);
  for (const engine::validation::ValidationCase& c : cases) {
    if (!c.error.empty()) return 1;
  }
  return kExitOk;
}

// An input error, whose message may carry the input's text: escaped by the JSON writer.
int FailJson(const engine::InputError& error) {
  const std::string json = engine::contract::DumpJson(engine::contract::ErrorToJson(error));
  std::cout << json << "\n";
  std::cerr << "trainsizer: " << json << "\n";
  return kExitBadInput;
}

// `trainsizer link FRAGMENT`: what the page's ApplyLink makes of a link, with the catalog in
// force (the embedded one, or merged with --catalog-overlay). The page reads the link
// over the contract's defaults and keeps its own model when the link names none; a link
// whose fields do not make a scenario together is not applied ("applied": false).
int DecodeLink(const engine::service::Session& session, std::string_view fragment) {
  const auto& cat = session.catalog_or_error();
  if (!cat.ok()) return FailJson(cat.error());
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  if (fragment.size() > engine::link::kMaxUrlStateBytes) {
    return FailJson(engine::MakeInputError(
        "link", "input.cli.link_too_long",
        {engine::CountArg("max_chars", static_cast<long long>(engine::link::kMaxUrlStateBytes))}));
  }
  engine::contract::Json out;
  try {
    const engine::link::UrlState link = engine::link::DecodeUrlState(fragment, cat.value());
    std::vector<engine::Message> notices = link.ignored;
    bool applied = !link.scenario.empty();
    if (applied) {
      engine::contract::Json doc = link.scenario;
      if (!doc.contains("model") && !cat.value().models.empty()) doc["model"] = cat.value().models.front().spec.id;
      auto scenario = engine::contract::ScenarioFromJson(doc, cat.value());
      auto goal = engine::contract::ConstraintsFromJson(doc);
      if (!scenario.ok() || !goal.ok()) {
        const engine::InputError& e = scenario.ok() ? goal.error() : scenario.error();
        notices.push_back(engine::MakeMessage(
            "input.link.not_applied",
            {engine::TextArg("field", e.field), engine::MessageArgOf("reason", engine::ErrorMessage(e))}));
        applied = false;
      }
    }
    engine::contract::Json view = engine::contract::Json::object();
    for (const auto& [key, value] : link.view) view[key] = value;
    engine::contract::Json notice_list = engine::contract::Json::array();
    for (const engine::Message& notice : notices) notice_list.push_back(engine::contract::MessageJson(notice));
    out = {{"scenario", link.scenario}, {"view", view}, {"notices", notice_list}, {"applied", applied}};
  } catch (const std::exception& e) {
    // A decoder bug: the page refuses such a link with a notice and keeps working; so do we.
    out = {{"scenario", engine::contract::Json::object()},
           {"view", engine::contract::Json::object()},
           {"notices", engine::contract::Json::array({engine::contract::MessageJson(engine::MakeMessage(
                           "input.link.internal_error", {engine::TextArg("detail", e.what())}))})},
           {"applied", false}};
  }
  std::cout << engine::contract::DumpJson(out, 2) << "\n";
  return kExitOk;
}

// `trainsizer link --encode FILE|-`: the fragment the page writes to its address bar for
// the scenario (ui::ScenarioDocument + EncodeUrlState): the model as the document names
// it (preset id, params_b or the architecture), only fields that differ from the
// defaults. Printed with its leading '#'.
int EncodeLink(const engine::service::Session& session, const std::string& path) {
  std::string text;
  if (!ReadInput(path, &text)) return Fail("input", "input.cli.unreadable_scenario");
  // Exactly what estimate accepts (and its error when it does not).
  const engine::service::Response check = session.Estimate(text);
  if (!check.ok) return FailResponse(check);
  try {
    const auto& cat = session.catalog();
    const auto doc = engine::contract::ParseScenarioDocument(text);
    if (!doc.ok()) return FailJson(doc.error());
    const auto scenario = engine::contract::ScenarioFromJson(doc.value(), cat);
    if (!scenario.ok()) return FailJson(scenario.error());
    auto goal = engine::contract::ConstraintsFromJson(doc.value());
    if (!goal.ok()) return FailJson(goal.error());
    // As the page: naming the GPU does not restrict the planner's search to it.
    if (!doc.value().contains("allowed_gpus")) goal.value().gpus.clear();
    engine::contract::Json page_doc = engine::contract::ScenarioToJson(scenario.value());
    const engine::contract::Json& model = doc.value()["model"];
    if (model.is_string()) page_doc["model"] = model;
    else if (model.is_object() && model.contains("params_b")) page_doc["model"] = {{"params_b", model["params_b"]}};
    else page_doc["model"] = engine::contract::ArchitectureToJson(scenario.value().model);
    page_doc.update(engine::contract::ConstraintsToJson(goal.value()));
    std::cout << "#" << engine::link::EncodeUrlState(page_doc, {}) << "\n";
    return kExitOk;
  } catch (const std::exception& e) {
    return FailJson(engine::MakeInputError("scenario", "input.internal_error", {engine::TextArg("detail", e.what())}));
  }
}

int LoadOverlay(engine::service::Session& session, const std::string& path) {
  std::string text;
  if (!ReadInput(path, &text)) return Fail("--catalog-overlay", "input.cli.unreadable_overlay");
  const engine::service::Response response = session.SetCatalogOverlay(text);
  return response.ok ? kExitOk : FailResponse(response, "catalog overlay: ");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  engine::service::Session session;  // the embedded catalog, or it merged with --catalog-overlay
  if (args.size() >= 2 && args[0] == "--catalog-overlay") {
    if (int status = LoadOverlay(session, args[1]); status != kExitOk) return status;
    args.erase(args.begin(), args.begin() + 2);
  }
  const std::string command = args.empty() ? "" : args[0];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "--version") {
    std::cout << engine::service::VersionJson() << "\n";
    return kExitOk;
  }
  if (command == "catalog" && args.size() == 1) {
    std::cout << session.CatalogJson() << "\n";
    return kExitOk;
  }
  if (command == "catalog" && args.size() == 3 && args[1] == "--stale") return Stale(args[2]);
  if (command == "fields" && args.size() == 1) {
    std::cout << engine::contract::ScenarioFieldsMarkdown() << "\n"
              << engine::contract::ArchitectureFieldsMarkdown() << "\n"
              << engine::contract::GoalFieldsMarkdown() << "\n"
              << engine::contract::NumericContractMarkdown();
    return kExitOk;
  }
  if ((command == "estimate" || command == "plan") && args.size() == 2) return Export(session, args[1], command, "");
  if ((command == "estimate" || command == "plan") && args.size() == 4 && args[2] == "--format") {
    return Export(session, args[1], command, args[3]);
  }
  if (command == "calibrate" && args.size() == 1) {
    std::cout << engine::validation::CalibrationFitJson().dump(2) << "\n";
    return kExitOk;
  }
  if (command == "validate" && args.size() == 1) return Validate("table");
  if (command == "validate" && args.size() == 3 && args[1] == "--format") return Validate(args[2]);
  if (command == "link" && args.size() == 3 && args[1] == "--encode") return EncodeLink(session, args[2]);
  if (command == "link" && args.size() == 2 && args[1] != "--encode") return DecodeLink(session, args[1]);
  if (command == "import" && args.size() >= 2) return Import(session, args);
  if (command == "launch" && args.size() == 2) return Launch(session, args[1], "all");
  if (command == "launch" && args.size() == 4 && args[2] == "--tool") return Launch(session, args[1], args[3]);
  std::cerr << kUsage;
  return kExitBadInput;
}
