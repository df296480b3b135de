// What the page refused after an exception or allocation failure in a frame (wasm/main.cpp
// recovers and fills this in): which work threw, the exception's text, and what the page
// did about it. Kept as parts, not a sentence, so it is drawn in the page's language (a
// message, input.refused, whose work and outcome are messages of their own).
#pragma once

#include <string>
#include <vector>

#include "i18n.h"

namespace ui {

// The work a frame was doing when it threw.
enum class RefusedWork {
  kDrawing,          // drawing the page (no other work pending)
  kLink,             // a link (address bar or TrainSizer.applyLink)
  kJsOverlay,        // a catalog overlay from TrainSizer.setCatalogOverlay
  kOverlayOrEdit,    // the page's catalog overlay or an Assumptions edit
  kLastEdit,         // the last edit of an input
  kPlanSearch,       // the plan search
  kLastGood,         // the last inputs that worked (after a first failure)
  kLastGoodBuiltin,  // the same on the built-in catalog (after a second)
  kFirstScreen,      // the first screen (after a third)
};

// What the page did after the failure.
enum class RefusalOutcome { kLastGoodBack, kLastGoodBuiltin, kStartedOver, kStopped };

struct Refusal {
  RefusedWork work = RefusedWork::kDrawing;
  std::string link;    // kLink: the link, shortened
  std::string reason;  // the exception's what(), as the runtime wrote it
  RefusalOutcome outcome = RefusalOutcome::kLastGoodBack;
};

// "Refused the link #v=1&… after an internal error: test fault. The last inputs that
// worked are back.": as a message (its English for the console and TrainSizer.current()),
// and in the page's language.
engine::Message RefusalMessage(const Refusal& refusal);
std::string RefusalText(const Refusal& refusal);
// The sentence drawn under the notice when nothing is computed any more.
const char* SafeModeHint(Lang lang);

}  // namespace ui
