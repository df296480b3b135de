// A vision-language model's sequence per sample, split into its text and its images and
// video (engine/vision.h), and the vision tower's part of the step.
#include <string>

#include "app.h"
#include "format.h"
#include "i18n.h"
#include "widgets.h"

namespace ui {
namespace {

// One row of the split: what, how many tokens, and how they come about.
void SequenceRow(const char* what, double tokens, const std::string& how) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  WrappedText(what);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextUnformatted(WithThousands(tokens).c_str());
  ImGui::TableSetColumnIndex(2);
  WrappedText(how.c_str());
}

const char* TowerTrainingLabel(engine::VisionTraining tower) {
  switch (tower) {
    case engine::VisionTraining::kFrozen: return T("frozen");
    case engine::VisionTraining::kLora: return T("LoRA adapters");
    case engine::VisionTraining::kFull: return T("fully trained");
  }
  return "";
}

}  // namespace

void DrawSequenceSection(AppState& state, const engine::Estimate& e, const Fonts& fonts) {
  if (!e.model.vision.present()) return;
  const engine::SampleSequence& q = e.sequence;
  const engine::MediaSetup& media = state.inputs.scenario.training.media;
  Heading(T("Sequence per sample"), fonts);
  MarkAnchor(state, "sequence");
  const float scale = state.dpi_scale;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("sequence", 3, flags)) {
    ImGui::TableSetupColumn(L("Part"), ImGuiTableColumnFlags_WidthFixed, 120 * scale);
    ImGui::TableSetupColumn(L("Tokens"), ImGuiTableColumnFlags_WidthFixed, 90 * scale);
    ImGui::TableSetupColumn(L("How"), ImGuiTableColumnFlags_WidthStretch);
    TableHeadersRowFitted();
    SequenceRow(T("Text"), q.text_tokens, T("seq_len"));
    if (media.images_per_sample > 0 && q.image.tokens > 0) {
      const engine::MediaTokens& i = q.image;
      SequenceRow(T("Images"), media.images_per_sample * i.tokens,
                  Printf(T("%d × %s tokens: %d × %d px resized to %d × %d, %d tile(s), %s patches each, %s markers"),
                         media.images_per_sample, WithThousands(i.tokens).c_str(), media.image_width,
                         media.image_height, i.width_px, i.height_px, i.tiles, WithThousands(i.patches).c_str(),
                         WithThousands(i.markers).c_str()));
    }
    if (q.video.frames > 0) {
      const engine::MediaTokens& v = q.video;
      SequenceRow(T("Video"), v.tokens,
                  Printf(T("%s frames at %d × %d px, %s patches"), WithThousands(v.frames).c_str(), v.width_px,
                         v.height_px, WithThousands(v.patches).c_str()));
    }
    const bool within = e.model.max_context <= 0 || q.total_tokens <= e.model.max_context;
    SequenceRow(T("Total"), q.total_tokens,
                e.model.max_context > 0
                    ? Printf(within ? T("within the model's %s-token context") : T("past the model's %s-token context"),
                             WithThousands(e.model.max_context).c_str())
                    : std::string());
    ImGui::EndTable();
  }
  MutedText(Printf(T("Vision tower: %s parameters (%s), projector %s (%s); its activations %s per GPU, %s TFLOP "
                     "forward per sample."),
                   ParamsText(e.params.vision_tower).c_str(), TowerTrainingLabel(media.tower),
                   ParamsText(e.params.vision_projector).c_str(), media.projector ? T("trained") : T("frozen"),
                   GibText(e.vision_activation_bytes).c_str(), Printf("%.1f", e.vision_flops.forward / 1e12).c_str())
                .c_str());
}

}  // namespace ui
