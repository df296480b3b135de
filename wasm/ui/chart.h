// A minimal 2-D chart drawn with ImGui's draw list (no plotting library is available):
// a plot rectangle with linear or log axes, ticks with unit labels, and coordinate
// mapping for points and lines. Each chart is built, drawn into, then ended.
#pragma once

#include <functional>
#include <vector>
#include <string>

#include "imgui.h"

namespace ui {

struct Axis {
  double min = 0, max = 1;
  bool log = false;
  std::function<std::string(double)> label;  // tick label text
  const char* title = "";
};

class Chart {
 public:
  // Reserves `height` pixels of the current window's width and draws axes and ticks.
  Chart(const char* id, const Axis& x, const Axis& y, float height, float scale);

  // Screen position of data point (x, y).
  ImVec2 At(double x, double y) const;
  bool Contains(ImVec2 p) const;
  ImDrawList* Draw() const { return draw_; }
  ImVec2 Min() const { return min_; }
  ImVec2 Max() const { return max_; }

 private:
  double Fraction(const Axis& a, double v) const;
  void DrawTicks(const Axis& a, bool horizontal) const;

  Axis x_, y_;
  ImVec2 min_, max_;
  ImDrawList* draw_ = nullptr;
  float scale_ = 1;
};

// Tick labels.
std::string HoursTick(double hours);
std::string MoneyTick(double amount);

}  // namespace ui
