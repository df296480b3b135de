// The answer at the top of the results: one line that says what the inputs come to, the
// cards behind it, the verdict on a claimed speed, the memory verdict and, when the
// scenario does not fit, what would make it fit. A scenario that does not fit gets no
// time or price of its own: the line and the cards give the planner's best plan instead,
// labelled as such. Where the best plan runs the job differently from the inputs (batch,
// layout, recomputation), the line under the cards names the difference.
#include <string>
#include <vector>

#include "app.h"
#include "engine/scenario_fields.h"
#include "format.h"
#include "i18n.h"
#include "local_text.h"
#include "widgets.h"

namespace ui {
namespace {

// The estimate fits, but inside the goal's memory safety margin (a plan would not).
bool FitsOnlyInsideMargin(const engine::Estimate& e, const AppState& state) {
  return e.fits && e.need_bytes > engine::UsableBytes(e.capacity_bytes, state.goal.memory_margin);
}

// The memory verdict under the cards, with the model it was computed for.
void DrawVerdict(const engine::Estimate& e, const AppState& state) {
  const engine::GpuSpec* gpu = state.catalog->FindGpu(state.inputs.scenario.gpu_id);
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? Colors().ok : Colors().bad);
  if (FitsOnlyInsideMargin(e, state)) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().warn);
    WrappedText(Printf(T("Fits on %s (%s) with only %s free, less than the %.0f%% safety margin: allocator "
                         "fragmentation or the estimate's own error can run it out of memory. Plans keep the margin."),
                       gpu->name.c_str(), GibText(e.capacity_bytes).c_str(),
                       GibText(e.capacity_bytes - e.need_bytes).c_str(), state.goal.memory_margin * 100).c_str());
    ImGui::PopStyleColor();
  } else if (e.fits) {
    WrappedText(Printf(T("Fits on %s (%s), %s free"), gpu->name.c_str(), GibText(e.capacity_bytes).c_str(),
                       GibText(e.capacity_bytes - e.need_bytes).c_str()).c_str());
  } else {
    WrappedText(Printf(T("Does not fit on %s (%s): %s short"), gpu->name.c_str(), GibText(e.capacity_bytes).c_str(),
                       GibText(e.need_bytes - e.capacity_bytes).c_str()).c_str());
  }
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted);
  std::string model = MessageText(engine::ModelNameMessage(e.model, e.model_derived));
  if (e.model_derived) model = Printf(T("%s (derived shape)"), model.c_str());
  const int gpus = state.inputs.scenario.parallel.gpus;
  WrappedText(Printf(gpus == 1 ? T("%s: %s parameters (%s active), %s trainable, on %d GPU")
                               : T("%s: %s parameters (%s active), %s trainable, on %d GPUs"),
                     model.c_str(), ParamsText(e.params.total).c_str(), ParamsText(e.params.active).c_str(),
                     ParamsText(e.memory.trainable_params).c_str(), gpus).c_str());
  ImGui::PopStyleColor();
}

// One changed input as the form names it ("Activation checkpointing: Full"); fields the
// form does not show (the node size that follows the GPU count) are left out.
std::string ChangeText(const engine::FieldChange& c, const AppState& state) {
  const engine::ScenarioField* f = engine::FindScenarioField(c.key);
  if (f == nullptr || f->label == nullptr) return "";
  std::string value;
  switch (f->type) {
    case engine::FieldType::kChoice: {
      const size_t index = f->ChoiceIndex(c.text);
      value = index < f->choice_labels.size() ? T(f->choice_labels[index]) : c.text;
      break;
    }
    case engine::FieldType::kText: {
      const engine::GpuSpec* gpu = c.key == "gpu" ? state.catalog->FindGpu(c.text) : nullptr;
      value = gpu != nullptr ? gpu->name : c.text;
      break;
    }
    case engine::FieldType::kBool: value = c.value != 0 ? T("on") : T("off"); break;
    default: value = WithThousands(c.value); break;
  }
  return Printf("%s: %s", T(f->label), value.c_str());
}

