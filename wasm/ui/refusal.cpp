#include "refusal.h"

#include "format.h"

namespace ui {
namespace {

// English templates; Translate() gives the page's language.
const char* WorkTemplate(RefusedWork work) {
  switch (work) {
    case RefusedWork::kDrawing: return "drawing the page";
    case RefusedWork::kLink: return "the link %s";
    case RefusedWork::kJsOverlay: return "the catalog overlay from TrainSizer.setCatalogOverlay";
    case RefusedWork::kOverlayOrEdit: return "the catalog overlay or Assumptions edit";
    case RefusedWork::kLastEdit: return "the last edit";
    case RefusedWork::kPlanSearch: return "the plan search";
    case RefusedWork::kLastGood: return "the last inputs that worked";
    case RefusedWork::kLastGoodBuiltin: return "the last inputs that worked, on the built-in catalog";
    case RefusedWork::kFirstScreen: return "the first screen";
  }
  return "drawing the page";
}

const char* OutcomeSentence(RefusalOutcome outcome) {
  switch (outcome) {
    case RefusalOutcome::kLastGoodBack: return "The last inputs that worked are back.";
    case RefusalOutcome::kLastGoodBuiltin: return "The last inputs that worked are back, on the built-in catalog.";
    case RefusalOutcome::kStartedOver: return "The page started over from its first screen.";
    case RefusalOutcome::kStopped: return "Nothing is computed until a new link is opened.";
  }
  return "";
}

constexpr const char* kRefusedTemplate = "Refused %s after an internal error: %s. %s";
constexpr const char* kSafeModeHint = "Open a link (edit the address bar) or reload the page to continue.";

}  // namespace

std::string RefusalText(const Refusal& r, Lang lang) {
  const std::string work = Printf(Translate(lang, WorkTemplate(r.work)), r.link.c_str());
  return Printf(Translate(lang, kRefusedTemplate), work.c_str(), r.reason.c_str(),
                Translate(lang, OutcomeSentence(r.outcome)));
}

const char* SafeModeHint(Lang lang) { return Translate(lang, kSafeModeHint); }

std::vector<const char*> RefusalTemplates() {
  std::vector<const char*> out = {kRefusedTemplate, kSafeModeHint};
  for (RefusedWork w : {RefusedWork::kDrawing, RefusedWork::kLink, RefusedWork::kJsOverlay, RefusedWork::kOverlayOrEdit,
                        RefusedWork::kLastEdit, RefusedWork::kPlanSearch, RefusedWork::kLastGood,
                        RefusedWork::kLastGoodBuiltin, RefusedWork::kFirstScreen}) {
    out.push_back(WorkTemplate(w));
  }
  for (RefusalOutcome o : {RefusalOutcome::kLastGoodBack, RefusalOutcome::kLastGoodBuiltin,
                           RefusalOutcome::kStartedOver, RefusalOutcome::kStopped}) {
    out.push_back(OutcomeSentence(o));
  }
  return out;
}

}  // namespace ui
