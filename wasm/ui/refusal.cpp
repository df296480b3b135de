#include "refusal.h"

namespace ui {
namespace {

// The message of each part (engine/messages_input.cpp has the English templates).
const char* WorkId(RefusedWork work) {
  switch (work) {
    case RefusedWork::kDrawing: return "input.refused.work.drawing";
    case RefusedWork::kLink: return "input.refused.work.link";
    case RefusedWork::kJsOverlay: return "input.refused.work.js_overlay";
    case RefusedWork::kOverlayOrEdit: return "input.refused.work.overlay_or_edit";
    case RefusedWork::kLastEdit: return "input.refused.work.last_edit";
    case RefusedWork::kPlanSearch: return "input.refused.work.plan_search";
    case RefusedWork::kLastGood: return "input.refused.work.last_good";
    case RefusedWork::kLastGoodBuiltin: return "input.refused.work.last_good_builtin";
    case RefusedWork::kFirstScreen: return "input.refused.work.first_screen";
  }
  return "input.refused.work.drawing";
}

const char* OutcomeId(RefusalOutcome outcome) {
  switch (outcome) {
    case RefusalOutcome::kLastGoodBack: return "input.refused.outcome.last_good_back";
    case RefusalOutcome::kLastGoodBuiltin: return "input.refused.outcome.last_good_builtin";
    case RefusalOutcome::kStartedOver: return "input.refused.outcome.started_over";
    case RefusalOutcome::kStopped: return "input.refused.outcome.stopped";
  }
  return "input.refused.outcome.last_good_back";
}

constexpr const char* kSafeModeHint = "Open a link (edit the address bar) or reload the page to continue.";

}  // namespace

engine::Message RefusalMessage(const Refusal& r) {
  std::vector<engine::MessageArg> work_args;
  if (r.work == RefusedWork::kLink) work_args.push_back(engine::TextArg("link", r.link));
  return engine::MakeMessage("input.refused",
                             {engine::MessageArgOf("work", engine::MakeMessage(WorkId(r.work), std::move(work_args))),
                              engine::TextArg("reason", r.reason),
                              engine::MessageArgOf("outcome", engine::MakeMessage(OutcomeId(r.outcome)))});
}

std::string RefusalText(const Refusal& r) { return MessageText(RefusalMessage(r)); }

const char* SafeModeHint(Lang lang) { return Translate(lang, kSafeModeHint); }

}  // namespace ui