// Under a "does not fit" verdict: what would make it fit, each with its memory and time
// and an Apply button (the engine's fit options, model.md §10).
void DrawFitOptions(AppState& state, const engine::Estimate& e) {
  if (e.fits || e.fit_options.empty()) return;
  ImGui::Spacing();
  ImGui::TextUnformatted(T("What would make it fit:"));
  const engine::FitOption* chosen = nullptr;
  for (size_t i = 0; i < e.fit_options.size(); ++i) {
    const engine::FitOption& o = e.fit_options[i];
    std::string changes;
    for (const engine::FieldChange& c : o.changes) {
      const std::string text = ChangeText(c, state);
      if (text.empty()) continue;
      changes += (changes.empty() ? "" : ", ") + text;
    }
    const std::string time = o.slowdown >= 1 ? Printf(T("%.2f× the time"), o.slowdown)
                                             : Printf(T("%.2f× the time (faster)"), o.slowdown);
    std::string line = Printf(T("%s → %s per GPU, %s"), changes.c_str(), GibText(o.need_bytes).c_str(), time.c_str());
    if (o.changes_the_job) line += Printf(" (%s)", T("changes what is trained"));
    ImGui::PushID(int(i));
    ImGui::Bullet();
    WrappedText(line.c_str());
    if (ImGui::SmallButton(L("Apply"))) chosen = &o;
    MarkAnchor(state, "fit-option:" + std::to_string(i));
    ImGui::PopID();
  }
  if (chosen != nullptr) AdoptFitOption(state, *chosen);
}

// The planner's first plan for the current inputs (its ranking by the goal's objective),
// or null while it searches or when it found none.
const engine::Plan* BestPlan(const AppState& state) {
  if (state.plan_search || !state.plan.ok() || state.plan.value().plans.empty()) return nullptr;
  return &state.plan.value().plans.front();
}

// "8× H100 SXM 80GB": a count of a catalog GPU by its name (its id when unknown).
std::string GpusText(int gpus, const std::string& gpu_id, const AppState& state) {
  const engine::GpuSpec* gpu = state.catalog->FindGpu(gpu_id);
  return Printf("%d× %s", gpus, gpu != nullptr ? gpu->name.c_str() : gpu_id.c_str());
}

std::string PlanGpusText(const engine::Plan& p, const AppState& state) {
  return GpusText(p.layout.gpus, p.gpu_id, state);
}

// The one line the answer starts with.
std::string TopLine(const AppState& state, const engine::Estimate& e, const engine::Plan* best) {
  const engine::Scenario& s = state.inputs.scenario;
  const std::string here = GpusText(s.parallel.gpus, s.gpu_id, state);
  const std::string& currency = e.costs.basis.currency;
  if (e.fits) {
    if (e.time.tokens <= 0) return Printf(T("It fits on %s. Give the tokens to train on for its time and cost."), here.c_str());
    const std::string time = HoursText(e.reliability.wall_hours_with_failures);
    if (!e.costs.rent) return Printf(T("It fits on %s and takes %s."), here.c_str(), time.c_str());
    const engine::CloudCost& rent = *e.costs.rent;
    if (rent.offer->min_term_hours > e.costs.hours) {
      return Printf(T("It fits on %s and takes %s; renting costs %s, a minimum term of %s."), here.c_str(),
                    time.c_str(), MoneyText(rent.total, currency).c_str(),
                    HoursText(rent.offer->min_term_hours).c_str());
    }
    return Printf(T("It fits on %s and takes %s; renting costs %s."), here.c_str(), time.c_str(),
                  MoneyText(rent.total, currency).c_str());
  }
  const std::string verdict = Printf(T("It does not fit on %s (%s short per GPU)."), here.c_str(),
                                     GibText(e.need_bytes - e.capacity_bytes).c_str());
  if (state.plan_search) return verdict + " " + T("Searching for a plan that fits…");
  if (!state.plan.ok()) {
    return verdict + " " + Printf(T("No plan: %s."), ErrorText(state.plan.error()).c_str());
  }
  if (best == nullptr) return verdict + " " + T("No catalog plan fits: see what would make it fit below.");
  const bool met = state.plan.value().constraints_met;
  // An owned plan's cost is the job's share; the cash to buy the servers is said beside it.
  const std::string cost =
      best->own ? Printf(T("%s as its share of owning (buying costs %s)"),
                         MoneyText(best->cost, state.goal.currency).c_str(),
                         MoneyText(best->whole_capex, state.goal.currency).c_str())
                : MoneyText(best->cost, state.goal.currency);
  return verdict + " " +
         Printf(met ? T("Best plan that fits: %s, %s, %s.") : T("Nearest plan that fits (it misses the deadline or budget): %s, %s, %s."),
                PlanGpusText(*best, state).c_str(), HoursText(best->wall_hours).c_str(), cost.c_str());
}

