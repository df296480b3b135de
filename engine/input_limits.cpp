#include "input_limits.h"

#include <cmath>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "architecture_fields.h"
#include "goal_fields.h"
#include "scenario_fields.h"

namespace engine {
namespace {

// Where the floors and ceilings of the scenario's numeric fields come from (they are
// declared with the fields in engine/scenario_fields.cpp; the architecture's and the
// goal's say so in architecture_fields.cpp and goal_fields.cpp; docs/model.md §0.3):
// - counts (GPUs, degrees, ranks, batch sizes) keep the limits they have always had: past
//   them a value is a typo, and their products stay far inside 64-bit arithmetic;
// - tokens: 1 token is the least that can be trained on; 10^15 is ~70× the largest
//   published pre-training corpus (Llama 3: 15.6T, Meta 2024);
// - mfu: 0.1% is ten times below the worst published utilisation (a few % for small
//   models over slow networks); below it a wall time is a typo, and a subnormal one is inf;
// - node_gbps: 1 Gbit/s is the slowest Ethernet anyone trains over; 10^6 Gbit/s is 1,000×
//   today's 800G NICs;
// - claim.wall_hours: 36 s is less than any real job's start-up; 100 years
//   (876,000 h = 36,500 days) is past any claim; wall_days has the same span, so that a
//   claim in days always reads back in hours.
// - claim.mfu: the floor of mfu; a claim may exceed 1 (the check calls it impossible), but
//   past 10 (1,000%) it is a percentage typed as a fraction (45 for 45%).
//
// Here the one number that belongs to no field table: a bare parameter count.
constexpr NumericLimit kOtherLimits[] = {
    {"model.params_b", 0.01, 10000, false, false, "billion parameters", ""},
};

// The message of a unit or of what 0 stands for, as the table writes them in English.
constexpr EnglishWord kUnits[] = {
    {"billion parameters", "input.unit.billion_parameters"}, {"days", "input.unit.days"},
    {"GPUs", "input.unit.gpus"},       {"layers", "input.unit.layers"},
    {"tokens", "input.unit.tokens"},   {"sequences", "input.unit.sequences"},
    {"tokens/s", "input.unit.tokens_per_s"}, {"h", "input.unit.hours"},
    {"min", "input.unit.minutes"},     {"stages", "input.unit.stages"},
    {"Gbit/s", "input.unit.gbit_per_s"}, {"W", "input.unit.watts"},
    {"answers", "input.unit.answers"}, {"prompts", "input.unit.prompts"},
    {"images", "input.unit.images"},
    {"px", "input.unit.px"},
    {"s", "input.unit.seconds"},
    {"frames/s", "input.unit.frames_per_s"},
    {"frames", "input.unit.frames"},
    {"patches", "input.unit.patches"},
    {"tiles", "input.unit.tiles"},
};
constexpr EnglishWord kZeroMeanings[] = {
    {"the method's default: 4M tokens for pre-training, 128 sequences for fine-tuning", "input.zero_means.default_batch"},
    {"not given", "input.zero_means.not_given"},
    {"no claim", "input.zero_means.no_claim"},
    {"predicted", "input.zero_means.predicted"},
    {"the fabric's usual", "input.zero_means.fabric_default"},
    {"the GPU's rated power", "input.zero_means.rated_power"},
    {"the tensor-parallel degree", "input.zero_means.tp"},
    {"none", "input.zero_means.none"},
    {"no limit", "input.zero_means.no_limit"},
    {"half the job's", "input.zero_means.half_the_gpus"},
    {"the fewest that fit", "input.zero_means.fewest_that_fit"},
    {"what the step needs", "input.zero_means.step_needs"},
    {"response_len", "input.zero_means.response_len"},
    {"the method's", "input.zero_means.methods"},
    {"the model's", "input.zero_means.models"},
    {"no video", "input.zero_means.no_video"},
};

Message LimitWord(std::span<const EnglishWord> words, std::string_view english) {
  if (auto message = WordMessage(words, english)) return *message;
  std::abort();  // a unit or meaning without a message: a programming error, caught by every test
}

// A limit's bound as the messages show it: whole-number limits in full ("1048576"), the
// others as short as they read back.
MessageArg BoundArg(std::string name, const NumericLimit& limit, double bound) {
  return limit.integer ? CountArg(std::move(name), static_cast<long long>(bound)) : ExactArg(std::move(name), bound);
}

}  // namespace

std::span<const NumericLimit> NumericLimits() {
  static const std::vector<NumericLimit> limits = [] {
    std::vector<NumericLimit> all(ScenarioFieldLimits().begin(), ScenarioFieldLimits().end());
    all.insert(all.end(), std::begin(kOtherLimits), std::end(kOtherLimits));
    all.insert(all.end(), ArchitectureFieldLimits().begin(), ArchitectureFieldLimits().end());
    all.insert(all.end(), GoalFieldLimits().begin(), GoalFieldLimits().end());
    return all;
  }();
  return limits;
}

const NumericLimit& LimitOf(std::string_view field) {
  for (const NumericLimit& limit : NumericLimits()) {
    if (limit.field == field) return limit;
  }
  std::abort();  // a field the table does not list: a programming error, caught by every test
}

std::string AllowedText(const NumericLimit& limit) {
  // Whole-number limits in full ("1048576"), the others as short as they read back.
  const std::string range = EnglishArg(BoundArg("min", limit, limit.min)) + " and " +
                            EnglishArg(BoundArg("max", limit, limit.max));
  if (!limit.zero_is_unset) return "between " + range;
  return "0 (" + std::string(limit.zero_means) + ") or between " + range;
}

std::optional<InputError> CheckLimit(std::string_view field, std::string_view error_field, double value) {
  const NumericLimit& limit = LimitOf(field);
  const bool in_range = std::isfinite(value) && ((limit.zero_is_unset && value == 0) ||
                                                 (value >= limit.min && value <= limit.max));
  if (!in_range) {
    std::vector<MessageArg> args = {BoundArg("min", limit, limit.min), BoundArg("max", limit, limit.max),
                                    ExactArg("got", value)};
    std::string id = "input.out_of_range";
    if (limit.zero_is_unset) {
      id += limit.unit.empty() ? ".unset" : ".unset_unit";
      args.push_back(MessageArgOf("zero_means", LimitWord(kZeroMeanings, limit.zero_means)));
    } else if (!limit.unit.empty()) {
      id += ".unit";
    }
    if (!limit.unit.empty()) args.push_back(MessageArgOf("unit", LimitWord(kUnits, limit.unit)));
    return MakeInputError(std::string(error_field), id, std::move(args));
  }
  if (limit.integer && value != std::floor(value)) {
    return MakeInputError(std::string(error_field), "input.not_whole", {ExactArg("got", value)});
  }
  return std::nullopt;
}

std::optional<InputError> CheckLimit(std::string_view field, double value) { return CheckLimit(field, field, value); }

}  // namespace engine
