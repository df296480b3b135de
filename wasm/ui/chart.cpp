#include "chart.h"

#include <cmath>
#include <cstdio>

#include "theme.h"

namespace ui {

Chart::Chart(const char* id, const Axis& x, const Axis& y, float height, float scale) : x_(x), y_(y), scale_(scale) {
  ImGui::PushID(id);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  // The y axis title sits above the plot, left-aligned, so the top margin holds a line of text.
  const float title_height = ImGui::GetTextLineHeight();
  const float left = 70 * scale, bottom = 38 * scale, top = title_height + 8 * scale, right = 12 * scale;
  min_ = ImVec2(origin.x + left, origin.y + top);
  max_ = ImVec2(origin.x + width - right, origin.y + height - bottom);
  draw_ = ImGui::GetWindowDrawList();
  draw_->AddRectFilled(min_, max_, Colors().chart_bg);
  draw_->AddRect(min_, max_, Colors().chart_frame);
  DrawTicks(x_, true);
  DrawTicks(y_, false);
  const ImVec2 xt = ImGui::CalcTextSize(x_.title);
  draw_->AddText(ImVec2((min_.x + max_.x - xt.x) / 2, max_.y + 20 * scale), Colors().muted, x_.title);
  draw_->AddText(ImVec2(origin.x, origin.y), Colors().muted, y_.title);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::PopID();
}

double Chart::Fraction(const Axis& a, double v) const {
  if (a.log) {
    const double lo = std::log10(std::max(a.min, 1e-12)), hi = std::log10(std::max(a.max, 1e-12));
    return hi > lo ? (std::log10(std::max(v, 1e-12)) - lo) / (hi - lo) : 0.5;
  }
  return a.max > a.min ? (v - a.min) / (a.max - a.min) : 0.5;
}

ImVec2 Chart::At(double x, double y) const {
  return ImVec2(float(min_.x + Fraction(x_, x) * (max_.x - min_.x)), float(max_.y - Fraction(y_, y) * (max_.y - min_.y)));
}

bool Chart::Contains(ImVec2 p) const { return p.x >= min_.x && p.x <= max_.x && p.y >= min_.y && p.y <= max_.y; }

// Ticks at 1-2-5 steps on linear axes, at powers of ten (and 2, 5 between) on log axes.
void Chart::DrawTicks(const Axis& a, bool horizontal) const {
  // An axis over figures that are not finite has no ticks to draw; and however wide a
  // range, the loops stop at a screenful (an inf bound or a step below one ulp of the
  // value once looped forever, filling memory until std::bad_alloc, every frame).
  constexpr size_t kMaxTicks = 64;
  std::vector<double> ticks;
  if (!std::isfinite(a.min) || !std::isfinite(a.max) || a.max < a.min) return;
  if (a.log) {
    for (double decade = std::pow(10, std::floor(std::log10(std::max(a.min, 1e-12))));
         decade <= a.max && ticks.size() < kMaxTicks; decade *= 10) {
      for (double m : {1.0, 2.0, 5.0}) {
        if (decade * m >= a.min && decade * m <= a.max) ticks.push_back(decade * m);
      }
    }
  } else {
    const double raw = (a.max - a.min) / 5;
    const double mag = std::pow(10, std::floor(std::log10(std::max(raw, 1e-12))));
    const double step = raw / mag < 2 ? mag * 2 : raw / mag < 5 ? mag * 5 : mag * 10;
    for (double v = std::ceil(a.min / step) * step; v <= a.max && ticks.size() < kMaxTicks; v += step) {
      ticks.push_back(v);
    }
  }
  std::string previous;
  for (double v : ticks) {
    const ImVec2 p = horizontal ? At(v, y_.min) : At(x_.min, v);
    const std::string text = a.label ? a.label(v) : std::to_string(v);
    // Ticks a label rounds to the same text (0.01 h and 0.02 h both "1 min") are drawn once.
    if (text == previous) continue;
    previous = text;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (horizontal) {
      draw_->AddLine(ImVec2(p.x, min_.y), ImVec2(p.x, max_.y), Colors().chart_grid);
      draw_->AddText(ImVec2(p.x - size.x / 2, max_.y + 3 * scale_), Colors().muted, text.c_str());
    } else {
      draw_->AddLine(ImVec2(min_.x, p.y), ImVec2(max_.x, p.y), Colors().chart_grid);
      draw_->AddText(ImVec2(min_.x - size.x - 6 * scale_, p.y - size.y / 2), Colors().muted, text.c_str());
    }
  }
}

std::string HoursTick(double h) {
  char buf[32];
  if (h < 1.0 / 60) std::snprintf(buf, sizeof buf, "%.0f s", h * 3600);
  else if (h < 1) std::snprintf(buf, sizeof buf, "%.0f min", h * 60);
  else if (h < 48) std::snprintf(buf, sizeof buf, "%.0f h", h);
  else std::snprintf(buf, sizeof buf, "%.0f d", h / 24);
  return buf;
}

std::string MoneyTick(double v) {
  char buf[32];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.0fM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%.0fk", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace ui