// How `plan` runs the job unlike the inputs, in the form's words ("Micro-batch: 4").
std::vector<std::string> PlanDifferences(const AppState& state, const engine::Estimate& e, const engine::Plan& p) {
  const engine::Scenario& s = state.inputs.scenario;
  const engine::Parallelism& l = p.layout;
  const auto recompute = [](engine::Recompute r) { return std::string(engine::EnumName(engine::kRecomputeNames, r)); };
  const auto offload = [](engine::Offload o) { return std::string(engine::EnumName(engine::kOffloadNames, o)); };
  std::vector<engine::FieldChange> changes;
  if (p.gpu_id != s.gpu_id) changes.push_back({"gpu", 0, p.gpu_id});
  if (l.gpus != s.parallel.gpus) changes.push_back({"gpus", double(l.gpus), ""});
  if (l.tp != s.parallel.tp) changes.push_back({"tp", double(l.tp), ""});
  if (l.pp != s.parallel.pp) changes.push_back({"pp", double(l.pp), ""});
  if (l.zero != s.parallel.zero) changes.push_back({"zero", double(l.zero), ""});
  if (l.offload != s.parallel.offload) changes.push_back({"offload", 0, offload(l.offload)});
  if (p.micro_batch != s.training.micro_batch) changes.push_back({"micro_batch", double(p.micro_batch), ""});
  if (p.global_batch != e.throughput.global_batch) changes.push_back({"global_batch", double(p.global_batch), ""});
  if (p.activation_checkpointing != s.training.activation_checkpointing) {
    changes.push_back({"activation_checkpointing", 0, recompute(p.activation_checkpointing)});
  }
  std::vector<std::string> out;
  for (const engine::FieldChange& c : changes) {
    const std::string text = ChangeText(c, state);
    if (!text.empty()) out.push_back(text);
  }
  return out;
}

// Under the cards of a scenario that fits: where the best plan differs from it, so the
// plan's time and MFU below are not read as contradicting the cards.
void DrawPlanDifference(const AppState& state, const engine::Estimate& e, const engine::Plan* best) {
  if (!e.fits || best == nullptr) return;
  const std::vector<std::string> differences = PlanDifferences(state, e, *best);
  if (differences.empty()) return;
  std::string list;
  for (const std::string& d : differences) list = list.empty() ? d : Printf(T("%s, %s"), list.c_str(), d.c_str());
  MutedText(Printf(T("The best plan below (%s, %s) runs it differently: %s. Its time and utilization differ from "
                     "these cards for that reason."),
                   PlanGpusText(*best, state).c_str(), HoursText(best->wall_hours).c_str(), list.c_str())
                .c_str());
}

}  // namespace

void DrawResultsSummary(AppState& state, const Fonts& fonts) {
  if (!state.result.ok()) {
    const engine::InputError& error = state.result.error();
    ImGui::PushStyleColor(ImGuiCol_Text, Colors().bad);
    WrappedText(Printf(T("Input problem, %s: %s. Showing the last valid result."), error.field.c_str(),
                       ErrorText(error).c_str()).c_str());
    ImGui::PopStyleColor();
  }
  if (!state.last_good) return;
  const engine::Estimate& e = *state.last_good;
  const engine::Plan* best = BestPlan(state);
  ImGui::PushStyleColor(ImGuiCol_Text,
                        !e.fits ? Colors().bad : FitsOnlyInsideMargin(e, state) ? Colors().warn : Colors().ok);
  ImGui::PushFont(fonts.heading);
  WrappedText(TopLine(state, e, best).c_str());
  ImGui::PopFont();
  ImGui::PopStyleColor();
  MarkAnchor(state, "answer");
  DrawSummaryCards(state, e, e.fits ? nullptr : best, fonts);
  bool use_best = false;
  if (!e.fits && best != nullptr) {
    use_best = ImGui::SmallButton(L("Use the best plan"));
    MarkAnchor(state, "use-best-plan");
  }
  DrawPlanDifference(state, e, best);
  DrawClaimVerdict(state, e);
  DrawVerdict(e, state);
  DrawFitOptions(state, e);  // Apply changes the inputs, not this estimate
  if (use_best) AdoptPlan(state, *best);  // last: the plan is read above this frame
}

}  // namespace ui
