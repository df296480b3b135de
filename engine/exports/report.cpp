#include "engine/exports/report.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace engine::exports {
namespace {

// [SECTION] Values

// A JSON value as report text: strings as they are, whole numbers without a fraction
// ("8030261248", not "8030261248.0"), other numbers as JSON writes them, null empty.
std::string Text(const contract::Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return std::to_string(static_cast<long long>(d));
  }
  return contract::DumpJson(v);
}

// The value at a '/'-separated path, or null when any part is missing.
const contract::Json& At(const contract::Json& j, std::string_view path) {
  static const contract::Json kNull;
  const contract::Json* node = &j;
  while (!path.empty()) {
    const size_t slash = path.find('/');
    const std::string key(path.substr(0, slash));
    if (!node->is_object() || !node->contains(key)) return kNull;
    node = &(*node)[key];
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return *node;
}

struct Figure {
  std::string name, value, unit;
};

struct FigureSpec {
  const char* name;
  const char* path;
  const char* unit;
};

// The key figures of an estimate, in report order. Missing ones (time without tokens,
// cost when the result has none) are left out.
constexpr FigureSpec kEstimateFigures[] = {
    {"model", "model/name", ""},
    {"params_total", "params/total", "parameters"},
    {"params_active", "params/active", "parameters"},
    {"params_trainable", "params/trainable", "parameters"},
    {"memory_weights", "memory/weights_gib", "GiB"},
    {"memory_gradients", "memory/gradients_gib", "GiB"},
    {"memory_optimizer", "memory/optimizer_gib", "GiB"},
    {"memory_activations", "memory/activations_gib", "GiB"},
    {"memory_logits", "memory/logits_gib", "GiB"},
    {"memory_overhead", "memory/overhead_gib", "GiB"},
    {"memory_per_gpu", "memory/per_gpu_gib", "GiB"},
    {"gpu_capacity", "memory/capacity_gib", "GiB"},
    {"headroom", "memory/headroom_gib", "GiB"},
    {"fits", "memory/fits", ""},
    {"cpu_ram_per_gpu", "memory/cpu_ram_gib", "GiB"},
    {"tokens_per_s", "throughput/tokens_per_s", "tokens/s"},
    {"tokens_per_s_per_gpu", "throughput/tokens_per_s_per_gpu", "tokens/s"},
    {"mfu", "throughput/mfu", "fraction"},
    {"step_time", "throughput/step_time_s", "s"},
    {"training_tokens", "time/tokens", "tokens"},
    {"steps", "time/steps", "steps"},
    {"wall_time", "time/wall_hours", "h"},
    {"wall_time_days", "time/wall_days", "days"},
    {"gpu_hours", "time/gpu_hours", "GPU-hours"},
    {"expected_interruptions", "reliability/expected_interruptions", "interruptions"},
    {"wall_time_with_failures", "reliability/wall_hours_with_failures", "h"},
};

// The cost section, when the result carries one: its numeric fields, in its currency.
void AddCostFigures(const contract::Json& result, std::vector<Figure>& out) {
  const contract::Json& cost = At(result, "cost");
  if (!cost.is_object()) return;
  const std::string currency = cost.contains("currency") ? Text(cost["currency"]) : "";
  for (const auto& [key, value] : cost.items()) {
    if (value.is_number()) out.push_back({"cost_" + key, Text(value), currency});
  }
}

std::vector<Figure> EstimateFigures(const contract::Json& result) {
  std::vector<Figure> out;
  // Without tokens the result holds rates only, and time.tokens is 0.
  const bool no_tokens = At(result, "time/tokens") == 0;
  for (const FigureSpec& f : kEstimateFigures) {
    const contract::Json& v = At(result, f.path);
    if (v.is_null() || (no_tokens && std::string_view(f.path).rfind("time/", 0) == 0)) continue;
    out.push_back({f.name, Text(v), f.unit});
  }
  AddCostFigures(result, out);
  return out;
}

}  // namespace

std::string Cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// [SECTION] CSV

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvRow(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + CsvField(fields[i]);
  return out + "\r\n";
}

std::string EstimateCsv(const contract::Json& result) {
  std::string out = CsvRow({"name", "value", "unit"});
  for (const Figure& f : EstimateFigures(result)) out += CsvRow({f.name, f.value, f.unit});
  return out;
}

