// The page's current inputs and result as JSON, for the JS API (TrainSizer.current()):
// tests and embedding pages read what the person sees without scraping the canvas.
#pragma once

#include <string>

namespace web {

std::string PageStateJson();

}  // namespace web
