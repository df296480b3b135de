// Small drawing helpers every panel shares: headings and muted text in the page's style.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "app_state.h"
#include "theme.h"

namespace ui {

// A section heading in the heading font, optionally underlined.
void Heading(const char* text, const Fonts& fonts, bool underline = false);

// A multi-line text box holding a whole document (a config.json, a catalog overlay),
// edited in place: typed or pasted into, or replaced by a file or text dropped on it
// (state.dropped). True when the text changed, whichever way. Its anchor is
// "document:<id without the ##>".
bool DocumentBox(AppState& state, const char* id, std::string& text, float height);

// The hover card behind a figure: how it is computed (with this plan's numbers) and the
// source of the formula or figure.
void FormulaTooltip(const char* formula, const char* source);

// `text` as it fits in `room` pixels: whole, or without its trailing parenthetical
// ("NVIDIA H100 SXM5 80GB (79.6 GiB)" → the name, in either language's parentheses), since
// a whole name reads better than one cut mid-word. Still too long, ImGui clips it.
std::string FittedLabel(const std::string& text, float room);

// ImGui::TableHeadersRow with each header a FittedLabel of its column (the whole on hover).
void TableHeadersRowFitted();

// ImGui::BeginCombo whose preview, when the box is too narrow for it, drops its trailing
// parenthetical ("NVIDIA H100 SXM5 80GB (79.6 GiB)" shows the name) and shows whole in a
// tooltip on hover.
bool BeginComboShowingAll(const char* id, const char* preview, int flags = 0);

// Text wrapped to the current wrap position (the cell, window or PushTextWrapPos), like
// ImGui::TextWrapped but breaking lines as text_wrap.h does: numbers, ids and English words
// stay whole, Chinese breaks between characters.
void WrappedText(const char* text);

// Wrapped text in the muted colour (explanations, sources, secondary facts).
void MutedText(const char* text);

// True when the space left on the current line is too narrow for a table of several
// columns (a phone or a blog embed): panels then draw each row as a block of lines.
bool TooNarrowForColumns(float dpi_scale);

// `long_label` if it fits on the rest of the line beside a collapsing header's arrow, else
// `short_label` (a header's label is cut off, not wrapped). Measured in the current font.
const char* FittingLabel(const char* long_label, const char* short_label);

// Records where the last item was drawn under `name` in state.anchors (for browser tests).
void MarkAnchor(AppState& state, const std::string& name);

}  // namespace ui