std::string EstimateTable(const contract::Json& result) {
  const std::vector<Figure> figures = EstimateFigures(result);
  size_t name_width = 4, value_width = 5;
  for (const Figure& f : figures) {
    name_width = std::max(name_width, f.name.size());
    value_width = std::max(value_width, f.value.size());
  }
  std::ostringstream out;
  auto row = [&](const std::string& name, const std::string& value, const std::string& unit) {
    out << name << std::string(name_width + 2 - name.size(), ' ') << std::string(value_width - value.size(), ' ')
        << value << "  " << unit << "\n";
  };
  row("name", "value", "unit");
  for (const Figure& f : figures) row(f.name, f.value, f.unit);
  return out.str();
}

// [SECTION] Markdown

namespace {

constexpr const char* kSummaryKeys[] = {
    "method", "lora_rank", "lora_targets", "lora_modules_to_save", "precision", "optimizer", "seq_len",
    "images_per_sample", "image_resolution", "image_max_pixels", "video_seconds", "vision_training",
    "projector_training", "freeze_llm", "micro_batch", "global_batch",
    "tokens", "activation_checkpointing", "flash_attention", "gpu", "gpus", "gpus_per_node", "tp", "pp", "cp", "ep",
    "virtual_pipeline", "sequence_parallel", "zero", "framework", "offload", "network"};

std::string ScenarioSection(const contract::Json& scenario, const contract::Json& result) {
  const bool adapter = scenario.value("method", "") == "lora" || scenario.value("method", "") == "qlora";
  std::string out = "## Scenario\n\n| setting | value |\n|---|---|\n";
  out += "| model | " + Cell(Text(At(result, "model/name")) + " (" + Text(At(result, "model/id")) + ")") + " |\n";
  for (const char* key : kSummaryKeys) {
    const std::string_view k = key;
    if (!scenario.contains(key) || (!adapter && k.rfind("lora_", 0) == 0)) continue;
    // Training nothing beside the adapters is the common case, not worth a row.
    if (k == "lora_modules_to_save" && scenario[key] == "none") continue;
    out += "| " + std::string(key) + " | " + Cell(Text(scenario[key])) + " |\n";
  }
  // A vision-language sample: its text and media parts as the language model runs them.
  if (At(result, "sequence/media_tokens").is_number() && At(result, "sequence/media_tokens").get<double>() > 0) {
    out += "| sequence | " +
           Cell(Text(At(result, "sequence/text_tokens")) + " text + " + Text(At(result, "sequence/media_tokens")) +
                " image/video = " + Text(At(result, "sequence/total_tokens")) + " tokens") +
           " |\n";
  }
  return out;
}

std::string MemorySection(const contract::Json& result) {
  std::string out = "## Memory per GPU\n\n| term | GiB | formula |\n|---|---:|---|\n";
  for (const char* term : {"weights", "gradients", "optimizer", "activations", "logits", "overhead"}) {
    out += "| " + std::string(term) + " | " + Text(At(result, "memory/" + std::string(term) + "_gib")) + " | " +
           Cell(Text(At(result, "memory/explain/" + std::string(term) + "/formula"))) + " |\n";
  }
  const bool fits = At(result, "memory/fits") == true;
  out += "| **total** | **" + Text(At(result, "memory/per_gpu_gib")) + "** | |\n\n";
  out += std::string(fits ? "Fits" : "**Does not fit**") + " the GPU's " + Text(At(result, "memory/capacity_gib")) +
         " GiB (headroom " + Text(At(result, "memory/headroom_gib")) + " GiB). Host RAM for offloaded state: " +
         Text(At(result, "memory/cpu_ram_gib")) + " GiB per GPU.\n";
  return out;
}

std::string TimeSection(const contract::Json& result) {
  std::string out = "## Time\n\n";
  out += "- throughput: " + Text(At(result, "throughput/tokens_per_s")) + " tokens/s (" +
         Text(At(result, "throughput/tokens_per_s_per_gpu")) + " per GPU), MFU " + Text(At(result, "throughput/mfu")) +
         ", step " + Text(At(result, "throughput/step_time_s")) + " s\n";
  if (At(result, "time/wall_hours").is_null()) return out + "- no training tokens given: rates only\n";
  out += "- " + Text(At(result, "time/tokens")) + " tokens in " + Text(At(result, "time/steps")) + " steps: " +
         Text(At(result, "time/wall_hours")) + " h (" + Text(At(result, "time/wall_days")) + " days), " +
         Text(At(result, "time/gpu_hours")) + " GPU-hours\n";
  if (!At(result, "reliability/wall_hours_with_failures").is_null()) {
    out += "- with failures and checkpoints: " + Text(At(result, "reliability/wall_hours_with_failures")) + " h (" +
           Text(At(result, "reliability/expected_interruptions")) + " expected interruptions)\n";
  }
  return out;
}

std::string CostSection(const contract::Json& result) {
  std::vector<Figure> cost;
  AddCostFigures(result, cost);
  if (cost.empty()) return "";
  std::string out = "\n## Cost\n\n| item | amount |\n|---|---:|\n";
  for (const Figure& f : cost) out += "| " + Cell(f.name.substr(5)) + " | " + f.value + " " + Cell(f.unit) + " |\n";
  return out;
}

std::string WarningsSection(const contract::Json& result) {
  std::string out = "## Warnings\n\n";
  const contract::Json& warnings = At(result, "warnings");
  if (!warnings.is_array() || warnings.empty()) return out + "None.\n";
  for (const contract::Json& w : warnings) out += "- **" + Text(w["code"]) + "**: " + Text(w["message"]) + "\n";
  return out;
}

std::string ChecklistSection(const contract::Json& result) {
  std::string out = "## Pre-order checklist\n\n| topic | status | answer |\n|---|---|---|\n";
  const contract::Json& items = At(result, "checklist");
  if (!items.is_array()) return out;
  for (const contract::Json& c : items) {
    out += "| " + Cell(Text(c["topic"])) + " | " + Cell(Text(c["status"])) + " | " + Cell(Text(c["answer"])) + " |\n";
  }
  return out;
}

}  // namespace

