// The verdict on a claimed speed, wall time or MFU (the "Check a claim" inputs): the
// verdict word in its colour, the engine's sentence, what the claim implies and what the
// engine predicts for the same setup, with the error bar of published runs like it.
#include <string>

#include "accuracy.h"
#include "app.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

// The verdict as a person reads it, and its colour: beyond physics or published runs is
// bad, faster than predicted a warning, near or slower than predicted fine.
const char* VerdictWord(engine::ClaimVerdict verdict) {
  switch (verdict) {
    case engine::ClaimVerdict::kImpossible: return T("Impossible");
    case engine::ClaimVerdict::kImplausible: return T("Implausible");
    case engine::ClaimVerdict::kOptimistic: return T("Optimistic");
    case engine::ClaimVerdict::kPlausible: return T("Plausible");
    case engine::ClaimVerdict::kConservative: return T("Conservative");
    case engine::ClaimVerdict::kIncomplete: return T("Cannot check yet");
  }
  return "";
}

ImU32 VerdictColor(engine::ClaimVerdict verdict) {
  switch (verdict) {
    case engine::ClaimVerdict::kImpossible:
    case engine::ClaimVerdict::kImplausible: return Colors().bad;
    case engine::ClaimVerdict::kOptimistic: return Colors().warn;
    case engine::ClaimVerdict::kPlausible:
    case engine::ClaimVerdict::kConservative: return Colors().ok;
    case engine::ClaimVerdict::kIncomplete: return Colors().muted;
  }
  return Colors().muted;
}

// Which of the claims was checked, when several were given.
const char* CheckedClaimText(engine::ClaimKind kind) {
  switch (kind) {
    case engine::ClaimKind::kThroughput: return T("Checked: the claimed speed.");
    case engine::ClaimKind::kWallTime: return T("Checked: the claimed wall time for the training tokens.");
    case engine::ClaimKind::kMfu: return T("Checked: the claimed MFU.");
    case engine::ClaimKind::kNone: return "";
  }
  return "";
}

// "Predicted here: 8,120 tokens/s at 41.3% MFU; 14.3 days for the tokens", then the
// range of published runs like this one.
void DrawPrediction(const AppState& state, const engine::Estimate& e) {
  const engine::Throughput& th = e.throughput;
  std::string text = Printf(T("Predicted here: %s tokens/s at %.1f%% MFU"), WithThousands(th.tokens_per_s).c_str(),
                            th.mfu * 100);
  if (e.time.tokens > 0) text += Printf(T("; %s of training steps for the tokens (the wall time adds start-up, checkpoints and failures)"), HoursText(e.time.wall_hours).c_str());
  WrappedText((text + T(".")).c_str());  // a full stop in the reader's script
  const engine::Scenario& s = state.inputs.scenario;
  const SpeedRange range = PredictedSpeedRange(th.tokens_per_s, s.training, s.parallel.framework);
  if (range.cases == 0) return;
  MutedText(Printf(T("Typical range: %s to %s tokens/s (±%.0f%%, the median error on %d published runs like this "
                     "one, each predicted without its source in the calibration: half of them missed by more)."),
                   WithThousands(range.low_tokens_per_s).c_str(), WithThousands(range.high_tokens_per_s).c_str(),
                   range.median_error * 100, range.cases)
                .c_str());
}

}  // namespace

void DrawClaimVerdict(const AppState& state, const engine::Estimate& e) {
  const engine::ClaimCheck& claim = e.claim;
  if (!claim.present) return;
  ImGui::Spacing();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(T("Claim check:"));
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, VerdictColor(claim.verdict));
  ImGui::TextUnformatted(VerdictWord(claim.verdict));
  ImGui::PopStyleColor();
  WrappedText(MessageText(claim.message).c_str());
  MutedText(CheckedClaimText(claim.checked));
  if (claim.verdict != engine::ClaimVerdict::kIncomplete) {
    WrappedText(Printf(T("The claim implies %s tokens/s at %.1f%% MFU."), WithThousands(claim.implied_tokens_per_s).c_str(),
                       claim.implied_mfu * 100)
                    .c_str());
  }
  DrawPrediction(state, e);
}

}  // namespace ui