std::string EstimateMarkdown(const contract::Json& scenario, const contract::Json& result) {
  return "# TrainSizer estimate: " + Text(At(result, "model/name")) + "\n\n" + ScenarioSection(scenario, result) +
         "\n" + MemorySection(result) + "\n" + TimeSection(result) + CostSection(result) + "\n" +
         WarningsSection(result) + "\n" + ChecklistSection(result) + "\nTrainSizer " + Text(At(result, "version")) +
         "\n";
}

// [SECTION] Plan CSV

namespace {

constexpr const char* kPlanColumns[] = {
    "gpu", "gpu_name", "gpus", "nodes", "layout/tp", "layout/pp", "layout/cp", "layout/ep", "layout/dp",
    "layout/zero", "layout/sequence_parallel", "layout/offload", "layout/activation_checkpointing",
    "layout/micro_batch", "layout/global_batch", "memory_per_gpu_gib", "capacity_gib", "tokens_per_s", "mfu",
    "wall_hours", "wall_days", "gpu_hours", "purchase", "procurement", "procurement_id", "units", "cost",
    "cash_outlay", "storage_cost", "per_gpu_hour", "capex", "within_deadline", "within_budget"};

std::string PlanRow(const contract::Json& p, const std::string& kind, const std::string& currency) {
  std::string labels;
  if (p.contains("labels")) {
    for (const contract::Json& l : p["labels"]) labels += (labels.empty() ? "" : ", ") + Text(l);
  }
  std::vector<std::string> fields = {kind, labels};
  for (const char* column : kPlanColumns) fields.push_back(Text(At(p, column)));
  fields.push_back(currency);
  return CsvRow(fields);
}

}  // namespace

std::string PlanCsv(const contract::Json& plan) {
  std::vector<std::string> header = {"kind", "labels"};
  for (std::string column : kPlanColumns) {
    std::replace(column.begin(), column.end(), '/', '_');
    header.push_back(column.rfind("layout_", 0) == 0 ? column.substr(7) : column);
  }
  header.push_back("currency");
  std::string out = CsvRow(header);
  const std::string currency = Text(At(plan, "currency"));
  for (const char* list : {"picks", "pareto"}) {
    const contract::Json& plans = At(plan, list);
    if (!plans.is_array()) continue;
    for (const contract::Json& p : plans) out += PlanRow(p, list == std::string_view("picks") ? "pick" : "pareto", currency);
  }
  return out;
}

}  // namespace engine::exports
